/**
 * `conformance diff`: differential testing. The same generated command sequences (the families of
 * generators/commands/) run against the target and against an embedded reference server, step by
 * step, each from fresh state; every step's answers are normalized (status; body shape, the set of
 * keys and JSON types; selected values such as status fields and booleans; ids mapped between the
 * two sides by order of appearance; timestamps reduced to their presence and format) and compared,
 * together with the family's state read back after the step. On a difference fast-check shrinks
 * the sequence, and the report shows the shrunk sequence, the first differing step with both
 * sides, the seed and the path that replays it.
 * @see ../../shared/design.md, Reference server ("the oracle in model-based tests"); style.md (fast-check)
 */
import fc from 'fast-check';
import pc from 'picocolors';
import type { ModelCommand } from '../engine/stateful/command.js';
import type { Family } from '../engine/stateful/family.js';
import { FAMILIES } from '../engine/stateful/families.js';
import { MODEL_FAMILIES, type FamilyId } from '../engine/stateful/index.js';
import { answerText, commandList, Real, type CommandEnv, type Observation, type Step } from '../engine/stateful/real.js';
import { familyNotRunnable, formatModelPath, MAX_COMMANDS, parseModelPath, shrinkNote } from '../engine/stateful/run-family.js';
import { startReferenceServer, type RunningReference } from '../server/index.js';
import { loadSpec, specPath, type ApiVersion, type LoadedSpec } from '../core/spec/load.js';
import { AdapterError, outsideOperation, type TargetAdapter } from '../core/adapter.js';
import { guardAdapter, importAdapterFactory, resolveAdapterOption } from '../engine/adapters/load.js';
import { createReferenceAdapter } from '../engine/adapters/reference.js';
import { createRunBreaker, DEFAULT_UNRESPONSIVE_AFTER, type RunBreaker } from '../core/breaker.js';
import { createClient, documentHeaders, type Client } from '../engine/client.js';
import { secretsOf } from '../engine/cell.js';
import { JudgedCells, judgingClient } from '../engine/judge.js';
import type { CellMeta } from '../core/types.js';
import { DEFAULT_TIMEOUT_MS, probeTarget, readConfigFile, resolveRemoteTarget } from './config.js';
import { defaultTokenEnv } from '../core/target.js';
import { operationSeed } from '../engine/context.js';
import { HarnessError } from '../core/errors.js';
import type { Target } from '../core/target.js';
import type { Role } from '../core/types.js';

/** Sequences each family draws by default. */
export const DEFAULT_DIFF_RUNS = 10;

/** Seed of the embedded reference's demo data by default: `conformance serve`'s, so that a default-served reference compares id for id. */
export const DEFAULT_REFERENCE_SEED = 1;

/** Options of {@link runDiff}. */
export interface DiffOptions {
  /** Base URL of the target. */
  target: string;
  /** conformance.config.json: roles (tokens by environment variable), fixtures, pacing. */
  config?: string;
  /**
   * `--adapter`: `reference` for a reference started with `conformance serve` (its control API
   * also resets it before every sequence), or a module exporting `createAdapter(target)`. Without
   * one, the families that need the adapter are skipped.
   */
  adapter?: string;
  /** Family ids (`seats`) or their check ids (`model_seats`); default all. */
  families?: string[];
  /** Seed of the sequences; random (and printed) when absent. */
  seed?: number;
  /** Sequences per family; default {@link DEFAULT_DIFF_RUNS}. */
  runs?: number;
  /** The path a difference printed: replays it (with its seed and its one family). */
  path?: string;
  /** Version of the document and of the embedded reference; default the latest. */
  apiVersion?: ApiVersion;
  /** An OpenAPI document whose operations the commands send (default: the bundled one of `apiVersion`). */
  spec?: string;
  /** Seed of the embedded reference's demo data; default {@link DEFAULT_REFERENCE_SEED}. */
  referenceSeed?: number;
  /** Requests per second to the target; null for no pacing (default 80). */
  rate?: number | null;
  timeoutMs?: number;
  /**
   * Consecutive requests to the target without an answer after which it is declared unresponsive
   * and every later request to it fails at once (core/breaker.ts); default 5, 0 never.
   */
  unresponsiveAfter?: number;
  /** Where credentials are read from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Where the report is written; default stdout. */
  out?: NodeJS.WritableStream;
  color?: boolean;
}

