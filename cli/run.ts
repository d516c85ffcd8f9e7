/**
 * `conformance run` as a library function: resolves the document and the target (starting the
 * embedded reference when no URL is given), runs the conformance suites through vitest's Node
 * API with our reporters, and returns the exit code.
 * @see docs/design.md (Command line; Targets, roles and verdicts)
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHECK_IDS, selectChecks } from '../checks/index.js';
import { SCENARIO_IDS, SCENARIOS, selectScenarios } from '../engine/stateful/registry.js';
import { MODEL_CHECK_IDS, MODEL_FAMILIES, selectFamilies } from '../engine/stateful/registry.js';
import { ConsoleReporter, createReporters, type ReportInfo } from '../reporters/index.js';
import { isPercent, type Coverage } from '../engine/coverage.js';
import type { FailOn } from '../engine/conformance.js';
import { exitCodeFor, finishResults, ResultsCollector, type CollectedResults, type HarnessProblem, type RunResults } from '../engine/results.js';
import { startReferenceServer } from '../server/index.js';
import { DEFAULT_RATE_LIMIT } from '../server/rate-limit.js';
import { loadSpec, specPath, type ApiVersion } from '../core/spec/load.js';
import { documentHeaders } from '../engine/client.js';
import { type AdapterSource } from '../core/adapter.js';
import { importAdapterFactory, resolveAdapterOption } from '../engine/adapters/load.js';
import { readBaseline } from '../engine/baseline.js';
import { BREAKER_ENV, createRunBreaker, DEFAULT_UNRESPONSIVE_AFTER } from '../core/breaker.js';
import { BURST_SOURCE_ADDRESS, HARNESS_SOURCE_ADDRESS } from '../engine/burst.js';
import { DEFAULT_TIMEOUT_MS, probeTarget, readConfigFile, resolveRemoteTarget } from './config.js';
import { defaultTokenEnv } from '../core/target.js';
import { RUN_CONTEXT_ENV, type RunContext } from '../engine/context.js';
import { HarnessError } from '../core/errors.js';
import { formatTimings, readWork, type RunTimings } from '../core/timings.js';
import { assignShards, documentDigest, shardUnits, STATEFUL_UNIT, type Shard, type ShardRun, type ShardStamp } from '../engine/shard.js';
import { INTERRUPT_EXIT_CODES, runInterruptibly, type InterruptSignal, type VitestPlan } from './interruptible-run.js';
import { knownFixtureNames } from '../engine/fixture-names.js';
import { formatPreflight, preflight, type PreflightInput } from './preflight.js';
import type { ReproductionInfo } from '../core/reproducer.js';
import { unknownNamesMessage } from '../core/suggest.js';
import { STATEFUL_SUITE, SUITES, SUITE_NEEDS } from '../engine/suites.js';
import { SAFE_METHODS } from '../core/operation-needs.js';
import type { Target } from '../core/target.js';
import type { CellMeta, CheckNeeds, Role } from '../core/types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export { SUITES, SUITE_NEEDS } from '../engine/suites.js';

/** Options of {@link runConformance}; every one has a default. */
export interface RunOptions {
  /** Base URL of the target; absent starts the embedded reference server. */
  target?: string;
  /** An OpenAPI document; overrides `apiVersion`. */
  spec?: string;
  apiVersion?: ApiVersion;
  /** conformance.config.json path. */
  config?: string;
  suites?: string[];
  checks?: string[];
  operations?: string[];
  /** Seed of every property run; random (and printed) when absent. */
  seed?: number;
  /** Generated cases per operation and check; default 50. */
  runs?: number;
  /** Requests per second to the target; null for no pacing. */
  rate?: number | null;
  readOnly?: boolean;
  /** Deadline of every request's whole exchange (connection, headers, body), in milliseconds; default 10,000. */
  timeoutMs?: number;
  /**
   * `--unresponsive-after`: consecutive requests without an answer (timeouts, resets, refused
   * connections, bytes that are not HTTP), across all operations and workers, after which the
   * target is declared unresponsive: no further request is sent and every remaining case fails at
   * once with `CNF_TARGET_UNRESPONSIVE` (core/breaker.ts). Default 5; 0 never declares it.
   */
  unresponsiveAfter?: number;
  /** Reporter names: console, json, junit, html. Default console and junit; an empty list writes no report. */
  reporters?: string[];
  /**
   * `--min-coverage`: the least spec coverage, in percent (0 to 100), of each of operations
   * exercised, documented status codes observed and documented parameters sent. When any is below
   * it the run exits 1 (unless a harness error makes it 2), with `coverage.belowMinimum` naming
   * them in every report; it is neither a cell nor a harness error.
   */
  minCoverage?: number;
  /** Where report files go; default `conformance-report`. */
  outputDir?: string;
  /** Faults to switch on in the embedded reference (to see the harness catch them). */
  faults?: string[];
  /** A baseline file of accepted deviations: reported, not failing the run. */
  baseline?: string;
  /**
   * `--adapter`: a module exporting `createAdapter(target)` (see core/adapter.ts), or
   * `reference` for a reference server's control API. The embedded target uses the reference
   * adapter without it; a remote target without it has its adapter-needing scenarios skipped.
   */
  adapter?: string;
  /**
   * `--rate-limit-check`: send the burst of `rate_limit_enforced` (more than twice the API's limit
   * from one address within a second, unpaced) to a remote target; without it that cell is skipped.
   * The embedded reference always gets it, from 127.0.0.2.
   */
  rateLimitCheck?: boolean;
  /**
   * `--path`: the model path a model-based failure printed (`3:1:0@CB:A`); with `--seed`, the run
   * replays that failure's command sequence. Needs exactly one model check selected (`--checks model_seats`).
   */
  path?: string;
  /**
   * `--allow-missing-roles`: run against a remote target that lacks the `admin` token the selected
   * operations need, its cells skipped; without it such a run stops with CNF_ERR_ROLE_MISSING (exit 2).
   */
  allowMissingRoles?: boolean;
  /**
   * `--fail-on-skipped`: a cell skipped for a missing role, fixture or adapter (not an option the
   * run chose, never a not-applicable one) makes the run exit 1, for CI that must not go green blind.
   */
  failOnSkipped?: boolean;
  /**
   * `--fail-on`: which failed cells make the exit code 1: `should` (default) every one, `must` only
   * those of must-level checks (engine/conformance.ts); should-level failures are still reported.
   */
  failOn?: FailOn;
  /** Where credentials of a remote target are read from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Stream of the console reporter; default stdout. */
  out?: NodeJS.WritableStream;
  /** `--verbose`: the console lists every not-applicable and skipped cell, not only counts per reason. */
  verbose?: boolean;
  color?: boolean;
  /**
   * `--shard K/N`: run shard K of N (engine/shard.ts): the same cells for the same seed, document
   * and options on any machine; its reports carry the shard, for `conformance merge`.
   */
  shard?: Shard;
  /** `--timings`: print where the run's time went (core/timings.ts) after the reports; report.json holds it either way. */
  timings?: boolean;
  /** Milliseconds the process spent before calling {@link runConformance} (the CLI's start-up), for the timings; default 0. */
  startupMs?: number;
}

