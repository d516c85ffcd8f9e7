/**
 * The JUnit XML reporter, for CI systems that show test results: one `<testsuite>` per operation,
 * one `<testcase>` per cell named by check id (classname = operationId), failed cells with a
 * `<failure>` holding every failure and its reproducer, skipped cells with `<skipped message>`,
 * harness errors as `<error>` test cases in a suite named `harness`, when the document is
 * known, a suite named `coverage` with one test case per coverage measure, and, when stateful
 * scenarios ran, a suite named `transition coverage` with one test case per state-machine edge.
 * @see https://github.com/windyroad/JUnit-Schema (the de-facto schema; `skipped@message` as Ant
 * and Maven Surefire write it)
 */
import { createRequire } from 'node:module';
import type { Builder, TestCase as JUnitTestCase, TestSuite as JUnitTestSuite } from 'junit-report-builder';
import { transitionCoverage, type TransitionCoverage } from '../checks/stateful/transitions.js';
import type { CellMeta, Failure } from '../harness/types.js';
import { COVERAGE_MEASURES, formatCoverageTotal, type Coverage } from './coverage.js';
import { compactJson, replayLine } from './format.js';
import { type HarnessProblem, type RunResults } from './results.js';
import { type ReportInfo } from './run-info.js';
import { FileReporter, type FileReporterOptions } from './file-reporter.js';

// junit-report-builder is CommonJS (`module.exports = builder`) but its types declare an ES default
// export, which NodeNext types as `{ default }`; `require` gives the builder under either reading.
const builder = createRequire(import.meta.url)('junit-report-builder') as Builder;

/** Name of the `<testsuite>` that holds the harness errors. */
export const HARNESS_SUITE = 'harness';

/** Name of the `<testsuite>` that holds the coverage measures. */
export const COVERAGE_SUITE = 'coverage';

/** Name of the `<testsuite>` that holds the state-machine edges of the transition coverage. */
export const TRANSITIONS_SUITE = 'transition coverage';

/** The `<skipped message>` of an edge no stateful scenario saw happen. */
export const EDGE_NOT_EXERCISED = 'not exercised by the stateful suites';

/** Options of {@link JUnitReporter}: the run's info, the document for coverage, and the file to write. */
export interface JUnitReporterOptions extends FileReporterOptions {
  /** Path of the XML file; missing directories are created. */
  outputFile: string;
}

const DEFAULT_TITLE = 'conformance';
// Expected and actual values go into the failure text whole but on one line each, up to this size.
const JSON_TEXT_CHARS = 2000;

/**
 * Renders run results as a JUnit XML document (UTF-8, with declaration): a `<testsuites>` root
 * named by `info.title`, a `<testsuite>` per operation in matrix order with the properties
 * `target`, `spec_version` and `seed` and the run's start as `timestamp` (UTC, no zone, as the
 * schema wants), then the `harness` suite when there are errors, then, when `coverage` is given,
 * the `coverage` suite: test cases `operations`, `statuses` and `parameters` (classname
 * `coverage`) with the totals in `<system-out>`, failed (type `coverage_below_minimum`) when below
 * `--min-coverage`; then, when a cell records transitions (a stateful scenario ran), the
 * `transition coverage` suite: one test case per edge of the reference's transition tables, named
 * by the edge (`order: pending→paid`, classname the machine), passed when exercised and skipped
 * with the message {@link EDGE_NOT_EXERCISED} when not (never failed: a remote target whose
 * adapter lacks a capability legitimately skips scenarios), plus a passed test case with a
 * `<system-out>` for each recorded edge that no table has; ends with a newline.
 * Characters that XML 1.0 cannot carry (control characters from a misbehaving target) are dropped.
 */
export function renderJUnit(results: RunResults, info: ReportInfo, coverage?: Coverage): string {
  const report = builder.newBuilder().name(clean(info.title ?? DEFAULT_TITLE));
  const suites = new Map<string, ReturnType<typeof report.testSuite>>();
  // The JUnit schema's timestamp has no zone; ours is UTC (the library's Date formatting is local).
  const timestamp = info.startedAt.slice(0, 19);

  for (const cell of results.cells) {
    let suite = suites.get(cell.operationId);
    if (!suite) {
      suite = report
        .testSuite()
        .name(clean(cell.operationId))
        .timestamp(timestamp)
        .property('target', clean(info.target))
        .property('spec_version', clean(info.specVersion))
        .property('seed', String(info.seed));
      suites.set(cell.operationId, suite);
    }
    addCell(suite.testCase(), cell);
  }

  if (results.errors.length > 0) {
    const suite = report.testSuite().name(HARNESS_SUITE).timestamp(timestamp);
    for (const problem of results.errors) addError(suite.testCase(), problem);
  }
  if (coverage) {
    const suite = report.testSuite().name(COVERAGE_SUITE).timestamp(timestamp);
    for (const measure of COVERAGE_MEASURES) {
      const line = `${measure} ${formatCoverageTotal(coverage.totals[measure])}`;
      const testCase = suite.testCase().className(COVERAGE_SUITE).name(measure).standardOutput(line);
      if (coverage.belowMinimum.includes(measure)) {
        testCase.failure(`${line} is below the minimum of ${coverage.minPercent}%`, 'coverage_below_minimum');
      }
    }
  }
  const transitions = transitionCoverage(results.cells);
  if (transitions) addTransitions(report.testSuite().name(TRANSITIONS_SUITE).timestamp(timestamp), transitions);
  return `${report.build()}\n`;
}

/** Writes {@link renderJUnit} to `outputFile` at the end of the run, with coverage when `spec` is given. */
export class JUnitReporter extends FileReporter {
  constructor(options: JUnitReporterOptions) {
    super(options, renderJUnit);
  }
}

function addCell(testCase: JUnitTestCase, cell: CellMeta): void {
  testCase.className(clean(cell.operationId)).name(clean(cell.checkId));
  if (cell.status === 'failed') {
    const first = cell.failures[0];
    testCase
      .failure(clean(first?.title ?? 'failed without recorded failures'), first ? clean(first.kind) : undefined)
      .stacktrace(clean(failureText(cell)));
  } else if (cell.status === 'skipped') {
    skipWithMessage(testCase, clean(cell.skipReason ?? 'no reason given'));
  }
  // A passed cell with baseline-accepted failures says so, so an accepted deviation is never silent.
  if (cell.accepted?.length) {
    testCase.standardOutput(clean(cell.accepted.map((f) => `accepted by the baseline (${f.acceptedBecause}): ${f.title}: ${f.message}`).join('\n')));
  }
}

function addTransitions(suite: JUnitTestSuite, coverage: TransitionCoverage): void {
  for (const machine of coverage.machines) {
    for (const { edge, exercised } of machine.edges) {
      const testCase = suite.testCase().className(clean(machine.machine)).name(clean(edge));
      if (!exercised) skipWithMessage(testCase, EDGE_NOT_EXERCISED);
    }
  }
  // An edge no table has is a bug of the scenario that recorded it: shown, never marked as exercised coverage.
  for (const edge of coverage.unknown) {
    suite
      .testCase()
      .className(clean(edge.split(':')[0] ?? edge))
      .name(clean(edge))
      .standardOutput(clean(`${edge} was recorded by a stateful scenario but is in no transition table of the reference`));
  }
}

function addError(testCase: JUnitTestCase, problem: HarnessProblem): void {
  const content = problem.stack ?? problem.message;
  testCase
    .className(HARNESS_SUITE)
    .name(clean(problem.where))
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
  lines.push('Reproduce with:', '', `    ${failure.reproduce.curl}`, '', replayLine(failure.reproduce));
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
