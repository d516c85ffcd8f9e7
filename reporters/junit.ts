/**
 * The JUnit XML reporter, for CI systems that show test results: one `<testsuite>` per operation,
 * one `<testcase>` per applicable cell (classname `conformance.<tag>`, so that Jenkins files it
 * under the package `conformance` and the class of the operation's tag; name
 * `<checkId> on <operationId>`), failed cells with a `<failure>` holding every failure and its
 * reproducer, skipped cells with `<skipped message>` naming what is missing and the fix, errored
 * cells and harness errors as `<error>`. Cells that cannot apply are not test cases: each suite
 * counts them in a property. Coverage (spec coverage and the state-machine edges) is a set of
 * `<properties>` of a `coverage` suite without test cases, so it never inflates the totals; so are
 * the observed exchanges that were not API traffic (a `not_api_traffic` suite).
 * Every `<testcase>` and `<testsuite>` carries `time` in seconds.
 * @see https://github.com/windyroad/JUnit-Schema (the de-facto schema; `skipped@message` as Ant
 * and Maven Surefire write it)
 */
import { createRequire } from 'node:module';
import type { Builder, TestCase as JUnitTestCase, TestSuite as JUnitTestSuite } from 'junit-report-builder';
import { transitionCoverage } from '../engine/stateful/transitions.js';
import { statementOf } from './format.js';
import type { CellMeta, Failure } from '../core/types.js';
import type { LoadedSpec } from '../core/spec/load.js';
import { COVERAGE_MEASURES, formatCoverageTotal, type Coverage } from '../engine/coverage.js';
import { compactJson, notApiExchangeLine, notApiTrafficHeadline, replayLine, reproducerLines } from './format.js';
import { type HarnessProblem, type ReportCell, type RunResults } from '../engine/results.js';
import { type ReportInfo } from './run-info.js';
import { FileReporter, type FileReporterOptions } from './file-reporter.js';

// junit-report-builder is CommonJS (`module.exports = builder`) but its types declare an ES default
// export, which NodeNext types as `{ default }`; `require` gives the builder under either reading.
const builder = createRequire(import.meta.url)('junit-report-builder') as Builder;

/** Name of the `<testsuite>` that holds the harness errors. */
export const HARNESS_SUITE = 'harness';

/** Name of the `<testsuite>` that holds the coverage as properties (no test cases). */
export const COVERAGE_SUITE = 'coverage';

/** Name of the suite that holds the conformance statement (properties only). */
export const CONFORMANCE_SUITE = 'conformance';

/** Name of the suite that counts and lists observed exchanges that were not API traffic (properties only). */
export const NOT_API_TRAFFIC_SUITE = 'not_api_traffic';

/** The package part of every classname: `conformance.<tag>`. */
export const CLASSNAME_PREFIX = 'conformance';

/** The property value of an edge no stateful scenario saw happen. */
export const EDGE_NOT_EXERCISED = 'not exercised by the stateful suites';

/** Options of {@link JUnitReporter}: the run's info, the document for coverage, and the file to write. */
export interface JUnitReporterOptions extends FileReporterOptions {
  /** Path of the XML file; missing directories are created. */
  outputFile: string;
  /** The document the run checked against: each test case is classed by its operation's first tag. */
  spec?: Pick<LoadedSpec, 'operations'>;
}

/** Options of {@link renderJUnit}. */
export interface JUnitRenderOptions {
  /** The operation's first tag by operationId (`products:list` → `products`), from the document. */
  tags?: Readonly<Record<string, string>>;
}

const DEFAULT_TITLE = 'conformance';
// Expected and actual values go into the failure text whole but on one line each, up to this size.
const JSON_TEXT_CHARS = 2000;

/**
 * Renders run results as a JUnit XML document (UTF-8, with declaration): a `<testsuites>` root
 * named by `info.title` with the run's `time`; a `<testsuite>` per operation in matrix order with
 * the properties `target`, `spec_version`, `seed` and `not_applicable` (cells of the operation
 * that cannot apply, which are not test cases), the run's start as `timestamp` (UTC, no zone, as
 * the schema wants) and `time` (the sum of its test cases'); then the `harness` suite when there
 * are errors; then, when `coverage` is given or a stateful scenario recorded transitions, the
 * `coverage` suite with no test case and the properties `coverage.<measure>` (`12/20 (60.0%)`),
 * `coverage.minimum` and `coverage.below_minimum` when `--min-coverage` was given, and one
 * `transition.<edge>` per state-machine edge (`exercised` or {@link EDGE_NOT_EXERCISED}, never a
 * failure: an adapter without a capability legitimately skips scenarios; `not in any transition
 * table` for an edge the reference does not have); last, when any cell was recorded, the
 * `conformance` suite with no test case and the properties `conformance` (`conformant` or `not
 * conformant`) and `conformance.<class>` (each class's verdict and counts: engine/conformance.ts); then, for observed
 * traffic that held exchanges that were not the API's, the `not_api_traffic` suite with no test
 * case and the properties `not_api_traffic` (the count by reason) and `not_api_traffic.<n>` (the
 * first 20 exchanges, `#n METHOD URL — why`). A test case's classname is
 * `conformance.<tag>`: the operation's tag from `options.tags`, else the part of the operationId
 * before `:`. `time` is in seconds with three decimals; a cell without a measured duration has 0.
 * Characters that XML 1.0 cannot carry (control characters from a misbehaving target) are dropped.
 */