/** What a run ends with. */
export interface RunOutcome {
  /** 0 conformant, 1 failures, 2 a harness error; 130 (SIGINT) or 143 (SIGTERM) when a signal cut the run. */
  exitCode: 0 | 1 | 2 | 130 | 143;
  /** The signal that cut the run; its reports hold what ran before, marked incomplete. */
  interruptedBy?: InterruptSignal;
  /** Why the target was declared unresponsive (`--unresponsive-after`), when it was: the cases after it were not sent. */
  unresponsive?: string;
  results: RunResults;
  /** Where the run's time went (core/timings.ts). */
  timings: RunTimings;
  /** Spec coverage of the run, against the whole document, with `--min-coverage` applied. */
  coverage: Coverage;
  seed: number;
  target: string;
}

/**
 * Whether a cell was skipped because the run lacks a role, fixture or adapter (what
 * `--fail-on-skipped` fails on): `skipped` with a `skipKind` other than `option`, as the cell was
 * given where it was skipped (core/skips.ts). Not-applicable cells never count.
 */
export function skippedForLack(cell: Pick<CellMeta, 'status' | 'skipKind'>): boolean {
  return cell.status === 'skipped' && (cell.skipKind === 'role' || cell.skipKind === 'fixture' || cell.skipKind === 'adapter');
}

