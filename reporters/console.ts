/**
 * The console reporter: a progress line per finished test module, then the run's report — a
 * header, the operation x check matrix, each distinct failure with "Reproduce with:" and its
 * curl command, the skipped cells with their reasons, the harness errors, and a summary line.
 * @see style.md, Schemathesis ("Reproduce with:"), vitest (implement the `Reporter` interface)
 */
import pc from 'picocolors';
import type { Reporter, SerializedError, TestModule, TestRunEndReason } from 'vitest/node';
import { renderTransitionCoverage } from '../checks/stateful/transitions.js';
import type { CellMeta, CellStatus } from '../harness/types.js';
import { COVERAGE_MEASURES, coverageOf, formatPercent, type Coverage, type CoverageSource } from './coverage.js';
import { compactJson, formatDuration, groupFailures, plural, replayLine, truncate } from './format.js';
import { buildMatrix, type Matrix } from './matrix.js';
import { collectResults, summarize, type HarnessProblem, type RunResults } from './results.js';
import { RunClock, type ReportInfo, type RunInfo } from './run-info.js';

/** The symbol of each cell status in the matrix; a cell that did not run is blank. */
export const STATUS_SYMBOLS: Readonly<Record<CellStatus, string>> = { passed: '✓', failed: '✗', skipped: '–', not_applicable: '·', errored: '!' };

/** How {@link renderConsoleReport} lays out its text. */
export interface ConsoleRenderOptions {
  /** ANSI colours (picocolors); off by default so that the text can be asserted. */
  color?: boolean;
  /** Line width the matrix must fit, in columns; default 100. */
  width?: number;
  /** The run's spec coverage; without it the report has no coverage block. */
  coverage?: Coverage;
}

/** Options of {@link ConsoleReporter}: the run's info, the document for coverage, and where and how to write. */
export interface ConsoleReporterOptions extends RunInfo, CoverageSource {
  /** Where to write; default `process.stdout`. */
  out?: NodeJS.WritableStream;
  /** Force colours on or off; default on only when `out` is a TTY that supports them. */
  color?: boolean;
}

type Colors = ReturnType<typeof pc.createColors>;

const DEFAULT_TITLE = 'Conformance run';
const DEFAULT_WIDTH = 100;
// Longer operation ids are cut so that the status columns keep most of the width.
const MAX_OPERATION_WIDTH = 40;
const JSON_PREVIEW_CHARS = 160;
// A harness error seen in many places (every test of a suite whose hook threw) names a few of them.
const MAX_ERROR_PLACES = 3;
// The coverage block stays short: the HTML and JSON reports list every operation.
const MAX_IDLE_OPERATIONS = 8;

/**
 * Renders the whole end-of-run report as text: header (title, target, spec version, seed), the
 * matrix in blocks of numbered check columns that fit `width` with a legend of the check ids,
 * failures de-duplicated by (checkId, operationId, kind), skipped cells grouped by reason, harness
 * errors, the coverage block when `options.coverage` is given (operations, statuses and parameters
 * covered out of documented, with percentages, the ones below `--min-coverage` marked, and up to
 * 8 operations not exercised), the transition coverage when stateful scenarios ran (each state
 * machine's edges marked exercised or not), and the last line
 * `conformance: 18 passed, 2 failed, 1 skipped in 3.2s (seed 42)`, which also says
 * `coverage below 80%` when a measure is below the minimum.
 * Ends with a newline; no colours unless `options.color`.
 */
export function renderConsoleReport(results: RunResults, info: ReportInfo, options: ConsoleRenderOptions = {}): string {
  const c = pc.createColors(options.color ?? false);
  const width = options.width ?? DEFAULT_WIDTH;
  const sections = [
    renderHeader(info, c),
    renderMatrix(buildMatrix(results.cells), width, c),
    renderFailures(results.cells, c),
    renderAccepted(results.cells, c),
    renderSkipped(results.cells, width, c),
    renderErrors(results.errors, c),
    options.coverage ? renderCoverage(options.coverage, width, c) : '',
    renderTransitionCoverage(results.cells, (mark, exercised) => (exercised ? c.green(mark) : c.dim(mark)), width),
    renderSummaryLine(results, info, options.coverage, c),
  ];
  return `${sections.filter((section) => section !== '').join('\n\n')}\n`;
}