/** One normalized difference between the two sides of a step. */
export interface Difference {
  /** The observation, and the place in its answer for a shape or value (`POST /v1/customer-seats/claim body.seat.claimed_at`). */
  where: string;
  kind: 'request' | 'status' | 'shape' | 'value' | 'precondition';
  target: unknown;
  reference: unknown;
}

/** The first step at which the two sides differed, after shrinking. */
export interface DiffReport {
  /** The shrunk sequence, `inviteSeat → claimSeat(s1) → claimSeat(s1)[reused]`. */
  commands: string;
  /** Number of commands in it. */
  length: number;
  /** The differing step: its 1-based position and the command. */
  step: { index: number; command: string };
  differences: Difference[];
  /** What each side observed at that step. */
  target: Observation[];
  reference: Observation[];
  seed: number;
  /** Replays it with `--seed seed --path path`. */
  path: string;
  shrinks: number;
}

/** What comparing one family gave. */
export interface FamilyDiff {
  family: FamilyId;
  /**
   * `unanswered`: no difference was found, but requests of the family to the target got no answer
   * (`unanswered` of them), so "same" would be a verdict without an answer.
   */
  status: 'same' | 'different' | 'unanswered' | 'skipped';
  skipReason?: string;
  /** Requests of the family to the target that got no answer (timeout, reset, not HTTP). */
  unanswered?: number;
  sequences: number;
  difference?: DiffReport;
}

/** What {@link runDiff} ends with: exit 0 when no family differs and the target's answers pass the response checks, 1 otherwise. */
export interface DiffOutcome {
  exitCode: 0 | 1;
  seed: number;
  families: FamilyDiff[];
  /**
   * The response checks' failures on the target's own answers during the sequences (engine/judge.ts):
   * a target whose answers break the document fails even where the reference answers the same.
   */
  judged: CellMeta[];
}

// ------------------------------------------------------------------ normalization

/** Keys whose value is compared (besides booleans, and ids mapped between the sides): states and counts the API defines. */
const VALUE_KEYS = new Set(['status', 'error', 'service', 'total_count', 'max_page', 'size', 'number', 'chunk_start', 'chunk_end', 'token_type', 'format']);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Most items of an array that are compared one by one (the length is always compared). */
const MAX_ITEMS = 100;

/** Maps one side's ids to `#1`, `#2`... by order of first appearance, so that the two sides' ids compare. */
export class IdMap {
  readonly #ids = new Map<string, string>();
  /** The side-independent name of an id. */
  name(id: string): string {
    const key = id.toLowerCase();
    let name = this.#ids.get(key);
    if (!name) {
      name = `#${this.#ids.size + 1}`;
      this.#ids.set(key, name);
    }
    return name;
  }
}

/** A normalized JSON value: each path (`body.seat.status`) with its JSON type and, where compared, its value. */
export type Normalized = Map<string, { type: string; value?: unknown }>;

/** The JSON type of a value, strings refined to `uuid` and `date-time`, numbers to `integer`. */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'absent';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string') return UUID.test(value) ? 'uuid' : DATE_TIME.test(value) ? 'date-time' : 'string';
  return typeof value;
}

/** Arrays whose order the API does not state: a list's `items` (no default order; records made in the same instant tie) and a product's `benefits` (a set). */
const UNORDERED_KEYS = new Set(['items', 'benefits']);

/** A value with its ids and timestamps masked (`"uuid"`, `"date-time"`), as JSON: what orders list items alike on both sides. */
function masked(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' && v !== 'uuid' && v !== 'date-time' ? (UUID.test(v) ? 'uuid' : DATE_TIME.test(v) ? 'date-time' : v) : v));
}

/**
 * Normalizes a JSON value into `out`: every path with its type; booleans, the values of
 * {@link VALUE_KEYS} (all values, with `allValues`) and, mapped through `ids`, uuids at `id` and
 * `*_id` keys. Object keys are walked in sorted order, and the items of {@link UNORDERED_KEYS}
 * arrays in the order of their masked JSON, so that both sides map ids alike.
 */