function statefulIdsOf(checks: string[] | undefined, operations: string[] | undefined): string[] {
  return [...selectScenarios(checks, operations).map((s) => s.id), ...selectFamilies(checks, operations).map((f) => f.checkId)];
}

function describeAdapter(adapter: AdapterSource | undefined): string | undefined {
  if (!adapter) return undefined;
  return adapter.kind === 'reference' ? "the reference server's control API" : `module ${adapter.file}`;
}

/**
 * Prints the preflight (cli/preflight.ts) to the run's output and stops a remote run that
 * lacks a required role.
 * @throws HarnessError CNF_ERR_ROLE_MISSING when the target lacks `admin` and `allowMissingRoles` is not set
 */
function printPreflight(input: PreflightInput, options: RunOptions): void {
  const result = preflight(input);
  // Library use with no reporter and no stream prints nothing, as the reporters do.
  const silent = options.reporters?.length === 0 && options.out === undefined;
  if (!silent) (options.out ?? process.stdout).write(formatPreflight(input, result));
  if (input.target.kind === 'remote' && result.missingRequired.length && !options.allowMissingRoles) {
    const names = result.missingRequired.map((r) => `${r.role} (export ${r.env}=…)`).join(', ');
    throw new HarnessError('CNF_ERR_ROLE_MISSING', `no token for ${names}, which ${result.missingRequired.length > 1 ? 'these roles unlock' : 'unlocks'} the valid requests of the selected operations; set it, or pass --allow-missing-roles to run with those cells skipped`);
  }
}

/**
 * The results of a run's vitests together: their cells in order (the other suites' before the
 * stateful group's) and their problems, a problem that several report (an interruption) once.
 * @param nothingRan the shard had no file to run: no results, and none expected
 */
function collectedOf(collectors: readonly ResultsCollector[], nothingRan: boolean): CollectedResults {
  if (nothingRan) return { cells: [], errors: [] };
  const ran = collectors.filter((c) => c.collected);
  if (ran.length === 0) return { cells: [], errors: [{ where: 'vitest', message: 'the run ended without results' }] };
  const errors: HarnessProblem[] = [];
  for (const problem of ran.flatMap((c) => c.collected!.errors)) {
    if (!errors.some((e) => e.where === problem.where && e.message === problem.message)) errors.push(problem);
  }
  return { cells: ran.flatMap((c) => c.collected!.cells), errors };
}

/**
 * Where an embedded reference listens locally as well: a Unix domain socket in the temporary
 * folder (a named pipe on Windows), named by this process and a random part.
 * @see server/index.ts (StartOptions.socketPath)
 */
function localSocketPath(): string {
  const name = `conformance-${process.pid}-${randomBytes(4).toString('hex')}`;
  return process.platform === 'win32' ? `\\\\.\\pipe\\${name}` : path.join(os.tmpdir(), `${name}.sock`);
}

/** The local socket a started reference listens on, as a target names it; undefined when it could not make one. */
function localSocketOf(reference: { url: string; socketPath?: string }): Target['localSocket'] {
  return reference.socketPath === undefined ? undefined : { origin: reference.url, path: reference.socketPath };
}

/** A target without its local socket (a copy for another instance, which names its own). */
function withoutLocalSocket(target: Target): Target {
  const { localSocket: _, ...rest } = target;
  return rest;
}