/**
 * Writes a progress line per finished test module and {@link renderConsoleReport} at the end of
 * the run. It never sets the exit code: the CLI does that with `exitCodeFor`.
 */
export class ConsoleReporter implements Reporter {
  readonly #options: ConsoleReporterOptions;
  readonly #out: NodeJS.WritableStream;
  readonly #color: boolean;
  readonly #clock = new RunClock();

  constructor(options: ConsoleReporterOptions) {
    this.#options = options;
    this.#out = options.out ?? process.stdout;
    this.#color = options.color ?? (isTty(this.#out) && pc.isColorSupported);
  }

  onTestRunStart(): void {
    this.#clock.start();
  }

  onTestModuleEnd(testModule: TestModule): void {
    const c = pc.createColors(this.#color);
    const results = collectResults([testModule]);
    const summary = summarize(results);
    const counts = [
      c.green(`${summary.passed} ${STATUS_SYMBOLS.passed}`),
      c.red(`${summary.failed} ${STATUS_SYMBOLS.failed}`),
      c.dim(`${summary.skipped} ${STATUS_SYMBOLS.skipped}`),
    ];
    if (summary.errors > 0) counts.push(c.magenta(plural(summary.errors, 'error')));
    this.#out.write(`${c.dim('·')} ${testModule.relativeModuleId}  ${plural(results.cells.length, 'cell')}: ${counts.join(' ')}\n`);
  }

  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): void {
    const results = collectResults(testModules, unhandledErrors, reason);
    const coverage = coverageOf(results.cells, this.#options);
    this.#out.write(`\n${renderConsoleReport(results, this.#clock.stop(this.#options), { color: this.#color, ...(coverage ? { coverage } : {}) })}`);
  }
}

function isTty(out: NodeJS.WritableStream): boolean {
  return (out as { isTTY?: boolean }).isTTY === true;
}

function renderHeader(info: ReportInfo, c: Colors): string {
  return [
    c.bold(info.title ?? DEFAULT_TITLE),
    `  target        ${info.target}`,
    `  spec version  ${info.specVersion}`,
    `  seed          ${info.seed}`,
  ].join('\n');
}

function symbolOf(status: CellStatus | undefined, c: Colors): string {
  if (status === 'passed') return c.green(STATUS_SYMBOLS.passed);
  if (status === 'failed') return c.red(STATUS_SYMBOLS.failed);
  if (status === 'skipped') return c.dim(STATUS_SYMBOLS.skipped);
  return ' ';
}

function renderMatrix(matrix: Matrix, width: number, c: Colors): string {
  if (matrix.operations.length === 0) return c.dim('No cells were recorded.');

  const label = 'operation';
  const longest = Math.max(label.length, ...matrix.operations.map((op) => op.length));
  const labelWidth = Math.min(longest, MAX_OPERATION_WIDTH);
  const digits = String(matrix.checks.length).length;
  const columnWidth = digits + 2;
  const perBlock = Math.max(1, Math.floor((width - labelWidth) / columnWidth));

  const blocks: string[] = [];
  for (let start = 0; start < matrix.checks.length; start += perBlock) {
    const end = Math.min(start + perBlock, matrix.checks.length);
    const lines: string[] = [];
    let header = label.padEnd(labelWidth);
    for (let column = start; column < end; column++) header += String(column + 1).padStart(columnWidth);
    lines.push(c.bold(header.trimEnd()));
    matrix.operations.forEach((operationId, row) => {
      let line = truncate(operationId, labelWidth).padEnd(labelWidth);
      for (let column = start; column < end; column++) {
        // Padding is computed on the bare symbol, which is one column wide, then coloured.
        line += ' '.repeat(columnWidth - 1) + symbolOf(matrix.statuses[row]?.[column], c);
      }
      lines.push(line.trimEnd());
    });
    blocks.push(lines.join('\n'));
  }
  const keys = `${STATUS_SYMBOLS.passed} passed  ${STATUS_SYMBOLS.failed} failed  ${STATUS_SYMBOLS.skipped} skipped  (blank) not run`;
  return [...blocks, renderLegend(matrix.checks, width, digits), c.dim(keys)].join('\n\n');
}

// The legend maps column numbers to check ids, packed column-major into as many columns as fit.
function renderLegend(checks: readonly string[], width: number, digits: number): string {
  const entries = checks.map((checkId, index) => `${String(index + 1).padStart(digits)}  ${checkId}`);
  const entryWidth = Math.max(...entries.map((entry) => entry.length)) + 3;
  const columns = Math.max(1, Math.floor((width + 3) / entryWidth));
  const rows = Math.ceil(entries.length / columns);
  const lines: string[] = [];
  for (let row = 0; row < rows; row++) {
    let line = '';
    for (let column = 0; column < columns; column++) {
      const entry = entries[column * rows + row];
      if (entry !== undefined) line += entry.padEnd(entryWidth);
    }
    lines.push(line.trimEnd());
  }
  return lines.join('\n');
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line) => (line === '' ? line : pad + line))
    .join('\n');
}