export function normalize(value: unknown, ids: IdMap, path = 'body', out: Normalized = new Map(), allValues = false): Normalized {
  const type = typeOf(value);
  const key = path.slice(path.lastIndexOf('.') + 1).replace(/\[\d+\]$/, '');
  const entry: { type: string; value?: unknown } = { type };
  if (type === 'uuid' && (key === 'id' || key.endsWith('_id'))) entry.value = ids.name(value as string);
  else if (type === 'boolean' || (allValues && type !== 'object' && type !== 'array') || (VALUE_KEYS.has(key) && (type === 'string' || type === 'integer' || type === 'number'))) entry.value = value;
  if (type === 'array') entry.value = (value as unknown[]).length;
  out.set(path, entry);
  if (type === 'array') {
    const items = UNORDERED_KEYS.has(key) ? [...(value as unknown[])].sort((a, b) => (masked(a) < masked(b) ? -1 : masked(a) > masked(b) ? 1 : 0)) : (value as unknown[]);
    items.slice(0, MAX_ITEMS).forEach((item, index) => normalize(item, ids, `${path}[${index}]`, out, allValues));
  }
  if (type === 'object') {
    for (const child of Object.keys(value as object).sort()) normalize((value as Record<string, unknown>)[child], ids, `${path}.${child}`, out, allValues);
  }
  return out;
}

/** The normalized form of one observation: its status (or what stood for it) and its body. */
function normalizeObservation(observation: Observation, ids: IdMap): { status: string; body: Normalized } {
  if (observation.exchange) {
    const { response, transportError } = observation.exchange;
    if (!response) return { status: `no answer (${transportError?.code ?? 'unknown'})`, body: new Map() };
    return { status: String(response.status), body: response.json === undefined ? new Map([['body', { type: response.body ? 'text' : 'empty' }]]) : normalize(response.json, ids) };
  }
  if (observation.adapter) {
    if (observation.adapter.refused !== undefined) return { status: 'refused', body: new Map() };
    return { status: 'done', body: normalize(observation.adapter.result, ids, 'result') };
  }
  return { status: 'noted', body: normalize(observation.value, ids, 'value', new Map(), true) };
}

/**
 * Compares what the two sides observed in one step.
 * @returns every difference, in observation order; empty when the step is the same on both
 */
export function compareStep(target: readonly Observation[], reference: readonly Observation[], ids: { target: IdMap; reference: IdMap }): Difference[] {
  const differences: Difference[] = [];
  const count = Math.max(target.length, reference.length);
  for (let i = 0; i < count; i++) {
    const a = target[i];
    const b = reference[i];
    if (!a || !b || a.what !== b.what) {
      differences.push({ where: `observation ${i + 1}`, kind: 'request', target: a?.what ?? 'nothing', reference: b?.what ?? 'nothing' });
      break;
    }
    const left = normalizeObservation(a, ids.target);
    const right = normalizeObservation(b, ids.reference);
    if (left.status !== right.status) differences.push({ where: a.what, kind: 'status', target: left.status, reference: right.status });
    // Below a value whose type differs, every path differs too: only the topmost is reported.
    let differing: string | undefined;
    for (const path of [...new Set([...left.body.keys(), ...right.body.keys()])].sort()) {
      if (differing !== undefined && (path.startsWith(`${differing}.`) || path.startsWith(`${differing}[`))) continue;
      const l = left.body.get(path);
      const r = right.body.get(path);
      if (!l || !r || l.type !== r.type) {
        differing = path;
        differences.push({ where: `${a.what} ${path}`, kind: 'shape', target: l?.type ?? 'absent', reference: r?.type ?? 'absent' });
      } else if (JSON.stringify(l.value) !== JSON.stringify(r.value)) differences.push({ where: `${a.what} ${path}`, kind: 'value', target: l.value, reference: r.value });
    }
  }
  return differences;
}

// ------------------------------------------------------------------ the two sides

/** One side of the comparison: a target, its clients and adapter, and how to give it fresh state. */
interface Side {
  env: CommandEnv;
  /** Restores fresh state before a sequence; undefined when the side cannot be reset. */
  reset: (() => Promise<void>) | undefined;
  /** Requests so far that got no answer. */
  unanswered(): number;
  close(): Promise<void>;
}

