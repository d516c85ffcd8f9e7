/**
 * One family compared on both sides: fast-check draws the family's command sequences, each command
 * runs on the target and then on the reference (each from fresh state, the family's state read back
 * after it), and the two steps are compared; on a difference the sequence is shrunk and the first
 * differing step kept with both sides' observations, the seed and the replay path.
 * @see docs/usage.md (Differential testing against the reference); docs/stateful.md;
 *   https://fast-check.dev/docs/advanced/model-based-testing/
 */
import fc from 'fast-check';
import type { ModelCommand } from '../../engine/stateful/command.js';
import type { Family } from '../../engine/stateful/family.js';
import { commandList, Real, type Step } from '../../engine/stateful/real.js';
import { familyNotRunnable, formatModelPath, MAX_COMMANDS, parseModelPath } from '../../engine/stateful/run-family.js';
import { operationSeed } from '../../engine/context.js';
import { compareStep, IdMap, type Difference } from './normalize.js';
import type { Pair, Side } from './sides.js';
import type { FamilyDiff } from './report.js';

/** The real systems of one sequence, and how each side's ids are named. */
interface DiffReal extends Pair<Real> {
  ids: Pair<IdMap>;
}

/** A step at which the two sides differed: ends the sequence, which fast-check then shrinks. */
class DifferenceFound extends Error {
  readonly differences: Difference[];
  constructor(command: string, differences: Difference[]) {
    super(`${command}: ${differences.length} difference(s)`);
    this.name = 'DifferenceFound';
    this.differences = differences;
  }
}

/**
 * A family's command run on both sides in turn, with the family's state read back after it on
 * each; the two steps are then compared.
 */
class DiffCommand<M extends object> implements fc.AsyncCommand<Pair<M>, DiffReal> {
  readonly inner: ModelCommand<M>;
  readonly family: Family<M>;
  constructor(inner: ModelCommand<M>, family: Family<M>) {
    this.inner = inner;
    this.family = family;
  }
  check(model: Readonly<Pair<M>>): boolean {
    return this.inner.check(model.target);
  }
  async run(model: Pair<M>, real: DiffReal): Promise<void> {
    await this.inner.run(model.target, real.target);
    await this.family.readBack?.(model.target, real.target);
    const command = real.target.steps.at(-1)!.command;
    // The models move alike unless what they read from the targets differs (a product's benefits, an invitation's validity).
    if (!this.inner.check(model.reference)) {
      real.reference.begin(command);
      throw new DifferenceFound(command, [{ where: 'model', kind: 'precondition', target: 'the command can run', reference: 'the command cannot run on what the reference showed before' }]);
    }
    await this.inner.run(model.reference, real.reference);
    await this.family.readBack?.(model.reference, real.reference);
    const differences = compareStep(real.target.steps.at(-1)!.observations, real.reference.steps.at(-1)!.observations, real.ids);
    if (differences.length > 0) throw new DifferenceFound(command, differences);
  }
  toString(): string {
    return this.inner.toString();
  }
}

/** Runs one family on both sides. @throws what a sequence threw that is not a difference (a harness error) */
export async function diffFamily(family: Family<object>, sides: Pair<Side>, options: { seed: number; runs: number; path?: string }): Promise<FamilyDiff> {
  const unansweredBefore = sides.target.unanswered();
  // A reset first: it tells the fixtures of a reference served by `conformance serve`.
  for (const side of [sides.target, sides.reference]) await side.reset?.();
  const not = familyNotRunnable(family, sides.target.env) ?? familyNotRunnable(family, sides.reference.env);
  if (not) return { family: family.id, status: 'skipped', skipReason: not.status === 'skipped' ? not.skip.reason : not.reason, sequences: 0 };
  for (const side of [sides.target, sides.reference]) {
    const why = await family.whyNot?.(new Real(side.env, 'observe'));
    const unanswered = sides.target.unanswered() - unansweredBefore;
    // A reason drawn from a target that gave no answer is no reason to skip.
    if (why && unanswered > 0) return { family: family.id, status: 'unanswered', sequences: 0, unanswered };
    if (why) return { family: family.id, status: 'skipped', skipReason: why.reason, sequences: 0 };
  }
  const replay = options.path === undefined ? undefined : parseModelPath(options.path);
  const arbitraries = family.commands(sides.target.env).map((arbitrary) => arbitrary.map((command) => new DiffCommand(command, family)));
  const commands = fc.commands(arbitraries, { maxCommands: MAX_COMMANDS, size: 'max', ...(replay ? { replayPath: replay.replayPath } : {}) });
  let latest: { steps: Pair<Step[]>; error: unknown } | undefined;
  const property = fc.asyncProperty(commands, async (cmds) => {
    await sides.target.reset?.();
    await sides.reference.reset?.();
    const real: DiffReal = { target: new Real(sides.target.env, 'observe'), reference: new Real(sides.reference.env, 'observe'), ids: { target: new IdMap(), reference: new IdMap() } };
    let error: unknown;
    try {
      await fc.asyncModelRun(async () => ({ model: { target: await family.setup(real.target), reference: await family.setup(real.reference) }, real }), cmds);
    } catch (thrown) {
      error = thrown;
    }
    await family.teardown?.(real.target);
    await family.teardown?.(real.reference);
    if (error === undefined) return;
    latest = { steps: { target: real.target.steps, reference: real.reference.steps }, error };
    throw error;
  });
  const details = await fc.check(property, {
    seed: operationSeed(options.seed, `diff:${family.checkId}`),
    numRuns: options.runs,
    ...(replay ? { path: replay.counterexamplePath, endOnFailure: true } : {}),
  });
  if (!details.failed) {
    // A target that gave no answer may have led its model to draw nothing to compare: not "same".
    const unanswered = sides.target.unanswered() - unansweredBefore;
    return unanswered > 0 ? { family: family.id, status: 'unanswered', sequences: details.numRuns, unanswered } : { family: family.id, status: 'same', sequences: details.numRuns };
  }
  const error = latest?.error;
  if (!(error instanceof DifferenceFound) || !latest || details.counterexample === null) throw error ?? new Error(`diff of ${family.id} failed without a difference`);
  const commandSteps = (steps: Step[]) => steps.filter((s) => s.command !== 'setup' && s.command !== 'teardown');
  const targetSteps = commandSteps(latest.steps.target);
  const referenceSteps = commandSteps(latest.steps.reference);
  const last = targetSteps.at(-1)!;
  return {
    family: family.id,
    status: 'different',
    sequences: details.numRuns,
    difference: {
      commands: commandList(latest.steps.target),
      length: targetSteps.length,
      step: { index: targetSteps.length, command: last.command },
      differences: error.differences,
      target: last.observations,
      reference: referenceSteps.at(-1)?.observations ?? [],
      seed: options.seed,
      path: formatModelPath({ counterexamplePath: details.counterexamplePath!, replayPath: /replayPath="([^"]*)"/.exec(String(details.counterexample[0]))?.[1] ?? '' }),
      shrinks: details.numShrinks,
    },
  };
}
