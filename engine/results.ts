/**
 * The results of a conformance run, read from vitest's finished test modules: the cells of the
 * operation x check matrix and the problems of the harness itself. Every reporter starts here.
 *
 * Failures (the API is wrong) and errors (the harness, its input or the way to the target is
 * wrong) never mix: a test whose outcome contradicts its cell, or a failed test without a cell,
 * is an error, never a silent pass.
 * @see docs/architecture.md (A finding's way)
 */
import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason } from 'vitest/node';
import type { LoadedSpec } from '../core/spec/load.js';
import type { CellMeta, CellStatus, SkipKind } from '../core/types.js';
import { conformanceStatement, failsRun, type ConformanceStatement, type FailOn } from './conformance.js';
import { computeCoverage, type Coverage } from './coverage.js';
import { transitionCoverage, type TransitionCoverage } from './stateful/transitions.js';

/**
 * A problem of the harness or of reaching the target, not of the API: a hook that threw, a test
 * that failed without recording its cell, an unhandled error.
 */
export interface HarnessProblem {
  /** Where it happened: a test's or suite's full name (`suite > test`), a module path, or `run`. */
  where: string;
  /** What happened, for a person; the first line of the error when there are several. */
  message: string;
  /** Stable `CNF_ERR_*` code when the error was a HarnessError, or another error code (`ECONNREFUSED`). */
  code?: string;
  /** Stack trace of the underlying error, when there was one. */
  stack?: string;
}

/**
 * A cell as the reporters see it: the {@link CellMeta} its test recorded plus how long that test
 * ran, in milliseconds (vitest's diagnostic; absent for hand-made cells).
 */
export type ReportCell = CellMeta & { durationMs?: number };

/**
 * Everything a reporter needs from a finished run, built once by {@link finishResults} and frozen:
 * the cells in run order (each with its status, skip kind and fix, failures with their runnable
 * reproducers), the harness problems, and the spec coverage when the document was known. Frozen
 * at run time: a reporter that tried to change it would throw.
 */
export interface RunResults {
  cells: ReportCell[];
  errors: HarnessProblem[];
  /** Spec coverage of the cells against the whole document (with `--min-coverage` applied), when measured. */
  coverage?: Coverage;
  /** Per conformance class, whether the target conforms (engine/conformance.ts); made from the cells, absent only on hand-made results. */
  conformance?: ConformanceStatement;
  /** The state-machine edges the stateful cells saw (engine/stateful/transitions.ts); absent when none recorded any, or on hand-made results. */
  transitions?: TransitionCoverage;
  /** Observed traffic only (a proxy's, a HAR file's, a user's own tests'): the exchanges set aside as not the API's, never judged; absent from a run's results. */
  notApiTraffic?: NotApiTraffic;
}

/**
 * Why an observed exchange is not the API's traffic (engine/observed/api-traffic.ts):
 * `other_origin` (a request to another origin than the API's), `cors_preflight` (a browser's CORS
 * preflight), `browser_resource` (a browser's document, script, style, image, font... request, by
 * its Fetch Metadata headers, its HAR `_resourceType` or its `Accept`), `outside_base_path` (a
 * path outside the API's base paths that is not a JSON call), `static_answer` (answered with a page
 * or a static file to a request that did not ask for JSON).
 * @see docs/observed.md (Not API traffic)
 */
export type NotApiReason = 'other_origin' | 'cors_preflight' | 'browser_resource' | 'outside_base_path' | 'static_answer';

/** One exchange set aside as not the API's traffic, as the reports list it. */
export interface NotApiExchange {
  /** Its number in the traffic, from 1 (its case id would have been `observed#<exchange>`; a HAR file's entry in order). */
  exchange: number;
  method: string;
  /** Origin and path, without the query (which may hold secrets): `?…` marks that there was one. */
  url: string;
  reason: NotApiReason;
  /** For a person: what in the exchange said so (`a browser's stylesheet request (HAR _resourceType: stylesheet)`). */
  why: string;
}

/**
 * The observed exchanges that were not the API's traffic: never judged, never failed, never counted
 * in a cell; counted and listed instead, so that nothing is set aside silently.
 */
export interface NotApiTraffic {
  /** How many exchanges were set aside. */
  count: number;
  /** How many for each reason (reasons without any are left out). */
  byReason: Partial<Record<NotApiReason, number>>;
  /** The first ones in traffic order, at most 20. */
  listed: NotApiExchange[];
}

/** The results as {@link collectResults} gathers them, before the run adds its own problems and coverage. */
export interface CollectedResults {
  cells: ReportCell[];
  errors: HarnessProblem[];
  /** Observed traffic's exchanges that were not the API's ({@link RunResults.notApiTraffic}). */
  notApiTraffic?: NotApiTraffic;
}

/**
 * The results of a run, made once: the cells and problems collected, the coverage computed when
 * `spec` is given, and everything frozen, so that no reporter or later step can change a cell or
 * a failure.
 * @param minCoverage `--min-coverage` in percent
 */