/** A side's env over a target: its client, clients for other origins, its adapter. */
function sideEnv(spec: LoadedSpec, target: Target, adapter: TargetAdapter | undefined, seed: number, judged?: JudgedCells, breaker?: RunBreaker): { env: CommandEnv; unanswered: () => number; close: () => Promise<void> } {
  const plain = createClient(target, breaker ? { breaker } : {});
  // The target's exchanges go through the one judging path; the reference is the oracle.
  const judging = judged ? judgingClient(plain, judged, () => ({ seed, secrets: secretsOf(target) })) : plain;
  let unanswered = 0;
  const client: Client = {
    async send(operation, testCase) {
      const exchange = await judging.send(operation, testCase);
      if (!exchange.response) unanswered++;
      return exchange;
    },
    close: () => judging.close(),
  };
  const others = new Map<string, Client>();
  const env: CommandEnv = {
    spec,
    target,
    client,
    adapter,
    seed,
    clientFor(origin) {
      if (origin === new URL(target.baseUrl).origin) return client;
      let other = others.get(origin);
      if (!other) {
        other = createClient({ ...target, baseUrl: origin, roles: {} });
        others.set(origin, other);
      }
      return other;
    },
  };
  return {
    env,
    unanswered: () => unanswered,
    async close() {
      await client.close();
      for (const other of others.values()) await other.close();
      await adapter?.close?.();
    },
  };
}

/** The embedded reference's side: its own roles, fixtures and control functions, reset in-process. */
function referenceSide(spec: LoadedSpec, running: RunningReference, seed: number, timeoutMs: number): Side {
  const roles: Target['roles'] = {};
  for (const [role, token] of Object.entries(running.credentials)) roles[role as Role] = { token, env: defaultTokenEnv(role as Role) };
  if (running.fixtures.oauth_client_secret) roles.oauth_client = { token: running.fixtures.oauth_client_secret, env: defaultTokenEnv('oauth_client') };
  const target: Target = { baseUrl: running.url, kind: 'embedded', roles, fixtures: running.fixtures, requestsPerSecond: null, timeoutMs, readOnly: false };
  const adapter = guardAdapter(createReferenceAdapter(target), 'reference adapter');
  const { env, unanswered, close } = sideEnv(spec, target, adapter, seed);
  return {
    env,
    async reset() {
      running.control.reset();
    },
    unanswered,
    close,
  };
}

/**
 * Resets a reference started with `conformance serve` through its control API and takes the
 * fixtures it answers (the ids of its demo data).
 * @throws AdapterError when the control API refuses
 */
async function resetOverHttp(client: Client, target: Target): Promise<void> {
  const exchange = await client.send(outsideOperation('POST', '/__control/reset', 'control:reset'), { id: 'control:reset', operationId: 'control:reset', pathParams: {}, query: {}, headers: {}, role: null });
  const json = exchange.response?.json as { fixtures?: Record<string, string> } | undefined;
  if (exchange.response?.status !== 200 || typeof json?.fixtures !== 'object') {
    throw new AdapterError('reset', `the target's control API did not reset it: POST /__control/reset answered ${answerText(exchange)}`);
  }
  Object.assign(target.fixtures, json.fixtures);
}

