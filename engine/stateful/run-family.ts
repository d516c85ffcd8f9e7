/**
 * Runs a family of model-based commands against a target with fast-check: `fc.commands` draws
 * sequences, `fc.asyncModelRun` runs each on a fresh model and the target, and a sequence whose
 * step disagrees with the model is shrunk to the shortest one that still does. The outcome carries
 * the shrunk sequence as a readable command list (`inviteSeat → claimSeat(s1) → claimSeat(s1)[reused]`),
 * the run's seed and the replay path, which `conformance run --checks <id> --seed N --path P` replays.
 * @see https://fast-check.dev/docs/advanced/model-based-testing/ (replayPath, seed and path)
 */
import fc from 'fast-check';
import { noAnswerFinding } from '../judge.js';
import { notRunnable, type NotRunnable } from './runnable.js';
import { operationSeed } from '../context.js';
import { HarnessError } from '../../core/errors.js';
import type { Exchange, SkipKind } from '../../core/types.js';
import type { Family } from './family.js';
import type { FamilyInfo } from './registry.js';
import { commandList, ModelMismatch, Real, type CommandEnv, type ModelFinding, type Step } from './real.js';

/** Most commands of one sequence. */
export const MAX_COMMANDS = 20;

/** Separates fast-check's counterexample path from the commands' replay path in a model path (`3:1:0@CB:A`). */
const PATH_SEPARATOR = '@';

/** What {@link runFamily} runs. */
export interface FamilyRunOptions<M extends object> {
  family: Family<M>;
  env: CommandEnv;
  /** The run's seed (`--seed`), printed in reproducers; fast-check's seed is derived from it and the family's check id. */
  runSeed: number;
  /** Sequences to draw (each up to `maxCommands` commands). */
  numRuns: number;
  maxCommands?: number;
  /** The model path of an earlier failure (`--path`): that sequence alone is run again. */
  path?: string;
}

/** A sequence that broke the model, shrunk. */
export interface FamilyFailure {
  finding: ModelFinding;
  /** The exchange that shows it, when a request does. */
  exchange: Exchange | undefined;
  /** The shrunk sequence, `createOrder → completeOrder(o1) → getInvoice(o1)[not generated]`. */
  commands: string;
  steps: Step[];
  /** The run's seed. */
  seed: number;
  /** The model path to replay it with (`--seed seed --path path`). */
  path: string;
  shrinks: number;
  /** Secrets the sequence obtained, for reproducers. */
  secrets: Real['secrets'];
}

/** What running a family gave. */
export interface FamilyOutcome {
  status: 'passed' | 'failed' | 'skipped' | 'not_applicable';
  /** Why it did not run: the reason, and for a skip what the run lacks and how to provide it. */
  skip?: { reason: string; kind?: SkipKind; fix?: string };
  /** Sequences run (shrinking not counted). */
  runs: number;
  /** Edges of the transition tables the target was seen to take, in every sequence. */
  transitions: string[];
  /** Statuses seen on the family's operation, and its parameters sent (`path:id`, `query:anonymize`), for spec coverage. */
  observed: { statuses: number[]; parameters: string[] };
  failure?: FamilyFailure;
}

/** A model path: fast-check's counterexample path and the replay path of `fc.commands`. */
export interface ModelPath {
  counterexamplePath: string;
  replayPath: string;
}

/**
 * Reads a model path (`3:1:0@CB:A`).
 * @throws HarnessError CNF_ERR_CONFIG_INVALID when it is not one
 */
export function parseModelPath(path: string): ModelPath {
  const [counterexamplePath, replayPath, ...rest] = path.split(PATH_SEPARATOR);
  if (!counterexamplePath || replayPath === undefined || rest.length > 0 || !/^\d+(:\d+)*$/.test(counterexamplePath) || !/^[A-Za-z0-9+/]*:[A-Za-z0-9+/]*$/.test(replayPath)) {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--path ${JSON.stringify(path)} is not the path of a model-based failure (like "3:1:0${PATH_SEPARATOR}CB:A", as a failure prints it)`);
  }
  return { counterexamplePath, replayPath };
}

/** Writes a model path. */
export function formatModelPath(path: ModelPath): string {
  return `${path.counterexamplePath}${PATH_SEPARATOR}${path.replayPath}`;
}

/** The replay path `fc.commands` printed in a counterexample's text (`... /*replayPath="CB:A"*\/`). */
function replayPathOf(commands: unknown): string {
  return /replayPath="([^"]*)"/.exec(String(commands))?.[1] ?? '';
}

/** Why a family cannot run in an env (engine/stateful/runnable.ts), or undefined when it can. */
export function familyNotRunnable(family: FamilyInfo, env: CommandEnv): NotRunnable | undefined {
  return notRunnable(family, env, new Set(env.spec.operations.map((o) => o.operationId)), 'model');
}

/**
 * Runs a family against the env's target.
 * @returns passed, failed (with the shrunk sequence) or skipped (with the reason)
 * @throws what a sequence threw that is not a disagreement with the model (an AdapterError, a harness bug): a harness error, never a failure of the target
 */