/** Whether a suite belongs to the stateful group (the writes suite and the stateful one): they change state, so they are kept together. */
function isStatefulGroup(suite: string): boolean {
  return suite === STATEFUL_SUITE || suite === 'writes';
}

/**
 * The stamp of a sharded run's identity (engine/shard.ts `ShardRun`): the seed, the document's
 * digest, and every option that changes which cells run, how, or what exit code they give.
 */
export function shardRun(options: RunOptions, seed: number, document: string): ShardRun {
  const given = {
    target: options.target ?? 'embedded',
    apiVersion: options.apiVersion,
    suites: options.suites,
    checks: options.checks,
    operations: options.operations,
    runs: options.runs ?? 50,
    readOnly: options.readOnly,
    faults: options.faults,
    adapter: options.adapter,
    path: options.path,
    rateLimitCheck: options.rateLimitCheck,
    minCoverage: options.minCoverage,
    failOn: options.failOn ?? 'should',
    failOnSkipped: options.failOnSkipped,
    shards: options.shard?.count,
  };
  const set = Object.entries(given).filter(([, value]) => value !== undefined && value !== false && !(Array.isArray(value) && value.length === 0));
  return { seed, document, options: Object.fromEntries(set) };
}

/**
 * Runs the conformance suites against a target.
 * @returns exit code 0 (conformant) or 1 (failures, or coverage below `minCoverage`); harness problems found while running give 2
 * @throws HarnessError for a bad option, config, document or an unreachable target (exit 2);
 *   CNF_ERR_ROLE_MISSING for a remote target without the `admin` token (after printing the preflight)
 */