/** The families the option names (ids or check ids), or all. @throws HarnessError CNF_ERR_CONFIG_INVALID for an unknown name */
function selectedFamilies(names: readonly string[] | undefined): FamilyId[] {
  if (!names?.length) return MODEL_FAMILIES.map((f) => f.id);
  return names.map((name) => {
    const found = MODEL_FAMILIES.find((f) => f.id === name || f.checkId === name);
    if (!found) throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--families: unknown family "${name}" (families: ${MODEL_FAMILIES.map((f) => f.id).join(', ')})`);
    return found.id;
  });
}

// ------------------------------------------------------------------ running

/** Both sides' models and reals in one sequence. */
interface Pair<T> {
  target: T;
  reference: T;
}

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
async function diffFamily(family: Family<object>, sides: Pair<Side>, options: { seed: number; runs: number; path?: string }): Promise<FamilyDiff> {
  const unansweredBefore = sides.target.unanswered();
  // A reset first: it tells the fixtures of a reference served by `conformance serve`.
  for (const side of [sides.target, sides.reference]) await side.reset?.();
  const reason = familyNotRunnable(family, sides.target.env) ?? familyNotRunnable(family, sides.reference.env);
  if (reason) return { family: family.id, status: 'skipped', skipReason: reason, sequences: 0 };
  for (const side of [sides.target, sides.reference]) {
    const why = await family.whyNot?.(new Real(side.env, 'observe'));
    const unanswered = sides.target.unanswered() - unansweredBefore;
    // A reason drawn from a target that gave no answer is no reason to skip.
    if (why && unanswered > 0) return { family: family.id, status: 'unanswered', sequences: 0, unanswered };
    if (why) return { family: family.id, status: 'skipped', skipReason: why, sequences: 0 };
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

/** Most differences printed for one step. */
const MAX_PRINTED = 20;

/** The report of a diff, as printed. */
export function formatDiff(outcome: DiffOutcome, context: { target: string; referenceSeed: number; color?: boolean; replayOptions?: string }): string {
  const c = pc.createColors(context.color ?? false);
  const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  const lines = [`conformance diff: ${context.target} against the embedded reference (demo data of seed ${context.referenceSeed}), seed ${outcome.seed}`];
  const width = Math.max(...outcome.families.map((f) => f.family.length));
  for (const f of outcome.families) {
    const verdict =
      f.status === 'same' ? c.green(`same (${f.sequences} sequences)`)
      : f.status === 'different' ? c.red('DIFFERENT')
      : f.status === 'unanswered' ? c.red(`NO ANSWER (${f.unanswered} request${f.unanswered === 1 ? '' : 's'} to the target got none; no difference found in what was answered)`)
      : c.dim(`skipped: ${f.skipReason}`);
    lines.push(`  ${f.family.padEnd(width)}  ${verdict}`);
  }
  for (const f of outcome.families) {
    const d = f.difference;
    if (!d) continue;
    lines.push('', c.red(`✗ ${f.family}: the target and the reference answer differently`));
    lines.push(`  Commands (shrunk${shrinkNote(d.shrinks)}, ${d.length} command${d.length === 1 ? '' : 's'}): ${d.commands}`);
    lines.push(`  First differing step: ${d.step.index}. ${d.step.command}`);
    const count = Math.max(d.target.length, d.reference.length);
    for (let i = 0; i < count; i++) {
      const a = d.target[i];
      const b = d.reference[i];
      lines.push(`    ${a?.what ?? b?.what}`);
      lines.push(`      target:    ${describeObservation(a)}`);
      lines.push(`      reference: ${describeObservation(b)}`);
    }
    lines.push('    differences:');
    for (const difference of d.differences.slice(0, MAX_PRINTED)) lines.push(`      ${difference.kind.padEnd(6)} ${difference.where}: target ${show(difference.target)}, reference ${show(difference.reference)}`);
    if (d.differences.length > MAX_PRINTED) lines.push(`      … and ${d.differences.length - MAX_PRINTED} more`);
    lines.push(`  Replay: npx conformance diff --target ${context.target}${context.replayOptions ?? ''} --families ${f.family} --seed ${d.seed} --path "${d.path}"`);
  }
  for (const cell of outcome.judged ?? []) {
    for (const failure of cell.failures) {
      lines.push('', c.red(`✗ ${cell.operationId} ${cell.checkId}: ${failure.title}`), `  ${failure.message.split('\n').join('\n  ')}`, `  Reproduce with: ${failure.reproduce.curl}`);
    }
  }
  const different = outcome.families.filter((f) => f.status === 'different').length;
  const same = outcome.families.filter((f) => f.status === 'same').length;
  const unanswered = outcome.families.filter((f) => f.status === 'unanswered').length;
  const skipped = outcome.families.length - different - same - unanswered;
  const broken = (outcome.judged ?? []).length;
  lines.push('', `conformance diff: ${different} famil${different === 1 ? 'y differs' : 'ies differ'}, ${same} same, ${unanswered ? `${unanswered} without answers, ` : ''}${skipped} skipped; ${broken} response check${broken === 1 ? '' : 's'} failed on the target's answers (seed ${outcome.seed})`, '');
  return lines.join('\n');
}

/** An observation in a few words: the answer, the adapter's result, or the value noted. */
function describeObservation(observation: Observation | undefined): string {
  if (!observation) return 'nothing';
  if (observation.exchange) return answerText(observation.exchange);
  if (observation.adapter) return observation.adapter.refused !== undefined ? `refused: ${observation.adapter.refused}` : truncate(JSON.stringify(observation.adapter.result) ?? 'done');
  return truncate(JSON.stringify(observation.value) ?? 'undefined');
}

function truncate(text: string): string {
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

/**
 * Runs the families against the target and an embedded reference and prints the report.
 * @returns exit code 0 (no difference) or 1 (a family differs)
 * @throws HarnessError for a bad option, config, document or adapter, an unreachable target, a
 *   target that cannot be reset, or when no family can run (exit 2)
 */
export async function runDiff(options: DiffOptions): Promise<DiffOutcome> {
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const runs = options.runs ?? DEFAULT_DIFF_RUNS;
  if (!Number.isInteger(runs) || runs < 1) throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--runs must be a positive integer, not ${options.runs}`);
  const ids = selectedFamilies(options.families);
  if (options.path !== undefined) {
    parseModelPath(options.path);
    if (ids.length !== 1) throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--path replays one difference: name its family alone with --families (one of ${MODEL_FAMILIES.map((f) => f.id).join(', ')})`);
  }
  const referenceSeed = options.referenceSeed ?? DEFAULT_REFERENCE_SEED;
  const spec = await loadSpec(options.spec ?? specPath(options.apiVersion));
  const config = options.config ? await readConfigFile(options.config) : undefined;
  const target = resolveRemoteTarget({ url: options.target, ...(config ? { config } : {}), ...(options.rate !== undefined ? { rate: options.rate } : {}), ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}), ...(options.env ? { env: options.env } : {}) });
  target.headers = documentHeaders(spec);
  // The fixtures the reset answers are filled in below; a config's fixtures stay the target's own otherwise.
  target.fixtures = { ...target.fixtures };
  await probeTarget(target);
  const source = options.adapter ? await resolveAdapterOption(options.adapter) : undefined;
  let adapter: TargetAdapter | undefined;
  if (source?.kind === 'reference') adapter = guardAdapter(createReferenceAdapter(target), 'reference adapter');
  else if (source?.kind === 'module') adapter = guardAdapter(await (await importAdapterFactory(source.file))(target), source.file);
  const judged = new JudgedCells(spec);
  // A target that stops answering fails the rest of the diff at once, as in a run, rather than a timeout per command.
  const breaker = createRunBreaker({ after: options.unresponsiveAfter ?? DEFAULT_UNRESPONSIVE_AFTER, timeoutMs: target.timeoutMs });
  const targetSide = sideEnv(spec, target, adapter, seed, judged, breaker);
  // A reference started with `conformance serve` resets through its control API; any other target keeps its state.
  const reset = source?.kind === 'reference' ? () => resetOverHttp(targetSide.env.client, target) : undefined;
  const running = await startReferenceServer({ host: '127.0.0.1', port: 0, seed: referenceSeed, rateLimit: false, ...(options.apiVersion ? { apiVersion: options.apiVersion } : {}) });
  const sides: Pair<Side> = { target: { env: targetSide.env, reset, unanswered: targetSide.unanswered, close: targetSide.close }, reference: referenceSide(spec, running, seed, options.timeoutMs ?? DEFAULT_TIMEOUT_MS) };
  try {
    const families: FamilyDiff[] = [];
    for (const id of ids) families.push(await diffFamily(FAMILIES[id], sides, { seed, runs, ...(options.path !== undefined ? { path: options.path } : {}) }));
    if (families.every((f) => f.status === 'skipped')) {
      throw new HarnessError('CNF_ERR_CONFIG_INVALID', `no family could run: ${families.map((f) => `${f.family} (${f.skipReason})`).join('; ')}`);
    }
    const judgedCells = judged.take().filter((c) => c.status === 'failed');
    const outcome: DiffOutcome = { exitCode: families.some((f) => f.status === 'different' || f.status === 'unanswered') || judgedCells.length > 0 ? 1 : 0, seed, families, judged: judgedCells };
    const replayOptions = [
      ...(options.config ? [`--config ${options.config}`] : []),
      ...(options.adapter ? [`--adapter ${options.adapter}`] : []),
      ...(options.referenceSeed !== undefined ? [`--reference-seed ${referenceSeed}`] : []),
      ...(options.apiVersion ? [`--api-version ${options.apiVersion}`] : []),
    ].map((option) => ` ${option}`).join('');
    (options.out ?? process.stdout).write(formatDiff(outcome, { target: target.baseUrl, referenceSeed, replayOptions, ...(options.color !== undefined ? { color: options.color } : {}) }));
    const unresponsive = breaker.unresponsiveReason();
    if (unresponsive) (options.out ?? process.stdout).write(`diff: the target was declared unresponsive (${unresponsive}); every later request to it failed at once\n`);
    return outcome;
  } finally {
    breaker.close();
    await sides.target.close();
    await sides.reference.close();
    await running.close();
  }
}
