/**
 * The console reporter. While the run goes: on a TTY one live progress line (cells done/total,
 * the operation last checked, elapsed time), elsewhere a line per finished suite file. At the end,
 * in this order so that what needs action is read last, right above the prompt: the header
 * (target, spec version, seed), the operation x check matrix sized to the terminal, the scenarios
 * that run on one operation each, not-applicable and skipped cells as counts per reason (lists
 * with `verbose`), accepted deviations, observed traffic that was not the API's (counted and
 * listed), harness errors, coverage, the failures (de-duplicated,
 * each with "Reproduce with:"), the report files written and the summary line.
 * @see docs/reports.md (Console); docs/architecture.md (A finding's way)
 */
import { relative, isAbsolute } from 'node:path';
import pc from 'picocolors';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { renderTransitionCoverage } from '../engine/stateful/transitions.js';
import type { CellMeta, CellStatus, Failure, SkipKind } from '../core/types.js';
import { COVERAGE_MEASURES, formatPercent, type Coverage } from '../engine/coverage.js';
import { compactJson, formatDuration, notApiExchangeLine, notApiTrafficHeadline, plural, replayLine, reproducerLines, statementHeadline, statementLines, statementOf, truncate } from './format.js';
import type { ConformanceStatement } from '../engine/conformance.js';
import { buildMatrix, type Matrix } from './matrix.js';
import { summarize, type HarnessProblem, type NotApiTraffic, type RunResults } from '../engine/results.js';
import type { ResultsReporter } from './file-reporter.js';
import type { ReportInfo, RunInfo } from './run-info.js';

/** The symbol of each cell status in the matrix; a cell that did not run is blank. */
export const STATUS_SYMBOLS: Readonly<Record<CellStatus, string>> = { passed: '✓', failed: '✗', skipped: '–', not_applicable: '·', errored: '!' };

/** How {@link renderConsoleReport} lays out its text. */
export interface ConsoleRenderOptions {
  /** ANSI colours (picocolors); off by default so that the text can be asserted. */
  color?: boolean;
  /** Line width everything must fit, in columns (the terminal's `columns`); default 100, at least 40. */
  width?: number;
  /** The run's spec coverage; without it the report has no coverage block. */
  coverage?: Coverage;
  /** List every not-applicable and skipped cell under its reason, not only the counts. */
  verbose?: boolean;
  /** Paths of the report files the run writes (`conformance-report/report.json`), listed before the summary line. */
  reportFiles?: readonly string[];
}

/** Options of {@link ConsoleReporter}: the run's info, the document for coverage, and where and how to write. */
export interface ConsoleReporterOptions extends RunInfo {
  /** Where to write; default `process.stdout`. */
  out?: NodeJS.WritableStream;
  /** Force colours on or off; default on only when `out` is a TTY that supports them. */
  color?: boolean;
  /** Line width; default `out.columns` on a TTY, else the `COLUMNS` variable, else 100. */
  width?: number;
  /** See {@link ConsoleRenderOptions.verbose}. */
  verbose?: boolean;
  /** See {@link ConsoleRenderOptions.reportFiles}. */
  reportFiles?: readonly string[];
  /**
   * `full` (default): progress and the whole report. `summary`: only the harness errors, the
   * report files and the summary line, for runs whose reporters are files only (`--reporter json`).
   */
  mode?: 'full' | 'summary';
  /** Force the live progress line on or off; default on only when `out` is a TTY. */
  live?: boolean;
}

type Colors = ReturnType<typeof pc.createColors>;

const DEFAULT_TITLE = 'Conformance run';
const DEFAULT_WIDTH = 100;
const MIN_WIDTH = 40;
// Operation labels never take more than this share of the width, nor less than this many columns.
const LABEL_SHARE = 0.45;
const MIN_LABEL_WIDTH = 12;
const MAX_LABEL_WIDTH = 40;
// In the compact matrix a space follows every fifth check column, so columns can be counted.
const GROUP = 5;
const JSON_PREVIEW_CHARS = 160;
// A harness error seen in many places (every test of a suite whose hook threw) names a few of them.
const MAX_ERROR_PLACES = 3;
// The coverage block stays short: the HTML and JSON reports list every operation.
const MAX_IDLE_OPERATIONS = 8;
// Without --verbose, the reasons of not-applicable and skipped cells are counted, the commonest first, up to this many.
const MAX_REASONS = 8;
// Exchanges set aside as not API traffic listed without --verbose (the results keep the first 20; JSON and HTML list them all).
const MAX_NOT_API_LINES = 5;
// The live progress line is redrawn at most this often.
const PROGRESS_INTERVAL_MS = 100;