export function renderJUnit(results: RunResults, info: ReportInfo, coverage?: Coverage, options: JUnitRenderOptions = {}): string {
  const report = builder.newBuilder().name(clean(info.title ?? DEFAULT_TITLE));
  const suites = new Map<string, { suite: JUnitTestSuite; ms: number; notApplicable: number; cells: ReportCell[] }>();
  // The JUnit schema's timestamp has no zone; ours is UTC (the library's Date formatting is local).
  const timestamp = info.startedAt.slice(0, 19);

  for (const cell of results.cells) {
    let entry = suites.get(cell.operationId);
    if (!entry) {
      entry = { suite: report.testSuite().name(clean(cell.operationId)).timestamp(timestamp), ms: 0, notApplicable: 0, cells: [] };
      suites.set(cell.operationId, entry);
    }
    entry.cells.push(cell);
  }
  for (const [operationId, entry] of suites) {
    const classname = `${CLASSNAME_PREFIX}.${tagOf(operationId, options.tags)}`;
    for (const cell of entry.cells) {
      if (cell.status === 'not_applicable') {
        entry.notApplicable += 1;
        continue;
      }
      entry.ms += cell.durationMs ?? 0;
      addCell(entry.suite.testCase().className(clean(classname)), cell);
    }
    entry.suite
      .property('target', clean(info.target))
      .property('spec_version', clean(info.specVersion))
      .property('seed', String(info.seed))
      .property('not_applicable', String(entry.notApplicable))
      .time(seconds(entry.ms));
    if (info.specNotes?.length) entry.suite.property('spec_notes', clean(info.specNotes.join('; ')));
  }

  if (results.errors.length > 0) {
    const suite = report.testSuite().name(HARNESS_SUITE).timestamp(timestamp).time(0);
    for (const problem of results.errors) addError(suite.testCase(), problem);
  }
  addCoverage(report, timestamp, results, coverage);
  // The conformance statement: a suite of properties, no test case (the cells are the test cases).
  if (results.cells.length > 0) {
    const statement = statementOf(results);
    const conformance = report.testSuite().name(CONFORMANCE_SUITE).timestamp(timestamp).time(0).property('conformance', statement.conformant ? 'conformant' : 'not conformant');
    for (const c of statement.classes) conformance.property(`conformance.${c.conformanceClass}`, `${c.verdict} (${c.judged} judged, ${c.mustFailed} must-level failed, ${c.shouldFailed} should-level failed)`);
  }
  // Observed exchanges that were not the API's: properties of a suite without test cases, never a failure or a skip.
  const notApi = results.notApiTraffic;
  if (notApi && notApi.count > 0) {
    const suite = report.testSuite().name(NOT_API_TRAFFIC_SUITE).timestamp(timestamp).time(0).property('not_api_traffic', clean(notApiTrafficHeadline(notApi)));
    for (const exchange of notApi.listed) suite.property(`not_api_traffic.${exchange.exchange}`, clean(notApiExchangeLine(exchange)));
  }
  // The builder's root has no `time` setter: the attribute goes on the root's start tag, the one `<testsuites` of the text.
  return `${report.build().replace('<testsuites', `<testsuites time="${seconds(info.durationMs)}"`)}\n`;
}

/** Writes {@link renderJUnit} of the run's results to `outputFile`, with the operations' tags when `spec` is given. */
export class JUnitReporter extends FileReporter {
  constructor(options: JUnitReporterOptions) {
    const tags = options.spec ? tagsOf(options.spec) : undefined;
    super(options, (results, info, coverage) => renderJUnit(results, info, coverage, tags ? { tags } : {}));
  }
}

/** The first tag of each operation of a document, by operationId; operations without a tag are left out. */
export function tagsOf(spec: Pick<LoadedSpec, 'operations'>): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const operation of spec.operations) {
    const tag = operation.tags[0];
    if (tag) tags[operation.operationId] = tag;
  }
  return tags;
}

// A classname segment: the tag, else the operationId's prefix; dots would add a package level.
function tagOf(operationId: string, tags: Readonly<Record<string, string>> | undefined): string {
  const tag = tags?.[operationId] ?? operationId.split(':')[0] ?? operationId;
  return tag.replace(/[.\s]+/g, '_') || 'untagged';
}

function seconds(ms: number): number {
  return Math.round(Math.max(0, ms)) / 1000;
}