function renderFailures(cells: readonly CellMeta[], c: Colors): string {
  const groups = groupFailures(cells);
  const bare = cells.filter((cell) => cell.status === 'failed' && cell.failures.length === 0);
  if (groups.length === 0 && bare.length === 0) return '';

  const occurrences = groups.reduce((sum, group) => sum + group.count, 0) + bare.length;
  const distinct = groups.length + bare.length;
  const parts = [c.bold(c.red(`Failures (${distinct} distinct, ${plural(occurrences, 'occurrence')})`))];
  for (const { first, count } of groups) {
    const lines: string[] = [];
    const times = count > 1 ? ` (${count} occurrences)` : '';
    lines.push(c.red(`${STATUS_SYMBOLS.failed} ${first.checkId} on ${first.operationId} — ${first.title}${times}`));
    lines.push(c.dim(`  ${first.severity} · ${first.kind} · rule ${first.rule} · case ${first.caseId}`));
    lines.push(indent(first.message, 2));
    if (first.expected !== undefined) lines.push(`  expected: ${compactJson(first.expected, JSON_PREVIEW_CHARS)}`);
    if (first.actual !== undefined) lines.push(`  actual:   ${compactJson(first.actual, JSON_PREVIEW_CHARS)}`);
    lines.push(`  ${c.bold('Reproduce with:')}`, '', indent(first.reproduce.curl, 4), '');
    lines.push(`  ${replayLine(first.reproduce)}`);
    parts.push(lines.join('\n'));
  }
  for (const cell of bare) {
    parts.push(
      [
        c.red(`${STATUS_SYMBOLS.failed} ${cell.checkId} on ${cell.operationId} — failed without recorded failures`),
        '  The suite marked this cell failed but recorded no failure to show or reproduce.',
      ].join('\n'),
    );
  }
  return parts.join('\n\n');
}

/** Failures a baseline accepts: listed with the reason, so an accepted deviation is never silent. */
function renderAccepted(cells: readonly CellMeta[], c: Colors): string {
  const accepted = cells.flatMap((cell) => cell.accepted ?? []);
  if (accepted.length === 0) return '';
  const lines = [c.bold(c.yellow(`Accepted by the baseline (${plural(accepted.length, 'failure')}, not failing the run)`))];
  for (const failure of accepted) {
    lines.push(`  ${failure.checkId} on ${failure.operationId} — ${failure.title} (${failure.kind})`);
    lines.push(c.dim(`    because: ${failure.acceptedBecause}`));
  }
  return lines.join('\n');
}

function renderSkipped(cells: readonly CellMeta[], width: number, c: Colors): string {
  const skipped = cells.filter((cell) => cell.status === 'skipped');
  if (skipped.length === 0) return '';

  // reason -> operationId -> check ids, all in first-seen order
  const byReason = new Map<string, Map<string, string[]>>();
  for (const cell of skipped) {
    const reason = cell.skipReason ?? 'no reason given';
    let byOperation = byReason.get(reason);
    if (!byOperation) byReason.set(reason, (byOperation = new Map()));
    const checks = byOperation.get(cell.operationId) ?? [];
    if (!checks.includes(cell.checkId)) checks.push(cell.checkId);
    byOperation.set(cell.operationId, checks);
  }
  const lines = [c.bold(`Skipped (${plural(skipped.length, 'cell')})`)];
  for (const [reason, byOperation] of byReason) {
    const count = [...byOperation.values()].reduce((sum, checks) => sum + checks.length, 0);
    lines.push(`  ${c.dim(STATUS_SYMBOLS.skipped)} ${reason} (${count})`);
    for (const [operationId, checks] of byOperation) lines.push(wrapList(`      ${operationId}: `, checks, width));
  }
  return lines.join('\n');
}