/**
 * Renders the whole end-of-run report as text, failures last: header (title, target, spec
 * version, seed); the matrix (see below); scenarios (checks recorded on one operation only) as
 * one line of counts naming the ones not passed; not-applicable cells and skipped cells as counts
 * per reason, the commonest first (skipped ones by what is missing: role, fixture, adapter,
 * option, with the fix), every cell listed with `verbose`; baseline-accepted failures; the
 * observed exchanges that were not API traffic (counted by reason, the first five listed, twenty
 * with `verbose`); harness errors; coverage (when `options.coverage`); transition coverage (when stateful scenarios ran);
 * the failures, de-duplicated by (checkId, operationId, kind) and then by same check, kind and
 * message over several operations, a schema error repeated over array items shown once with the
 * count; the report files; and the last line
 * `conformance: 18 passed, 2 failed, 1 skipped, 30 not applicable in 3.2s (seed 42)`.
 *
 * The matrix has operations as rows and numbered check columns with a legend: three columns a
 * check when that fits `width`, else one column a check with a space every fifth and the numbers
 * written downwards in two header lines, in blocks when even that is too wide; operation ids
 * longer than the label column are cut in the middle (`customer_portal:o…:generate_invoice`).
 * Every line fits `width` (the legend's check ids are cut with `…` only when two legend columns
 * would not fit otherwise). Ends with a newline; no colours unless `options.color`.
 */
export function renderConsoleReport(results: RunResults, info: ReportInfo, options: ConsoleRenderOptions = {}): string {
  const c = pc.createColors(options.color ?? false);
  const width = Math.max(MIN_WIDTH, Math.floor(options.width ?? DEFAULT_WIDTH));
  const { matrixCells, scenarioCells } = splitScenarios(results.cells);
  const sections = [
    renderHeader(info, c),
    renderStatement(statementOf(results), width, c),
    renderMatrix(buildMatrix(matrixCells), width, c, results.cells.length === 0),
    renderScenarios(scenarioCells, width, c),
    renderNotApplicable(results.cells, width, options.verbose ?? false, c),
    renderSkipped(results.cells, width, options.verbose ?? false, c),
    renderAccepted(results.cells, c),
    results.notApiTraffic ? renderNotApiTraffic(results.notApiTraffic, width, options.verbose ?? false, c) : '',
    renderErrors(withErroredCells(results), c),
    options.coverage ? renderCoverage(options.coverage, width, c) : '',
    renderTransitionCoverage(results.cells, (mark, exercised) => (exercised ? c.green(mark) : c.dim(mark)), width),
    renderFailures(results.cells, width, c),
    renderReportFiles(options.reportFiles ?? []),
    renderSummaryLine(results, info, options.coverage, c, width),
  ];
  return `${sections.filter((section) => section !== '').join('\n\n')}\n`;
}

/**
 * The short end of a run whose reporters write files only: harness errors, the report files and
 * the summary line (with the seed). Ends with a newline.
 */
export function renderConsoleSummary(results: RunResults, info: ReportInfo, options: Pick<ConsoleRenderOptions, 'color' | 'coverage' | 'reportFiles' | 'width'> = {}): string {
  const c = pc.createColors(options.color ?? false);
  const sections = [renderErrors(withErroredCells(results), c), renderReportFiles(options.reportFiles ?? []), renderSummaryLine(results, info, options.coverage, c, Math.max(MIN_WIDTH, Math.floor(options.width ?? DEFAULT_WIDTH)))];
  return `${sections.filter((section) => section !== '').join('\n\n')}\n`;
}

/**
 * Writes progress while the run goes (a live line on a TTY, a line per suite file elsewhere) and
 * {@link renderConsoleReport} at the end (or {@link renderConsoleSummary} in `summary` mode).
 * It never sets the exit code: the CLI does that with `exitCodeFor`.
 */
export class ConsoleReporter implements Reporter, ResultsReporter {
  readonly #options: ConsoleReporterOptions;
  readonly #out: NodeJS.WritableStream;
  readonly #color: boolean;
  readonly #live: boolean;
  #total = 0;
  #done = 0;
  #lastOperation = '';
  #lastDrawn = 0;
  #drawn = false;
  #startMs = performance.now();