export async function runFamily<M extends object>(options: FamilyRunOptions<M>): Promise<FamilyOutcome> {
  const { family, env } = options;
  const transitions = new Set<string>();
  const statuses = new Set<number>();
  const parameters = new Set<string>();
  const outcome = (status: FamilyOutcome['status'], runs: number, extra: Partial<FamilyOutcome> = {}): FamilyOutcome => ({
    status,
    runs,
    transitions: [...transitions].sort(),
    observed: { statuses: [...statuses].sort((a, b) => a - b), parameters: [...parameters].sort() },
    ...extra,
  });
  const not = familyNotRunnable(family, env);
  if (not?.status === 'not_applicable') return outcome('not_applicable', 0, { skip: { reason: not.reason } });
  if (not) return outcome('skipped', 0, { skip: not.skip });
  const lacking = await family.whyNot?.(new Real(env, 'assert'));
  if (lacking) return outcome('skipped', 0, { skip: lacking });

  const replay = options.path === undefined ? undefined : parseModelPath(options.path);
  const commands = fc.commands(family.commands(env), { maxCommands: options.maxCommands ?? MAX_COMMANDS, size: 'max', ...(replay ? { replayPath: replay.replayPath } : {}) });
  // The trace of the latest sequence that failed: after shrinking, the counterexample's.
  let latest: { real: Real; error: unknown } | undefined;
  let exchanged = false;
  const record = (real: Real) => {
    for (const edge of real.transitions) transitions.add(edge);
    for (const step of real.steps) {
      for (const { exchange } of step.observations) {
        if (exchange?.response) exchanged = true;
        if (exchange?.operationId !== family.operationId) continue;
        if (exchange.response) statuses.add(exchange.response.status);
        for (const name of Object.keys(exchange.case.query)) parameters.add(`query:${name}`);
        for (const name of Object.keys(exchange.case.pathParams)) parameters.add(`path:${name}`);
      }
    }
  };
  const property = fc.asyncProperty(commands, async (cmds) => {
    const real = new Real(env, 'assert');
    let error: unknown;
    try {
      await fc.asyncModelRun(async () => ({ model: await family.setup(real), real }), cmds);
    } catch (thrown) {
      error = thrown;
    }
    try {
      await family.teardown?.(real);
    } catch (thrown) {
      error ??= thrown;
    }
    record(real);
    // A verdict needs an answer: a sequence in which the target answered nothing is not a pass.
    if (error === undefined) {
      const silent = real.steps.flatMap((step) => step.observations).find((o) => o.exchange && !o.exchange.response);
      if (silent) error = new ModelMismatch({ ...noAnswerFinding(silent.exchange!)!, rule: family.rule }, silent.exchange);
    }
    if (error === undefined) return;
    if (!fc.PreconditionFailure.isFailure(error)) latest = { real, error };
    throw error;
  });
  const details = await fc.check(property, {
    seed: operationSeed(options.runSeed, family.checkId),
    numRuns: options.numRuns,
    ...(replay ? { path: replay.counterexamplePath, endOnFailure: true } : {}),
  });
  if (!details.failed) {
    // A family none of whose sequences got an answer from the target has shown nothing about it.
    if (!exchanged) return outcome('skipped', details.numRuns, { skip: { reason: 'no command sequence got an answer from the target', kind: 'option', fix: 'check that the target answers: the exchanges of this run that got no answer are failed cells of not_a_server_error' } });
    return outcome('passed', details.numRuns);
  }
  if (details.counterexample === null || latest === undefined) {
    return outcome('skipped', details.numRuns, { skip: { reason: `no command sequence could be set up (${details.numSkips} skipped): the target ran out of what the sequences use`, kind: 'fixture', fix: 'give the target the records the family\'s commands use (see docs/stateful.md)' } });
  }
  const error = latest.error;
  if (!(error instanceof ModelMismatch)) throw error;
  return outcome('failed', details.numRuns, {
    failure: {
      finding: error.finding,
      exchange: error.exchange,
      commands: commandList(latest.real.steps),
      steps: latest.real.steps,
      seed: options.runSeed,
      path: formatModelPath({ counterexamplePath: details.counterexamplePath!, replayPath: replayPathOf(details.counterexample[0]) }),
      shrinks: details.numShrinks,
      secrets: latest.real.secrets,
    },
  });
}

/**
 * The sequences a family draws in a run of `runs` cases per check: a fifth, from 1 to 10, and no
 * more than the family's `maxSequences`, so that the run stays within its time and the target's
 * supplies (50 cases: 10 sequences).
 */
export function sequencesFor(family: Pick<Family<object>, 'maxSequences'>, runs: number): number {
  return Math.min(family.maxSequences ?? 10, 10, Math.max(1, Math.ceil(runs / 5)));
}

/** ` in 3 steps` (of shrinking), or nothing when the first failing sequence was already the shortest. */
export function shrinkNote(shrinks: number): string {
  return shrinks === 0 ? '' : ` in ${shrinks} step${shrinks === 1 ? '' : 's'}`;
}

/**
 * The lines a failure adds to its message: the shrunk command list, the step that disagreed, and
 * how to replay it.
 */
export function failureLines(family: FamilyInfo, failure: FamilyFailure): string[] {
  return [
    `Commands (shrunk${shrinkNote(failure.shrinks)}): ${failure.commands}`,
    `Replay: npx conformance run --checks ${family.checkId} --seed ${failure.seed} --path "${failure.path}"`,
  ];
}