// `prefix` then the items joined by ", ", continued under the first item when a line would pass `width`.
function wrapList(prefix: string, items: readonly string[], width: number): string {
  const lines: string[] = [];
  let line = prefix;
  let empty = true;
  items.forEach((item, index) => {
    const text = index < items.length - 1 ? `${item},` : item;
    if (!empty && line.length + 1 + text.length > width) {
      lines.push(line);
      line = ' '.repeat(prefix.length);
      empty = true;
    }
    line += empty ? text : ` ${text}`;
    empty = false;
  });
  lines.push(line);
  return lines.join('\n');
}

function renderErrors(errors: readonly HarnessProblem[], c: Colors): string {
  if (errors.length === 0) return '';

  // One entry per distinct (code, message): a hook that threw fails every test under it the same way.
  const groups = new Map<string, { problem: HarnessProblem; places: string[] }>();
  for (const problem of errors) {
    const key = `${problem.code ?? ''}|${problem.message}`;
    const group = groups.get(key);
    if (group) group.places.push(problem.where);
    else groups.set(key, { problem, places: [problem.where] });
  }
  const lines = [
    c.bold(c.magenta(`Errors (${errors.length})`)),
    c.dim('  Problems of the harness or of reaching the target, not failures of the API; the run is inconclusive.'),
  ];
  for (const { problem, places } of groups.values()) {
    const code = problem.code ? `${problem.code}: ` : '';
    const [firstLine = '', ...rest] = problem.message.split('\n');
    lines.push('', c.magenta(`  ! ${code}${firstLine}`));
    if (rest.length > 0) lines.push(indent(rest.join('\n'), 4));
    const shown = places.slice(0, MAX_ERROR_PLACES).join(', ');
    const more = places.length > MAX_ERROR_PLACES ? ` and ${places.length - MAX_ERROR_PLACES} more` : '';
    lines.push(c.dim(`    in ${shown}${more}`));
  }
  return lines.join('\n');
}

function renderCoverage(coverage: Coverage, width: number, c: Colors): string {
  const cells = COVERAGE_MEASURES.map((measure) => {
    const { covered, total } = coverage.totals[measure];
    return { measure, fraction: `${covered}/${total}`, percent: formatPercent(coverage.totals[measure].percent) };
  });
  const fractionWidth = Math.max(...cells.map((cell) => cell.fraction.length));
  const percentWidth = Math.max(...cells.map((cell) => cell.percent.length));
  const minimum = coverage.minPercent === undefined ? '' : ` (minimum ${coverage.minPercent}%)`;
  const lines = [c.bold(`Coverage of the spec${minimum}`)];
  for (const { measure, fraction, percent } of cells) {
    const below = coverage.belowMinimum.includes(measure) ? `  ${c.red(`${STATUS_SYMBOLS.failed} below ${coverage.minPercent}%`)}` : '';
    lines.push(`  ${measure.padEnd('parameters'.length)}  ${fraction.padStart(fractionWidth)}  ${percent.padStart(percentWidth)}${below}`);
  }
  const idle = coverage.operations.filter((operation) => !operation.exercised).map((operation) => operation.operationId);
  if (idle.length > 0) {
    const shown = idle.length > MAX_IDLE_OPERATIONS ? [...idle.slice(0, MAX_IDLE_OPERATIONS), `and ${idle.length - MAX_IDLE_OPERATIONS} more`] : idle;
    lines.push(c.dim(wrapList('  not exercised: ', shown, width)));
  }
  return lines.join('\n');
}

function renderSummaryLine(results: RunResults, info: ReportInfo, coverage: Coverage | undefined, c: Colors): string {
  const summary = summarize(results);
  const counts = [
    c.green(`${summary.passed} passed`),
    summary.failed > 0 ? c.red(`${summary.failed} failed`) : `${summary.failed} failed`,
    `${summary.skipped} skipped`,
  ];
  if (summary.errors > 0) counts.push(c.magenta(plural(summary.errors, 'error')));
  if (coverage && coverage.belowMinimum.length > 0) counts.push(c.red(`coverage below ${coverage.minPercent}%`));
  return `${c.bold('conformance:')} ${counts.join(', ')} in ${formatDuration(info.durationMs)} (seed ${info.seed})`;
}