export async function runConformance(options: RunOptions = {}): Promise<RunOutcome> {
  const enteredMs = performance.now();
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const runs = options.runs ?? 50;
  if (!Number.isInteger(runs) || runs < 1) throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--runs must be a positive integer, not ${options.runs}`);
  const suites = options.suites?.length ? options.suites : [...SUITES];
  const unknownSuites = suites.filter((s) => !(SUITES as readonly string[]).includes(s));
  if (unknownSuites.length) throw new HarnessError('CNF_ERR_CONFIG_INVALID', `unknown suite ${unknownSuites.join(', ')} (suites: ${SUITES.join(', ')})`);
  const { checks: selected, unknown: notChecks } = selectChecks(options.checks);
  // Stateful scenarios are selected by id like checks; each file of suites/stateful/ runs when one of its scenarios is selected.
  const unknown = notChecks.filter((id) => !SCENARIO_IDS.includes(id) && !MODEL_CHECK_IDS.includes(id));
  // The model-based families (suites/model/) are part of the stateful suite, selected by check id the same way.
  const families = selectFamilies(options.checks, options.operations);
  const statefulFiles = [...new Set([...selectScenarios(options.checks, options.operations).map((scenario) => `suites/stateful/${scenario.suite}.suite.ts`), ...families.map((family) => `suites/model/${family.id}.suite.ts`)])];
  if (unknown.length) throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--checks: ${unknownNamesMessage('check', unknown, [...CHECK_IDS, ...SCENARIO_IDS, ...MODEL_CHECK_IDS])}`);
  if (options.path !== undefined && (families.length !== 1 || !options.checks?.includes(families[0]!.checkId))) {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--path replays one model-based failure: select its family alone with --checks (one of ${MODEL_CHECK_IDS.join(', ')})`);
  }
  // A suite none of whose checks is selected would declare no test, which vitest calls an error.
  let runnable = suites.filter((s) => {
    if (s === STATEFUL_SUITE) return statefulFiles.length > 0;
    const needs: readonly CheckNeeds[] | undefined = SUITE_NEEDS[s as keyof typeof SUITE_NEEDS];
    return !needs || selected.some((c) => needs.includes(c.needs));
  });
  if (runnable.length === 0) throw new HarnessError('CNF_ERR_CONFIG_INVALID', `no selected check runs in the suites ${suites.join(', ')}`);
  const unresponsiveAfter = options.unresponsiveAfter ?? DEFAULT_UNRESPONSIVE_AFTER;
  if (!Number.isInteger(unresponsiveAfter) || unresponsiveAfter < 0) {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--unresponsive-after must be an integer >= 0, not ${String(options.unresponsiveAfter)}`);
  }
  if (options.minCoverage !== undefined && !isPercent(options.minCoverage)) {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--min-coverage must be a percentage from 0 to 100, not ${String(options.minCoverage)}`);
  }

  const specFile = path.resolve(options.spec ?? specPath(options.apiVersion));
  const spec = await loadSpec(specFile);
  const operationIds = spec.operations.map((o) => o.operationId);
  // Stateful scenarios and model families report under their own rows (webhook operationIds among them).
  const rowIds = [...new Set([...operationIds, ...SCENARIOS.map((s) => s.operationId), ...MODEL_FAMILIES.map((f) => f.operationId)])];
  const unknownOperations = (options.operations ?? []).filter((id) => !rowIds.includes(id));
  if (unknownOperations.length) {
    // A hundred operationIds are too many to list; their resources (the part before the colon) are not.
    const resources = [...new Set(rowIds.map((id) => id.split(':')[0]))].join(', ');
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--operations: ${unknownNamesMessage('operation', unknownOperations, rowIds, false)}; operationIds are <resource>:<action> of the document, resources: ${resources}`);
  }
  // The writes suite declares tests only for operations that change state, the other check-driven
  // suites only for those that do not: a suite with no selected operation in its scope would declare none.
  const chosen = spec.operations.filter((o) => !options.operations?.length || options.operations.includes(o.operationId));
  const hasUnsafe = chosen.some((o) => !SAFE_METHODS.has(o.method));
  const hasSafe = chosen.some((o) => SAFE_METHODS.has(o.method));
  runnable = runnable.filter((s) => s === STATEFUL_SUITE || (s === 'writes' ? hasUnsafe : hasSafe));
  if (runnable.length === 0) throw new HarnessError('CNF_ERR_CONFIG_INVALID', `no selected check runs on the selected operations (${(options.operations ?? []).join(', ')})`);
  // A shard runs the units the cut gives it (engine/shard.ts): operation blocks of the check-driven suites, and maybe the stateful group.
  let shard: ShardStamp | undefined;
  if (options.shard) {
    const units = shardUnits({ spec, suites: runnable, checks: selected, operations: chosen, runs });
    const mine = assignShards(units, options.shard.count)[options.shard.index - 1]!;
    shard = { ...options.shard, run: shardRun(options, seed, documentDigest(await readFile(specFile, 'utf8'))), units: mine };
  }
  const inShard = (suite: string) => !shard || (suite === STATEFUL_SUITE ? shard.units.includes(STATEFUL_UNIT) : shard.units.some((unit) => unit.startsWith(`${suite}:`)));
  const running = runnable.filter(inShard);
  const config = options.config ? await readConfigFile(options.config, { fixtureNames: knownFixtureNames(spec) }) : undefined;
  const baseline = options.baseline ? await readBaseline(options.baseline, { checkIds: [...CHECK_IDS, ...SCENARIO_IDS, ...MODEL_CHECK_IDS], operationIds: rowIds }) : undefined;
  let adapter: AdapterSource | undefined = options.adapter ? await resolveAdapterOption(options.adapter) : undefined;
  // A module that cannot serve as an adapter is a bad option (exit 2) before any suite starts.
  if (adapter?.kind === 'module') await importAdapterFactory(adapter.file);
  const url = options.target ?? config?.target;

  let target: Target;
  let stop: () => Promise<void> = async () => {};
  let statefulBaseUrl: string | undefined;
  let statefulSocket: Target['localSocket'];
  if (url) {
    if (options.faults?.length) throw new HarnessError('CNF_ERR_CONFIG_INVALID', '--fault applies to the embedded reference only; use `conformance serve --fault` for a remote one');
    target = resolveRemoteTarget({ url, ...(config ? { config } : {}), ...(options.rate !== undefined ? { rate: options.rate } : {}), ...(options.readOnly !== undefined ? { readOnly: options.readOnly } : {}), ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}), ...(options.rateLimitCheck !== undefined ? { rateLimitCheck: options.rateLimitCheck } : {}), ...(options.env ? { env: options.env } : {}) });
    // The preflight comes before the first request, the probe included.
    const selectedOperations = options.operations?.length ? options.operations : operationIds;
    printPreflight({ target, specFile, spec, seed, operationIds: selectedOperations, checks: selected, statefulIds: statefulIdsOf(options.checks, options.operations), ...(config?.roles ? { configuredEnv: Object.fromEntries(Object.entries(config.roles).map(([role, r]) => [role, r.tokenEnv])) } : {}), ...(adapter ? { adapter: describeAdapter(adapter) } : {}) }, options);
    await probeTarget(target);
  } else {
    // The embedded reference serves only this run, from loopback at full speed, so the harness's
    // own address is exempt from its rate limit; the limit is on for the burst of
    // rate_limit_enforced, which comes from another loopback address.
    const rateLimit = { max: DEFAULT_RATE_LIMIT, allowList: [HARNESS_SOURCE_ADDRESS] };
    const referenceOptions = { host: HARNESS_SOURCE_ADDRESS, port: 0, seed, rateLimit, faults: options.faults ?? [], ...(options.apiVersion ? { apiVersion: options.apiVersion } : {}) };
    // Each instance is reached over a local socket of its own as well (Target.localSocket).
    const reference = await startReferenceServer({ ...referenceOptions, socketPath: localSocketPath() });
    // The stateful group changes state and moves the clock: on a shared target it runs after the
    // other suites. The embedded reference gives it a second instance of the same seed instead,
    // so that it runs beside them (both start from the same demo store, as after read-only suites).
    const apart = running.some(isStatefulGroup) && running.some((suite) => !isStatefulGroup(suite)) && !options.rate;
    const second = apart ? await startReferenceServer({ ...referenceOptions, socketPath: localSocketPath() }) : undefined;
    stop = async () => {
      await reference.close();
      await second?.close();
    };
    if (second) {
      statefulBaseUrl = second.url;
      statefulSocket = localSocketOf(second);
    }
    const roles: Target['roles'] = {};
    for (const [role, token] of Object.entries(reference.credentials)) roles[role as Role] = { token, env: defaultTokenEnv(role as Role) };
    // The oauth_client role's token is the client_secret of the client the fixture oauth_client_id names.
    if (reference.fixtures.oauth_client_secret) roles.oauth_client = { token: reference.fixtures.oauth_client_secret, env: defaultTokenEnv('oauth_client') };
    adapter ??= { kind: 'reference' };
    target = {
      baseUrl: reference.url,
      kind: 'embedded',
      roles,
      fixtures: reference.fixtures,
      requestsPerSecond: options.rate ?? null,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      readOnly: options.readOnly ?? false,
      burst: { sourceAddress: BURST_SOURCE_ADDRESS },
      ...(localSocketOf(reference) ? { localSocket: localSocketOf(reference) } : {}),
    };
    const selectedOperations = options.operations?.length ? options.operations : operationIds;
    printPreflight({ target, specFile, spec, seed, operationIds: selectedOperations, checks: selected, statefulIds: statefulIdsOf(options.checks, options.operations), adapter: describeAdapter(adapter) }, options);
  }

  // The run-level breaker's state is shared by the vitest workers through files of this directory.
  // The bundled API selects its version per request (Polar-Version): ask for the document's own.
  target.headers = { ...target.headers, ...documentHeaders(spec) };
  const breakerDir = await mkdtemp(path.join(os.tmpdir(), 'conformance-run-'));
  const breaker = createRunBreaker({ dir: breakerDir, after: unresponsiveAfter, timeoutMs: target.timeoutMs });
  try {
    process.env[BREAKER_ENV] = JSON.stringify({ dir: breakerDir, after: unresponsiveAfter, timeoutMs: target.timeoutMs });
    // The variable each role's token is read from: a skipped cell's fix names it (core/skips.ts).
    target.roleEnv = Object.fromEntries(Object.entries(config?.roles ?? {}).map(([role, r]) => [role, r.tokenEnv]));
    const reproduction: ReproductionInfo = {
      kind: target.kind,
      runBaseUrl: target.baseUrl,
      seed,
      ...(options.faults?.length ? { faults: options.faults } : {}),
      ...(options.apiVersion ? { apiVersion: options.apiVersion } : {}),
      // The served reference must answer in the version the run judged (serve defaults to the platform's 2026-04).
      ...(!options.spec ? { servedVersion: spec.version } : {}),
      ...(options.spec ? { spec: options.spec } : {}),
      ...(options.config ? { config: options.config } : {}),
      ...(options.adapter ? { adapter: options.adapter } : {}),
      // The embedded reference's demo tokens: `conformance serve --seed` hands out the same ones.
      ...(target.kind === 'embedded' ? { tokens: Object.fromEntries(Object.values(target.roles).map((r) => [r!.env!, r!.token])) } : {}),
      pathChecks: MODEL_CHECK_IDS,
    };
    const context: RunContext = {
      timingsDir: breakerDir,
      ...(statefulBaseUrl ? { statefulTarget: { ...withoutLocalSocket(target), baseUrl: statefulBaseUrl, ...(statefulSocket ? { localSocket: statefulSocket } : {}) } } : {}),
      ...(shard ? { shardUnits: shard.units } : {}),
      target,
      specFile,
      seed,
      runs,
      ...(options.checks?.length ? { checks: options.checks } : {}),
      ...(options.operations?.length ? { operations: options.operations } : {}),
      ...(baseline ? { baseline } : {}),
      ...(adapter ? { adapter } : {}),
      ...(options.path !== undefined ? { path: options.path } : {}),
      // Each failure's reproducer is made runnable where the failure is made (core/failure.ts).
      reproduction,
    };
    process.env[RUN_CONTEXT_ENV] = JSON.stringify(context);
    const reporters = createReporters(options.reporters ?? ['console', 'junit'], {
      target: target.baseUrl,
      specVersion: spec.version,
      ...(spec.notes.length > 0 ? { specNotes: spec.notes } : {}),
      seed,
      outputDir: path.resolve(options.outputDir ?? 'conformance-report'),
      spec,
      ...(options.minCoverage !== undefined ? { minCoverage: options.minCoverage } : {}),
      ...(options.out ? { out: options.out } : {}),
      ...(options.color !== undefined ? { color: options.color } : {}),
      ...(options.verbose !== undefined ? { verbose: options.verbose } : {}),
    });
    // The console's progress comes from vitest's events; every reporter gets the results once, at the end.
    const progress = reporters.filter((reporter): reporter is ConsoleReporter => reporter instanceof ConsoleReporter);
    const onModule = (moduleId: string, moduleResults: CollectedResults) => progress.forEach((reporter) => reporter.moduleDone(moduleId, moduleResults));
    const startedAt = new Date();
    const startMs = performance.now();
    const setupMs = startMs - enteredMs;
    let interruptedBy: InterruptSignal | undefined;
    const collectors: ResultsCollector[] = [];
    try {
      const { createVitest } = await import('vitest/node');
      // One vitest for the files of `projects`, with a collector of its own.
      const plan = (projects: string[], suites: readonly string[], workers: { maxWorkers?: number; fileParallelism?: boolean }): VitestPlan => {
        const collector = new ResultsCollector(onModule);
        collectors.push(collector);
        return {
          files: suites.flatMap((s) => (s === STATEFUL_SUITE ? statefulFiles : [`suites/${s}.suite.ts`])),
          create: () => createVitest({ root: ROOT, config: path.join(ROOT, 'vitest.config.ts'), project: projects, run: true, watch: false, reporters: [...progress, collector], ...workers }),
        };
      };
      // Pacing is per process: one worker keeps a remote target under its rate limit.
      const paced = target.requestsPerSecond ? { maxWorkers: 1, fileParallelism: false } : {};
      const plans = statefulBaseUrl
        ? // The stateful group has a target of its own: its vitest runs beside the other suites' one.
          [plan(['conformance'], running.filter((s) => !isStatefulGroup(s)), paced), plan(['conformance-stateful'], running.filter(isStatefulGroup), paced)]
        : // The stateful suites run after the others (vitest.config.ts: groupOrder), so that no
          // state they change moves under a page walk of the generic suites.
          [plan(['conformance', 'conformance-stateful'], running, paced)];
      // A shard the cut left empty (more shards than units) runs nothing and reports no cell.
      const work = plans.filter((p) => p.files.length > 0);
      if (work.length > 0) ({ interruptedBy } = await runInterruptibly(work, breaker));
    } catch (error) {
      throw new HarnessError('CNF_ERR_RUNNER', `vitest could not run the suites: ${(error as Error).message}`, { cause: error });
    }
    const collected: CollectedResults = collectedOf(collectors, running.length === 0);
    // A run that checked nothing has not shown conformance: say so rather than exit 0 (a shard the cut gave nothing is not such a run).
    if (collected.cells.length === 0 && collected.errors.length === 0 && !(shard && shard.units.length === 0)) {
      collected.errors.push({ where: 'run', message: 'no check ran: the selected suites, checks and operations match nothing', code: 'CNF_ERR_CONFIG_INVALID' });
    }
    // The results are made once here; nothing changes them afterwards (they are frozen).
    const results = finishResults(collected, { spec, ...(options.minCoverage !== undefined ? { minCoverage: options.minCoverage } : {}) });
    const coverage = results.coverage!;
    const suitesMs = performance.now() - startMs;
    const work = readWork(breakerDir);
    const timings: RunTimings = {
      totalMs: 0,
      wall: { startup: options.startupMs ?? 0, setup: setupMs, suites: suitesMs, reporting: 0 },
      work: work.ms,
      checks: work.checks,
      workers: work.workers,
      exchanges: work.exchanges,
      exchangesPerSecond: suitesMs > 0 ? (work.exchanges * 1000) / suitesMs : 0,
    };
    const info: ReportInfo = {
      target: target.baseUrl,
      specVersion: spec.version,
      ...(spec.notes.length > 0 ? { specNotes: spec.notes } : {}),
      seed,
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(suitesMs),
      timings,
      ...(shard ? { shard } : {}),
    };
    // The reporting phase cannot be in the reports it times: report.json holds the phases before it.
    const reportingStarted = performance.now();
    for (const reporter of reporters) await reporter.report(results, info);
    timings.wall.reporting = performance.now() - reportingStarted;
    timings.totalMs = timings.wall.startup + (performance.now() - enteredMs);
    if (options.timings) (options.out ?? process.stdout).write(formatTimings(timings));
    const unresponsive = breaker.unresponsiveReason();
    const outcome = { results, timings, coverage, seed, target: target.baseUrl, ...(unresponsive !== undefined ? { unresponsive } : {}) };
    if (interruptedBy) return { exitCode: INTERRUPT_EXIT_CODES[interruptedBy], interruptedBy, ...outcome };
    let exitCode = exitCodeFor(results, coverage, options.failOn ?? 'should');
    if (options.failOnSkipped && exitCode === 0) {
      const blind = results.cells.filter(skippedForLack);
      if (blind.length) {
        (options.out ?? process.stdout).write(`--fail-on-skipped: ${blind.length} cell${blind.length > 1 ? 's' : ''} skipped for a missing role, fixture or adapter, so the run fails (exit 1)\n`);
        exitCode = 1;
      }
    }
    return { exitCode, ...outcome };
  } finally {
    delete process.env[RUN_CONTEXT_ENV];
    delete process.env[BREAKER_ENV];
    breaker.close();
    await rm(breakerDir, { recursive: true, force: true });
    await stop();
  }
}