export function finishResults(collected: CollectedResults, options: { spec?: LoadedSpec; minCoverage?: number } = {}): RunResults {
  const coverage = options.spec ? computeCoverage(options.spec, collected.cells, options.minCoverage) : undefined;
  const transitions = transitionCoverage(collected.cells);
  return deepFreeze({ cells: collected.cells, errors: collected.errors, ...(coverage ? { coverage } : {}), conformance: conformanceStatement(collected.cells), ...(transitions ? { transitions } : {}), ...(collected.notApiTraffic ? { notApiTraffic: collected.notApiTraffic } : {}) });
}

function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const inner of Object.values(value as object)) deepFreeze(inner);
  return value;
}

/**
 * The one collector of a run's results, a vitest reporter: reads every finished test module once
 * (`collectResults`), telling `onModule` of each module's results as it ends (the console's
 * progress line per suite file) and keeping the whole run's for {@link finishResults}.
 */
export class ResultsCollector implements Reporter {
  /** The run's results once vitest has ended it. */
  collected: CollectedResults | undefined;
  readonly #onModule: ((moduleId: string, results: CollectedResults) => void) | undefined;

  constructor(onModule?: (moduleId: string, results: CollectedResults) => void) {
    this.#onModule = onModule;
  }

  onTestModuleEnd(testModule: TestModule): void {
    this.#onModule?.(testModule.relativeModuleId, collectResults([testModule]));
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    this.collected = collectResults(testModules, unhandledErrors, reason);
  }
}

/** Counts over a run's results; `failures` counts occurrences, not cells. */
export interface RunSummary {
  /** Cells by status; `skipped` counts only cells that could apply (a role, fixture, adapter or option missing). */
  passed: number;
  failed: number;
  skipped: number;
  not_applicable: number;
  errored: number;
  /** `skipped` cells by what the run lacks (`CellMeta.skipKind`); `unknown` for a skipped cell that does not say. */
  skippedBy: Record<SkipKind | 'unknown', number>;
  /** Harness problems. */
  errors: number;
  /** Failure occurrences over all failed cells (before de-duplication). */
  failures: number;
  /** Distinct operations and check ids among the cells. */
  operations: number;
  checks: number;
  /** Generated cases (or walks) checked, summed over the cells. */
  cases: number;
}

/** Exit code of a run: 0 conformant, 1 failures, 2 a harness error (docs/design.md, Command line). */
export type ExitCode = 0 | 1 | 2;

/**
 * Maps vitest's finished test modules to run results, without side effects.
 *
 * Per test case, by vitest's state and the `task.meta.conformance` cell it recorded:
 * - a cell whose test passed, or was skipped, is taken as recorded (a skipped test whose cell says
 *   `passed` becomes a skipped cell, with the runner's note as the reason);
 * - a failed test whose cell says `failed` is taken as recorded;
 * - a failed test whose cell says `passed` or `skipped`, or that recorded no cell (a hook threw,
 *   the target was unreachable), is an error, and its cell is left out of the matrix;
 * - a cell that says `passed` but carries failures is an error (a suite bug), never a pass;
 * - a test without a cell that passed or was skipped is not part of the matrix and is ignored
 *   (helpers, tests filtered out by `--checks`);
 * - the cells a test records in `task.meta.inapplicable` (checks that cannot apply to their
 *   operation, one test for a suite file's) are taken as recorded.
 * Errors of modules and suites (collection errors, failed `beforeAll`/`afterAll` hooks), the
 * unhandled errors, and an interrupted run are errors as well.
 * @param testModules the modules vitest passes to `onTestRunEnd`
 * @param unhandledErrors errors vitest caught outside any test
 * @param reason why the run ended; `interrupted` adds an error, since cells may be missing
 */
export function collectResults(
  testModules: ReadonlyArray<TestModule>,
  unhandledErrors: ReadonlyArray<SerializedError> = [],
  reason?: TestRunEndReason,
): CollectedResults {
  const cells: ReportCell[] = [];
  const errors: HarnessProblem[] = [];

  for (const testModule of testModules) {
    errors.push(...problemsOf(testModule.relativeModuleId, testModule.errors()));
    for (const suite of testModule.children.allSuites()) {
      errors.push(...problemsOf(suite.fullName, suite.errors()));
    }
    for (const testCase of testModule.children.allTests()) {
      const outcome = classify(testCase);
      // The test's own duration, for JUnit's `time`; a stand-in module (tests) may have no diagnostic.
      const durationMs = testCase.diagnostic?.()?.duration;
      if (outcome.cell) cells.push(durationMs === undefined ? outcome.cell : { ...outcome.cell, durationMs: Math.max(0, durationMs) });
      // The response checks' findings on the test's other exchanges (engine/judge.ts), each on its own operation and check.
      if (outcome.cell || testCase.result().state !== 'pending') cells.push(...(testCase.meta().judged ?? []));
      // The cells of checks that cannot apply, decided from the document without a case (no duration, as a skipped test has none).
      if (testCase.result().state !== 'pending') cells.push(...(testCase.meta().inapplicable ?? []));
      errors.push(...outcome.errors);
    }
  }
  for (const error of unhandledErrors) {
    errors.push(problemOf('unhandled error', error));
  }
  if (reason === 'interrupted') {
    errors.push({ where: 'run', message: 'the run was interrupted before every test finished; the matrix is incomplete' });
  }
  return { cells, errors };
}