  constructor(options: ConsoleReporterOptions) {
    this.#options = options;
    this.#out = options.out ?? process.stdout;
    this.#color = options.color ?? (isTty(this.#out) && pc.isColorSupported);
    this.#live = options.live ?? isTty(this.#out);
  }

  onTestRunStart(): void {
    this.#startMs = performance.now();
  }

  onTestModuleCollected(testModule: TestModule): void {
    for (const _ of testModule.children.allTests()) this.#total += 1;
  }

  onTestCaseResult(testCase: TestCase): void {
    this.#done += 1;
    this.#lastOperation = testCase.meta().conformance?.operationId ?? this.#lastOperation;
    if (this.#options.mode === 'summary' || !this.#live) return;
    const now = performance.now();
    if (now - this.#lastDrawn < PROGRESS_INTERVAL_MS && this.#done < this.#total) return;
    this.#lastDrawn = now;
    this.#drawProgress();
  }

  /** The progress line of one finished suite file (not on a TTY, where the live line shows progress), from the results the run collected of it. */
  moduleDone(moduleId: string, results: Pick<RunResults, 'cells' | 'errors'>): void {
    if (this.#options.mode === 'summary' || this.#live) return;
    const c = pc.createColors(this.#color);
    const summary = summarize(results);
    const counts = [c.green(`${summary.passed} ${STATUS_SYMBOLS.passed}`), c.red(`${summary.failed} ${STATUS_SYMBOLS.failed}`), c.dim(`${summary.skipped} ${STATUS_SYMBOLS.skipped}`)];
    if (summary.not_applicable > 0) counts.push(c.dim(`${summary.not_applicable} ${STATUS_SYMBOLS.not_applicable}`));
    if (summary.errored > 0) counts.push(c.magenta(`${summary.errored} ${STATUS_SYMBOLS.errored}`));
    if (summary.errors > 0) counts.push(c.magenta(plural(summary.errors, 'error')));
    this.#out.write(`${c.dim('·')} ${moduleId}  ${plural(results.cells.length, 'cell')}: ${counts.join(' ')}\n`);
  }

  /** Prints the end of the run: {@link renderConsoleReport}, or {@link renderConsoleSummary} in `summary` mode. */
  report(results: RunResults, info: ReportInfo): void {
    if (this.#drawn) this.#out.write('\r\u001b[2K');
    const { coverage } = results;
    const shared = { color: this.#color, reportFiles: this.#options.reportFiles ?? [], ...(coverage ? { coverage } : {}) };
    const width = this.#options.width ?? widthOf(this.#out);
    if (this.#options.mode === 'summary') {
      this.#out.write(renderConsoleSummary(results, info, { ...shared, width }));
      return;
    }
    this.#out.write(`\n${renderConsoleReport(results, info, { ...shared, width, verbose: this.#options.verbose ?? false })}`);
  }

  #drawProgress(): void {
    const c = pc.createColors(this.#color);
    const elapsed = formatDuration(performance.now() - this.#startMs);
    const total = this.#total > 0 ? `/${this.#total}` : '';
    const line = `${this.#done}${total} cells · ${elapsed} · ${this.#lastOperation}`;
    const width = widthOf(this.#out);
    this.#out.write(`\r\u001b[2K${c.dim('…')} ${truncate(line, width - 3)}`);
    this.#drawn = true;
  }
}

function isTty(out: NodeJS.WritableStream): boolean {
  return (out as { isTTY?: boolean }).isTTY === true;
}

// The terminal's width on a TTY, else $COLUMNS, else the default.
function widthOf(out: NodeJS.WritableStream): number {
  const columns = (out as { columns?: number }).columns;
  if (isTty(out) && typeof columns === 'number' && columns > 0) return columns;
  const fromEnv = Number(process.env['COLUMNS']);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_WIDTH;
}

function renderStatement(statement: ConformanceStatement, width: number, c: Colors): string {
  const headline = truncate(statementHeadline(statement), width);
  const lines = statementLines(statement).map((line) => truncate(line, width)).map((line) => (line.includes('not conformant') ? c.red(line) : line.includes('not shown') ? c.dim(line) : line));
  return [statement.conformant ? c.bold(headline) : c.bold(c.red(headline)), ...lines].join('\n');
}

function renderHeader(info: ReportInfo, c: Colors): string {
  const notes = (info.specNotes ?? []).map((note) => `  spec note     ${note}`);
  return [c.bold(info.title ?? DEFAULT_TITLE), `  target        ${info.target}`, `  spec version  ${info.specVersion}`, ...notes, `  seed          ${info.seed}`].join('\n');
}

function symbolOf(status: CellStatus | undefined, c: Colors): string {
  switch (status) {
    case 'passed':
      return c.green(STATUS_SYMBOLS.passed);
    case 'failed':
      return c.red(STATUS_SYMBOLS.failed);
    case 'errored':
      return c.magenta(STATUS_SYMBOLS.errored);
    case 'skipped':
      return c.yellow(STATUS_SYMBOLS.skipped);
    case 'not_applicable':
      return c.dim(STATUS_SYMBOLS.not_applicable);
    default:
      return ' ';
  }
}

// Checks recorded on one operation only (stateful scenarios, model families) would each add a
// column with one entry; they get a line of their own instead.
function splitScenarios(cells: readonly CellMeta[]): { matrixCells: CellMeta[]; scenarioCells: CellMeta[] } {
  const operationsOf = new Map<string, Set<string>>();
  for (const cell of cells) {
    const set = operationsOf.get(cell.checkId) ?? new Set<string>();
    set.add(cell.operationId);
    operationsOf.set(cell.checkId, set);
  }
  // A run of one operation keeps its matrix: there, every check is on one operation.
  const operations = new Set(cells.map((cell) => cell.operationId));
  if (operations.size <= 1) return { matrixCells: [...cells], scenarioCells: [] };
  const single = (cell: CellMeta) => operationsOf.get(cell.checkId)!.size === 1;
  return { matrixCells: cells.filter((cell) => !single(cell)), scenarioCells: cells.filter(single) };
}

/** `text` cut in the middle to `max` characters with `…`, keeping its start and its end. */
function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return '…'.slice(0, max);
  const tail = Math.floor((max - 1) / 2);
  return `${text.slice(0, max - 1 - tail)}…${text.slice(text.length - tail)}`;
}

function renderMatrix(matrix: Matrix, width: number, c: Colors, noCells: boolean): string {
  if (matrix.operations.length === 0) return noCells ? c.dim('No cells were recorded.') : '';
  const n = matrix.checks.length;
  const digits = String(n).length;
  const longest = Math.max('operation'.length, ...matrix.operations.map((op) => op.length));
  const labelCap = Math.max(MIN_LABEL_WIDTH, Math.min(MAX_LABEL_WIDTH, Math.floor(width * LABEL_SHARE)));
  const wideColumn = digits + 2;
  const wideLabel = Math.min(longest, MAX_LABEL_WIDTH);

  let blocks: string[];
  if (wideLabel + n * wideColumn <= width) {
    blocks = [wideBlock(matrix, 0, n, wideLabel, wideColumn, c)];
  } else {
    const compactWidth = (count: number) => count + Math.floor((count - 1) / GROUP);
    const labelWidth = Math.min(longest, Math.max(MIN_LABEL_WIDTH, Math.min(labelCap, width - 1 - compactWidth(n))));
    // Columns per block: whole groups of five that fit beside the labels.
    let perBlock = n;
    while (perBlock > GROUP && labelWidth + 1 + compactWidth(perBlock) > width) perBlock -= GROUP;
    if (labelWidth + 1 + compactWidth(perBlock) > width) perBlock = Math.max(1, width - labelWidth - 1);
    perBlock = Math.min(perBlock, n);
    blocks = [];
    for (let start = 0; start < n; start += perBlock) blocks.push(compactBlock(matrix, start, Math.min(n, start + perBlock), labelWidth, c));
  }
  const keys = `${STATUS_SYMBOLS.passed} passed  ${STATUS_SYMBOLS.failed} failed  ${STATUS_SYMBOLS.errored} errored  ${STATUS_SYMBOLS.skipped} skipped  ${STATUS_SYMBOLS.not_applicable} not applicable  (blank) not run`;
  return [...blocks, renderLegend(matrix.checks, width, digits), c.dim(truncate(keys, width))].join('\n\n');
}

function wideBlock(matrix: Matrix, start: number, end: number, labelWidth: number, columnWidth: number, c: Colors): string {
  let header = 'operation'.padEnd(labelWidth);
  for (let column = start; column < end; column++) header += String(column + 1).padStart(columnWidth);
  const lines = [c.bold(header.trimEnd())];
  matrix.operations.forEach((operationId, row) => {
    let line = cutMiddle(operationId, labelWidth).padEnd(labelWidth);
    // Padding is computed on the bare symbol, which is one column wide, then coloured.
    for (let column = start; column < end; column++) line += ' '.repeat(columnWidth - 1) + symbolOf(matrix.statuses[row]?.[column], c);
    lines.push(line.trimEnd());
  });
  return lines.join('\n');
}

// One column a check; the column numbers written downwards (tens, then ones) so they fit one column.
function compactBlock(matrix: Matrix, start: number, end: number, labelWidth: number, c: Colors): string {
  const cells = (render: (column: number) => string): string => {
    let text = '';
    for (let column = start; column < end; column++) {
      if (column > start && (column - start) % GROUP === 0) text += ' ';
      text += render(column);
    }
    return text;
  };
  const tens = cells((column) => (column + 1 >= 10 ? String(Math.floor((column + 1) / 10) % 10) : ' '));
  const ones = cells((column) => String((column + 1) % 10));
  const lines: string[] = [];
  if (tens.trim() !== '') lines.push(c.bold(`${' '.repeat(labelWidth)} ${tens}`.trimEnd()));
  lines.push(c.bold(`${'operation'.padEnd(labelWidth)} ${ones}`.trimEnd()));
  matrix.operations.forEach((operationId, row) => {
    const line = `${cutMiddle(operationId, labelWidth).padEnd(labelWidth)} ${cells((column) => symbolOf(matrix.statuses[row]?.[column], c))}`;
    lines.push(line.trimEnd());
  });
  return lines.join('\n');
}

// The legend maps column numbers to check ids, packed column-major into as many columns as fit;
// ids are cut with `…` only when that makes a second column fit.
function renderLegend(checks: readonly string[], width: number, digits: number): string {
  const gap = 3;
  let entries = checks.map((checkId, index) => `${String(index + 1).padStart(digits)}  ${checkId}`);
  let entryWidth = Math.max(...entries.map((entry) => entry.length));
  if (checks.length > 1 && entryWidth * 2 + gap > width && width >= 60) {
    entryWidth = Math.floor((width - gap) / 2);
    entries = entries.map((entry) => truncate(entry, entryWidth));
  }
  const columns = Math.max(1, Math.floor((width + gap) / (entryWidth + gap)));
  const rows = Math.ceil(entries.length / columns);
  const lines: string[] = [];
  for (let row = 0; row < rows; row++) {
    let line = '';
    for (let column = 0; column < columns; column++) {
      const entry = entries[column * rows + row];
      if (entry !== undefined) line += entry.padEnd(entryWidth + gap);
    }
    lines.push(line.trimEnd());
  }
  return lines.join('\n');
}

function renderScenarios(cells: readonly CellMeta[], width: number, c: Colors): string {
  if (cells.length === 0) return '';
  const byStatus = new Map<CellStatus, CellMeta[]>();
  for (const cell of cells) byStatus.set(cell.status, [...(byStatus.get(cell.status) ?? []), cell]);
  const order: CellStatus[] = ['passed', 'failed', 'errored', 'skipped', 'not_applicable'];
  const counts = order.filter((status) => byStatus.has(status)).map((status) => `${byStatus.get(status)!.length} ${symbolOf(status, c)}`);
  const lines = [`${c.bold(`Scenarios on one operation each (${plural(cells.length, 'cell')})`)}: ${counts.join('  ')}`];
  for (const status of order) {
    if (status === 'passed') continue;
    const named = (byStatus.get(status) ?? []).map((cell) => `${cell.checkId} (${cell.operationId})`);
    if (named.length > 0) lines.push(wrapList(`  ${STATUS_SYMBOLS[status]} `, named, width));
  }
  return lines.join('\n');
}

/** Count of cells per reason, the commonest first, ties in first-seen order; `cells` are listed per operation. */
function byReason(cells: readonly CellMeta[]): { reason: string; cells: CellMeta[] }[] {
  const groups = new Map<string, CellMeta[]>();
  for (const cell of cells) {
    const reason = cell.skipReason ?? 'no reason given';
    groups.set(reason, [...(groups.get(reason) ?? []), cell]);
  }
  return [...groups.entries()].map(([reason, list]) => ({ reason, cells: list })).sort((a, b) => b.cells.length - a.cells.length);
}

// reason -> "operationId: check, check" lines, each wrapped to the width.
function listCells(cells: readonly CellMeta[], width: number): string[] {
  const byOperation = new Map<string, string[]>();
  for (const cell of cells) {
    const checks = byOperation.get(cell.operationId) ?? [];
    if (!checks.includes(cell.checkId)) checks.push(cell.checkId);
    byOperation.set(cell.operationId, checks);
  }
  return [...byOperation].map(([operationId, checks]) => wrapList(`      ${operationId}: `, checks, width));
}

function renderNotApplicable(cells: readonly CellMeta[], width: number, verbose: boolean, c: Colors): string {
  const notApplicable = cells.filter((cell) => cell.status === 'not_applicable');
  if (notApplicable.length === 0) return '';
  const groups = byReason(notApplicable);
  const lines = [c.bold(`Not applicable (${plural(notApplicable.length, 'cell')}: the check cannot apply to the operation)`)];
  const shown = verbose ? groups : groups.slice(0, MAX_REASONS);
  const countWidth = String(groups[0]!.cells.length).length;
  for (const group of shown) {
    lines.push(truncate(`  ${String(group.cells.length).padStart(countWidth)}  ${group.reason}`, width));
    if (verbose) lines.push(...listCells(group.cells, width));
  }
  if (shown.length < groups.length) lines.push(c.dim(`  and ${plural(groups.length - shown.length, 'more reason')} (--verbose lists them all)`));
  return lines.join('\n');
}

const SKIP_KIND_ORDER: readonly (SkipKind | 'unknown')[] = ['role', 'fixture', 'adapter', 'option', 'unknown'];

function renderSkipped(cells: readonly CellMeta[], width: number, verbose: boolean, c: Colors): string {
  const skipped = cells.filter((cell) => cell.status === 'skipped');
  if (skipped.length === 0) return '';
  const kinds = SKIP_KIND_ORDER.map((kind) => ({ kind, count: skipped.filter((cell) => (cell.skipKind ?? 'unknown') === kind).length })).filter(({ count }) => count > 0);
  const missing = kinds.map(({ kind, count }) => `${count} ${kind === 'unknown' ? 'other' : kind}`).join(', ');
  const lines = [c.bold(c.yellow(`Skipped (${plural(skipped.length, 'cell')} that could run; missing: ${missing})`))];
  const groups = byReason(skipped);
  const shown = verbose ? groups : groups.slice(0, MAX_REASONS);
  const countWidth = String(groups[0]!.cells.length).length;
  for (const group of shown) {
    const first = group.cells[0]!;
    const kind = first.skipKind ? `[${first.skipKind}] ` : '';
    lines.push(truncate(`  ${String(group.cells.length).padStart(countWidth)}  ${kind}${group.reason}`, width));
    const fixes = [...new Set(group.cells.map((cell) => cell.fix).filter((fix): fix is string => Boolean(fix)))];
    for (const fix of fixes) lines.push(c.dim(`  ${' '.repeat(countWidth)}  fix: ${fix}`));
    if (verbose) lines.push(...listCells(group.cells, width));
  }
  if (shown.length < groups.length) lines.push(c.dim(`  and ${plural(groups.length - shown.length, 'more reason')} (--verbose lists them all)`));
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

/**
 * Each line of `text` broken at spaces so that it fits `width`, continuation lines indented by
 * `hang` spaces; a word longer than the line stays whole. Lines keep their own leading spaces.
 */
function wrapWords(text: string, width: number, hang: number): string {
  return text
    .split('\n')
    .map((line) => {
      if (line.length <= width) return line;
      const lead = /^ */.exec(line)![0];
      const out: string[] = [];
      let current = lead;
      for (const word of line.slice(lead.length).split(' ')) {
        const start = current.trim() === '';
        if (!start && current.length + 1 + word.length > width) {
          out.push(current);
          current = ' '.repeat(hang) + word;
        } else current += start ? word : ` ${word}`;
      }
      out.push(current);
      return out.join('\n');
    })
    .join('\n');
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line) => (line === '' ? line : pad + line))
    .join('\n');
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

/**
 * Observed traffic that was not the API's (a page's document, scripts, styles, images, calls to
 * other origins): counted by reason and listed, so that nothing is set aside silently; none with none.
 */
function renderNotApiTraffic(traffic: NotApiTraffic, width: number, verbose: boolean, c: Colors): string {
  if (traffic.count === 0) return '';
  const shown = verbose ? traffic.listed : traffic.listed.slice(0, MAX_NOT_API_LINES);
  const lines = [c.bold(wrapWords(`Not API traffic (${notApiTrafficHeadline(traffic)})`, width, 2)), c.dim(wrapWords('  A page\'s own requests and calls to other origins are not requests of the API: never judged, never failed.', width, 2))];
  for (const exchange of shown) lines.push(wrapWords(`  ${notApiExchangeLine(exchange)}`, width, 4));
  const more = traffic.count - shown.length;
  if (more > 0) lines.push(c.dim(`  … and ${more} more${traffic.listed.length > shown.length ? ' (the first 20 with --verbose, in report.json and in report.html)' : ''}`));
  return lines.join('\n');
}

// Errored cells are harness problems inside one cell: listed with the others, by the cell's name.
function withErroredCells(results: RunResults): HarnessProblem[] {
  const errored = results.cells
    .filter((cell) => cell.status === 'errored')
    .map((cell): HarnessProblem => ({ where: `${cell.checkId} on ${cell.operationId}`, message: cell.error?.message ?? 'the cell errored without saying why', ...(cell.error ? { code: cell.error.code } : {}) }));
  return [...results.errors, ...errored];
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
  const lines = [c.bold(c.magenta(`Errors (${errors.length})`)), c.dim('  Problems of the harness or of reaching the target, not failures of the API; the run is inconclusive.')];
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

/** Failures that are one problem: same check and kind, same message, on one or more operations. */
interface ShownFailure {
  first: Failure;
  /** Occurrences over all the operations. */
  count: number;
  /** Operations after the first's where the same failure occurred. */
  alsoOn: string[];
}

// Two levels: (check, operation, kind) as the JSON and HTML reports group; then the groups whose
// check, kind, title and message are the same on other operations join the first one's.
function shownFailures(cells: readonly CellMeta[]): ShownFailure[] {
  const shown = new Map<string, ShownFailure>();
  const seen = new Set<string>();
  for (const cell of cells) {
    for (const failure of cell.failures) {
      const key = `${failure.checkId}|${failure.kind}|${failure.title}|${failure.message}`;
      const entry = shown.get(key);
      const perOperation = `${key}|${failure.operationId}`;
      if (!entry) shown.set(key, { first: failure, count: 1, alsoOn: [] });
      else {
        entry.count += 1;
        if (!seen.has(perOperation) && failure.operationId !== entry.first.operationId) entry.alsoOn.push(failure.operationId);
      }
      seen.add(perOperation);
    }
  }
  return [...shown.values()];
}

/** A schema error as the response-schema check reports it in `actual` (ajv's instance path and message). */
interface SchemaError {
  path: string;
  message: string;
}

function schemaErrors(actual: unknown): SchemaError[] | undefined {
  if (!Array.isArray(actual) || actual.length === 0) return undefined;
  const ok = actual.every((e) => typeof e === 'object' && e !== null && typeof (e as SchemaError).path === 'string' && typeof (e as SchemaError).message === 'string');
  return ok ? (actual as SchemaError[]) : undefined;
}

/**
 * Schema errors folded over array items: `/items/0/x` … `/items/9/x` with one message become one
 * line `/items/*​/x must … (10 items: /items/0/x … /items/9/x)`, in first-seen order.
 */
function foldSchemaErrors(errors: readonly SchemaError[]): string[] {
  const folded = new Map<string, string[]>();
  for (const error of errors) {
    const key = `${error.path.replace(/\/\d+(?=\/|$)/g, '/*')}\u0000${error.message}`;
    folded.set(key, [...(folded.get(key) ?? []), error.path]);
  }
  return [...folded].map(([key, paths]) => {
    const [pattern = '', message = ''] = key.split('\u0000');
    const where = pattern === '' ? '(body)' : pattern;
    if (paths.length === 1) return `${paths[0] || '(body)'} ${message}`;
    return `${where} ${message} (${paths.length} items: ${paths[0]} … ${paths.at(-1)})`;
  });
}

function renderFailure({ first, count, alsoOn }: ShownFailure, width: number, c: Colors): string {
  const lines: string[] = [];
  const times = count > 1 ? ` (${count} occurrences)` : '';
  lines.push(c.red(wrapWords(`${STATUS_SYMBOLS.failed} ${first.checkId} on ${first.operationId} — ${first.title}${times}`, width, 2)));
  if (alsoOn.length > 0) lines.push(wrapList('  also on: ', alsoOn, width));
  lines.push(c.dim(wrapWords(`  ${first.severity} · ${first.kind} · rule ${first.rule} · case ${first.caseId}`, width, 4)));
  const errors = schemaErrors(first.actual);
  if (errors) {
    // The check's message lists every error; the folded list says the same once per kind of error.
    const colon = first.message.indexOf(': ');
    const lead = colon > 0 && first.message.slice(colon + 2).startsWith(errors[0]!.path) ? first.message.slice(0, colon + 1) : first.message;
    lines.push(wrapWords(indent(lead, 2), width, 2));
    for (const line of foldSchemaErrors(errors)) lines.push(wrapWords(`    ${line}`, width, 6));
    if (first.expected !== undefined) lines.push(`  expected: ${compactJson(first.expected, JSON_PREVIEW_CHARS)}`);
  } else {
    lines.push(wrapWords(indent(first.message, 2), width, 2));
    if (first.expected !== undefined) lines.push(`  expected: ${compactJson(first.expected, JSON_PREVIEW_CHARS)}`);
    if (first.actual !== undefined) lines.push(`  actual:   ${compactJson(first.actual, JSON_PREVIEW_CHARS)}`);
  }
  lines.push(`  ${c.bold('Reproduce with:')}`, '', ...reproducerLines(first.reproduce).map((line) => indent(line, 4)), '');
  lines.push(`  ${replayLine(first.reproduce)}`);
  return lines.join('\n');
}

function renderFailures(cells: readonly CellMeta[], width: number, c: Colors): string {
  const shown = shownFailures(cells);
  const bare = cells.filter((cell) => cell.status === 'failed' && cell.failures.length === 0);
  if (shown.length === 0 && bare.length === 0) return '';
  const occurrences = shown.reduce((sum, group) => sum + group.count, 0) + bare.length;
  const distinct = shown.length + bare.length;
  const parts = [c.bold(c.red(`Failures (${distinct} distinct, ${plural(occurrences, 'occurrence')})`))];
  for (const group of shown) parts.push(renderFailure(group, width, c));
  for (const cell of bare) {
    parts.push([c.red(`${STATUS_SYMBOLS.failed} ${cell.checkId} on ${cell.operationId} — failed without recorded failures`), '  The suite marked this cell failed but recorded no failure to show or reproduce.'].join('\n'));
  }
  return parts.join('\n\n');
}

// Paths under the working directory are shown relative to it, the way a user would type them.
function renderReportFiles(files: readonly string[]): string {
  if (files.length === 0) return '';
  const shown = files.map((file) => {
    const rel = relative(process.cwd(), file);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
  });
  return ['Reports:', ...shown.map((file) => `  ${file}`)].join('\n');
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

function renderSummaryLine(results: RunResults, info: ReportInfo, coverage: Coverage | undefined, c: Colors, width: number): string {
  const summary = summarize(results);
  const counts = [c.green(`${summary.passed} passed`), summary.failed > 0 ? c.red(`${summary.failed} failed`) : `${summary.failed} failed`];
  if (summary.errored > 0) counts.push(c.magenta(`${summary.errored} errored`));
  counts.push(summary.skipped > 0 ? c.yellow(`${summary.skipped} skipped`) : `${summary.skipped} skipped`);
  if (summary.not_applicable > 0) counts.push(`${summary.not_applicable} not applicable`);
  if (summary.errors > 0) counts.push(c.magenta(plural(summary.errors, 'error')));
  if (coverage && coverage.belowMinimum.length > 0) counts.push(c.red(`coverage below ${coverage.minPercent}%`));
  // Pieces that stay whole; a line too long for the width goes on under a two-space indent,
  // measured without colours, the duration and seed kept together.
  const pieces = [c.bold('conformance:'), ...counts.map((count, index) => (index < counts.length - 1 ? `${count},` : count)), `in ${formatDuration(info.durationMs)} (seed ${info.seed})`];
  const lines: string[] = [];
  let line = '';
  for (const piece of pieces) {
    if (line !== '' && stripAnsi(line).length + 1 + stripAnsi(piece).length > width) {
      lines.push(line);
      line = `  ${piece}`;
    } else line = line === '' ? piece : `${line} ${piece}`;
  }
  lines.push(line);
  return lines.join('\n');
}