function addCell(testCase: JUnitTestCase, cell: ReportCell): void {
  testCase.name(clean(`${cell.checkId} on ${cell.operationId}`)).time(seconds(cell.durationMs ?? 0));
  if (cell.status === 'failed') {
    const first = cell.failures[0];
    testCase
      .failure(clean(first?.title ?? 'failed without recorded failures'), first ? clean(first.kind) : undefined)
      .stacktrace(clean(failureText(cell)));
  } else if (cell.status === 'skipped') {
    const what = cell.skipKind ? `missing ${cell.skipKind}: ` : '';
    const fix = cell.fix ? ` (fix: ${cell.fix})` : '';
    skipWithMessage(testCase, clean(`${what}${cell.skipReason ?? 'no reason given'}${fix}`));
  } else if (cell.status === 'errored') {
    const error = cell.error ?? { code: 'harness_error', message: 'the cell errored without saying why' };
    testCase.error(clean(error.message), clean(error.code), clean(`${error.code}: ${error.message}`));
  }
  // A passed cell with baseline-accepted failures says so, so an accepted deviation is never silent.
  if (cell.accepted?.length) {
    testCase.standardOutput(clean(cell.accepted.map((f) => `accepted by the baseline (${f.acceptedBecause}): ${f.title}: ${f.message}`).join('\n')));
  }
}

// Coverage as properties of a suite without test cases: measures, the minimum, and each edge.
function addCoverage(report: ReturnType<Builder['newBuilder']>, timestamp: string, results: RunResults, coverage: Coverage | undefined): void {
  const transitions = results.transitions ?? transitionCoverage(results.cells);
  if (!coverage && !transitions) return;
  const suite = report.testSuite().name(COVERAGE_SUITE).timestamp(timestamp).time(0);
  if (coverage) {
    for (const measure of COVERAGE_MEASURES) suite.property(`coverage.${measure}`, formatCoverageTotal(coverage.totals[measure]));
    if (coverage.minPercent !== undefined) {
      suite.property('coverage.minimum', `${coverage.minPercent}%`);
      suite.property('coverage.below_minimum', coverage.belowMinimum.join(',') || 'none');
    }
  }
  if (transitions) {
    for (const machine of transitions.machines) {
      for (const { edge, exercised } of machine.edges) suite.property(clean(`transition.${edge}`), exercised ? 'exercised' : EDGE_NOT_EXERCISED);
    }
    // An edge no table has is a bug of the scenario that recorded it: shown, never counted as coverage.
    for (const edge of transitions.unknown) suite.property(clean(`transition.${edge}`), 'recorded by a stateful scenario but in no transition table of the reference');
  }
}

function addError(testCase: JUnitTestCase, problem: HarnessProblem): void {
  const content = problem.stack ?? problem.message;
  testCase
    .className(`${CLASSNAME_PREFIX}.${HARNESS_SUITE}`)
    .name(clean(problem.where))
    .time(0)
    .error(clean(problem.message), clean(problem.code ?? 'harness_error'), clean(content));
}

/** Every failure of a cell: title, message, expected and actual, and how to reproduce it. */
function failureText(cell: CellMeta): string {
  if (cell.failures.length === 0) return `The suite marked ${cell.checkId} on ${cell.operationId} failed but recorded no failure.`;
  return cell.failures.map((failure, index) => oneFailure(failure, index + 1, cell.failures.length)).join('\n\n');
}

function oneFailure(failure: Failure, number: number, total: number): string {
  const lines = [
    `${total > 1 ? `[${number}/${total}] ` : ''}${failure.title} (${failure.kind}, ${failure.severity}, rule ${failure.rule}, case ${failure.caseId})`,
    failure.message,
  ];
  if (failure.expected !== undefined) lines.push(`expected: ${compactJson(failure.expected, JSON_TEXT_CHARS)}`);
  if (failure.actual !== undefined) lines.push(`actual:   ${compactJson(failure.actual, JSON_TEXT_CHARS)}`);
  lines.push('Reproduce with:', '', ...reproducerLines(failure.reproduce).map((line) => `    ${line}`), '', replayLine(failure.reproduce));
  return lines.join('\n');
}

/**
 * Marks a test case skipped with a `message` attribute. junit-report-builder 5 writes a bare
 * `<skipped/>` (its `skipped()` takes no reason), so the attribute is added to the element the
 * test case builds; the suite's `skipped` count still comes from `skipped()`.
 */
function skipWithMessage(testCase: JUnitTestCase, message: string): void {
  testCase.skipped();
  const build = testCase.build.bind(testCase);
  testCase.build = (parent) => {
    const element = build(parent);
    for (const child of element.children) {
      if ('name' in child && child.name === 'skipped' && 'att' in child) child.att('message', message);
    }
    return element;
  };
}

// XML 1.0 allows tab, newline, carriage return and the ranges below; anything else (NUL, other
// C0 controls, lone surrogates, U+FFFE/U+FFFF) makes the document unparseable.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function clean(text: string): string {
  return text.replace(NOT_XML, '');
}