/**
 * The exit code for run results: 1 when any cell failed that `failOn` counts (every failed cell by
 * default; with `must`, only cells of must-level checks: engine/conformance.ts), since a harness
 * error never hides a failure (docs/design.md, Command line); else 2 when there is a harness error
 * or an errored cell, else 1 when the spec coverage is below `--min-coverage`
 * (`coverage.belowMinimum` is not empty), else 0 (also for a run without cells).
 * @param coverage the run's coverage (`computeCoverage`), when it was measured
 * @param failOn `--fail-on`: `should` (default) or `must`
 */
export function exitCodeFor(results: Pick<RunResults, 'cells' | 'errors'>, coverage?: Pick<Coverage, 'belowMinimum'>, failOn: FailOn = 'should'): ExitCode {
  if (results.cells.some((cell) => failsRun(cell, failOn))) return 1;
  if (results.errors.length > 0 || results.cells.some((cell) => cell.status === 'errored')) return 2;
  return coverage && coverage.belowMinimum.length > 0 ? 1 : 0;
}

/** Counts cells by status, failure occurrences, distinct operations and checks, and errors. */
export function summarize(results: RunResults): RunSummary {
  const byStatus: Record<CellStatus, number> = { passed: 0, failed: 0, skipped: 0, not_applicable: 0, errored: 0 };
  const operations = new Set<string>();
  const checks = new Set<string>();
  const skippedBy: Record<SkipKind | 'unknown', number> = { role: 0, fixture: 0, adapter: 0, option: 0, unknown: 0 };
  let failures = 0;
  let cases = 0;
  for (const cell of results.cells) {
    byStatus[cell.status] += 1;
    if (cell.status === 'skipped') skippedBy[cell.skipKind ?? 'unknown'] += 1;
    operations.add(cell.operationId);
    checks.add(cell.checkId);
    failures += cell.failures.length;
    cases += cell.cases;
  }
  return {
    ...byStatus,
    skippedBy,
    errors: results.errors.length,
    failures,
    operations: operations.size,
    checks: checks.size,
    cases,
  };
}

interface Outcome {
  cell?: CellMeta;
  errors: HarnessProblem[];
}

function classify(testCase: TestCase): Outcome {
  const where = testCase.fullName;
  const cell = testCase.meta().conformance;
  const result = testCase.result();

  if (result.state === 'pending') {
    // Only an interrupted run leaves tests pending; collectResults reports that once for the run.
    return { errors: [] };
  }
  if (!cell) {
    if (result.state !== 'failed') return { errors: [] };
    return { errors: problemsOf(where, result.errors, 'the test failed without recording its cell') };
  }
  if (cell.status === 'passed' && cell.failures.length > 0) {
    return {
      errors: [{ where, message: `the cell ${cellName(cell)} says passed but carries ${cell.failures.length} failure(s)` }],
    };
  }
  if (result.state === 'failed') {
    if (cell.status === 'failed' || cell.status === 'errored') return { cell, errors: [] };
    // A cell that passed (or could not run) beside a judged cell that failed: the test failed for the latter.
    if (testCase.meta().judged?.some((judged) => judged.status === 'failed')) return { cell, errors: [] };
    const thrown = result.errors[0];
    const problem = problemOf(where, thrown ?? { message: 'no error recorded' });
    problem.message = `the test failed but its cell ${cellName(cell)} says ${cell.status}: ${problem.message}`;
    return { errors: [problem] };
  }
  if (result.state === 'skipped' && cell.status === 'passed') {
    return { cell: { ...cell, status: 'skipped', skipReason: cell.skipReason ?? result.note ?? 'skipped by the runner' }, errors: [] };
  }
  return { cell, errors: [] };
}

function cellName(cell: CellMeta): string {
  return `${cell.checkId} on ${cell.operationId}`;
}

function problemsOf(where: string, errors: ReadonlyArray<SerializedError> | undefined, fallback?: string): HarnessProblem[] {
  if (!errors || errors.length === 0) return fallback ? [{ where, message: fallback }] : [];
  return errors.map((error) => problemOf(where, error));
}

function problemOf(where: string, error: SerializedError): HarnessProblem {
  // A plain Error's name says nothing, and a HarnessError's code (kept below) says more than its name.
  const name = typeof error.name === 'string' && error.name !== 'Error' && error.name !== 'HarnessError' ? `${error.name}: ` : '';
  const problem: HarnessProblem = { where, message: `${name}${error.message ?? String(error)}` };
  const code = error['code'];
  if (typeof code === 'string' && code !== '') problem.code = code;
  if (typeof error.stack === 'string' && error.stack !== '') problem.stack = error.stack;
  return problem;
}
