/**
 * `conformance diff`: differential testing. The same generated command sequences (the
 * model-based families of engine/stateful/) run against the target and against an embedded
 * reference server, step by step, each from fresh state; every step's answers are normalized
 * (./normalize.ts) and compared, together with the family's state read back after the step
 * (./family.ts). On a difference fast-check shrinks the sequence, and the report (./report.ts)
 * shows the shrunk sequence, the first differing step with both sides, the seed and the path that
 * replays it.
 * @see docs/usage.md (Differential testing against the reference); docs/design.md (Reference server);
 *   docs/decisions.md (Stateful conformance: "`conformance diff` compares normalized steps, not bodies")
 */
import { FAMILIES } from '../../engine/stateful/families.js';
import { MODEL_FAMILIES, type FamilyId } from '../../engine/stateful/registry.js';
import { parseModelPath } from '../../engine/stateful/run-family.js';
import { startReferenceServer } from '../../server/index.js';
import { loadSpec, specPath, type ApiVersion } from '../../core/spec/load.js';
import type { TargetAdapter } from '../../core/adapter.js';
import { guardAdapter, importAdapterFactory, resolveAdapterOption } from '../../engine/adapters/load.js';
import { createReferenceAdapter } from '../../engine/adapters/reference.js';
import { createRunBreaker, DEFAULT_UNRESPONSIVE_AFTER } from '../../core/breaker.js';
import { documentHeaders } from '../../engine/client.js';
import { JudgedCells } from '../../engine/judge.js';
import { DEFAULT_TIMEOUT_MS, probeTarget, readConfigFile, resolveRemoteTarget } from '../config.js';
import { HarnessError } from '../../core/errors.js';
import { referenceSide, resetOverHttp, sideEnv, type Pair, type Side } from './sides.js';
import { diffFamily } from './family.js';
import { formatDiff, type DiffOutcome, type FamilyDiff } from './report.js';

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

/** The families the option names (ids or check ids), or all. @throws HarnessError CNF_ERR_CONFIG_INVALID for an unknown name */
function selectedFamilies(names: readonly string[] | undefined): FamilyId[] {
  if (!names?.length) return MODEL_FAMILIES.map((f) => f.id);
  return names.map((name) => {
    const found = MODEL_FAMILIES.find((f) => f.id === name || f.checkId === name);
    if (!found) throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--families: unknown family "${name}" (families: ${MODEL_FAMILIES.map((f) => f.id).join(', ')})`);
    return found.id;
  });
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
