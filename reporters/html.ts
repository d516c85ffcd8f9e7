/**
 * The HTML reporter: the whole run as one self-contained page for people (QA, a CI artifact to
 * open in a browser). A compact header with the verdict, the counts and a filter (by status,
 * check and operation); then what needs action first: the failures grouped by operation with
 * their reproducers, and the harness errors; then the operation x check matrix (sticky row and
 * column headers inside its own scroll box), spec coverage, transition coverage (when stateful
 * scenarios ran), accepted deviations, and the skipped and not-applicable cells, each collapsed.
 *
 * Self-contained: inline CSS and one small inline script (the copy buttons), no URL of any kind
 * (no CDN, no web fonts, no images to fetch), and a Content-Security-Policy that forbids loading
 * anything and runs only that script, by its hash. Every string is escaped: failures carry text
 * the target chose (`html` below escapes each interpolated value unless it is markup built here).
 * @see https://html.spec.whatwg.org/multipage/tables.html#attr-th-scope (row and column headers)
 * @see https://www.w3.org/TR/CSP3/#grammardef-hash-source (the script's hash)
 */
import { createHash } from 'node:crypto';
import pkg from '../package.json' with { type: 'json' };
import { transitionCoverage, type MachineCoverage, type TransitionCoverage } from '../engine/stateful/transitions.js';
import type { CellMeta, CellStatus, Failure, HttpRequest, HttpResponse, SkipKind } from '../core/types.js';
import { COVERAGE_MEASURES, describeShortfall, formatPercent, type Coverage, type CoverageMeasure, type OperationCoverage } from './coverage.js';
import { formatDuration, groupFailures, plural, reproducerLines, truncate } from './format.js';
import { redactHeaders } from './json.js';
import { buildMatrix, type Matrix } from './matrix.js';
import { exitCodeFor, summarize, type HarnessProblem, type RunResults } from './results.js';
import { type ReportInfo } from './run-info.js';
import { FileReporter, type FileReporterOptions } from './file-reporter.js';

/** Options of {@link HtmlReporter}: the run's info, the document for coverage, and the file to write. */
export interface HtmlReporterOptions extends FileReporterOptions {
  /** Path of the HTML file; missing directories are created. */
  outputFile: string;
}

/** The verdict a report shows, from `exitCodeFor`: 0 conformant, 1 not conformant, 2 inconclusive. */
export type Verdict = 'Conformant' | 'Not conformant' | 'Inconclusive';

/** The symbol of each cell status in the HTML matrix, shown beside its name for people who cannot tell the colours apart. */
export const HTML_STATUS_SYMBOLS: Readonly<Record<CellStatus, string>> = { passed: '✓', failed: '✗', skipped: '–', not_applicable: '·', errored: '!' };

const DEFAULT_TITLE = 'Conformance report';
// Expected and actual values, and bodies, are shown whole up to these sizes (report.json keeps more).
const VALUE_CHARS = 4000;
const BODY_CHARS = 16 * 1024;
const MAX_ERROR_PLACES = 5;

/**
 * Renders the report as one HTML document (UTF-8, `<!doctype html>`, `lang="en"`), ending with a
 * newline. Pure: the same results, info and coverage give the same text.
 * @param results the run's cells and harness errors
 * @param info the run's target, spec version, seed, start (ISO 8601, UTC) and duration (ms)
 * @param coverage the run's spec coverage; without it the coverage section says it was not measured
 * The "Transition coverage" section (each state machine's edges, exercised or not, and the count)
 * follows the spec coverage when a cell records transitions, and is left out otherwise.
 */
export function renderHtml(results: RunResults, info: ReportInfo, coverage?: Coverage): string {
  const matrix = buildMatrix(results.cells);
  const failures = planFailures(results.cells, matrix);
  const skips = planSkips(results.cells, 'skipped', 'skip');
  const notApplicable = planSkips(results.cells, 'not_applicable', 'na');
  const verdict = verdictOf(results, coverage);
  const title = info.title ?? DEFAULT_TITLE;
  const transitions = transitionCoverage(results.cells);
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="referrer" content="no-referrer">
<title>${verdict.label} — ${title} — ${info.target}</title>
<style>${raw(STYLE)}</style>
</head>
<body>
${renderHeader(results, info, verdict, title, transitions !== undefined, matrix)}
<main id="main">
${renderFailures(failures)}
${renderErrors(withErroredCells(results))}
${renderMatrix(results.cells, matrix, failures, skips, notApplicable)}
${renderCoverage(coverage)}
${transitions ? renderTransitions(transitions) : ''}
${renderAccepted(results.cells)}
${renderSkipped(skips)}
${renderNotApplicable(notApplicable)}
</main>
<footer><p>Written by ${pkg.name} ${pkg.version}. This file is self-contained: it loads nothing from the network.</p></footer>
<script>${raw(SCRIPT)}</script>
</body>
</html>
`;
  return page.text;
}

/** Writes {@link renderHtml} to `outputFile` at the end of the run, with coverage when `spec` is given. */
export class HtmlReporter extends FileReporter {
  constructor(options: HtmlReporterOptions) {
    super(options, renderHtml);
  }
}

/**
 * `text` safe to put in HTML text or a quoted attribute: `& < > " '` as character references,
 * control characters other than tab, newline and carriage return as U+FFFD.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, (char) => ESCAPES[char] ?? '\uFFFD');
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// ---------------------------------------------------------------------------------------------
// Escaping by construction: `html` escapes every value it interpolates unless it is an `Html`
// built by `html` or `raw` here, so text from the target can only ever become text.

class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

type Fragment = Html | string | number | boolean | null | undefined | readonly Fragment[];

function html(strings: TemplateStringsArray, ...values: Fragment[]): Html {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += fragment(value) + (strings[index + 1] ?? '');
  });
  return new Html(text);
}

function fragment(value: Fragment): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(fragment).join('');
  if (value === null || value === undefined || value === false || value === true) return '';
  return escapeHtml(String(value));
}

// Only for the constant stylesheet and script of this file, never for data.
function raw(text: string): Html {
  return new Html(text);
}

// ---------------------------------------------------------------------------------------------
// Header and verdict

interface VerdictView {
  label: Verdict;
  tone: 'pass' | 'fail' | 'error';
  symbol: string;
  reasons: Html[];
}

function verdictOf(results: RunResults, coverage: Coverage | undefined): VerdictView {
  const summary = summarize(results);
  const code = exitCodeFor(results, coverage);
  const reasons: Html[] = [];
  if (summary.errors > 0) {
    reasons.push(html`<a href="#errors">${plural(summary.errors, 'harness error')}</a>: the harness could not check everything, so the run shows neither conformance nor its absence`);
  }
  if (summary.failed > 0) {
    reasons.push(html`<a href="#failures">${plural(summary.failed, 'failed cell')}</a> (${plural(summary.failures, 'failure')})`);
  }
  const shortfall = coverage ? describeShortfall(coverage) : '';
  if (shortfall) reasons.push(html`<a href="#coverage">${shortfall}</a>`);
  if (code === 0) {
    reasons.push(html`every check that ran passed (${plural(summary.passed, 'cell')}, ${plural(summary.cases, 'case')})`);
    if (summary.skipped > 0) reasons.push(html`<a href="#skipped">${plural(summary.skipped, 'cell')} skipped</a>: not checked`);
  }
  if (code === 2) return { label: 'Inconclusive', tone: 'error', symbol: '!', reasons };
  if (code === 1) return { label: 'Not conformant', tone: 'fail', symbol: '✗', reasons };
  return { label: 'Conformant', tone: 'pass', symbol: '✓', reasons };
}

function renderHeader(results: RunResults, info: ReportInfo, verdict: VerdictView, title: string, hasTransitions: boolean, matrix: Matrix): Html {
  const summary = summarize(results);
  const started = info.startedAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
  const counts: [string, number, string, string][] = [
    ['passed', summary.passed, HTML_STATUS_SYMBOLS.passed, 'passed'],
    ['failed', summary.failed, HTML_STATUS_SYMBOLS.failed, 'failed'],
    ['errored', summary.errored, HTML_STATUS_SYMBOLS.errored, 'errored'],
    ['skipped', summary.skipped, HTML_STATUS_SYMBOLS.skipped, 'skipped'],
    ['not-applicable', summary.not_applicable, HTML_STATUS_SYMBOLS.not_applicable, 'not applicable'],
    ['errors', summary.errors, '!', summary.errors === 1 ? 'harness error' : 'harness errors'],
  ];
  const missing = (['role', 'fixture', 'adapter', 'option', 'unknown'] as const).filter((kind) => summary.skippedBy[kind] > 0).map((kind) => `${summary.skippedBy[kind]} ${kind === 'unknown' ? 'other' : kind}`);
  return html`<header class="top">
<h1>${title}</h1>
<p id="verdict" class="verdict verdict-${verdict.tone}"><span class="verdict-symbol" aria-hidden="true">${verdict.symbol}</span> <span class="verdict-label">${verdict.label}</span></p>
<ul class="reasons">${verdict.reasons.map((reason) => html`<li>${reason}</li>`)}</ul>
<dl class="facts">
<div><dt>Target</dt><dd><code>${info.target}</code></dd></div>
<div><dt>Spec version</dt><dd>${info.specVersion}</dd></div>
${(info.specNotes ?? []).length > 0 ? html`<div><dt>Spec notes</dt><dd>${(info.specNotes ?? []).map((note) => html`<span class="note">${note}</span> `)}</dd></div>` : ''}
<div><dt>Seed</dt><dd><code>${info.seed}</code></dd></div>
<div><dt>Started</dt><dd><time datetime="${info.startedAt}">${started}</time></dd></div>
<div><dt>Duration</dt><dd>${formatDuration(info.durationMs)}</dd></div>
</dl>
<ul class="counts" aria-label="Cells by outcome">${counts.map(
    ([name, count, symbol, label]) => html`<li class="count count-${name}${count > 0 ? '' : ' count-zero'}"><span class="count-number">${count}</span> <span aria-hidden="true">${symbol}</span> ${label}</li>`,
  )}</ul>
${missing.length > 0 ? html`<p class="missing">Skipped cells could run with what the run lacks: ${missing.join(', ')} (<a href="#skipped">the fixes</a>).</p>` : ''}
<div class="tools">
<nav aria-label="Sections"><a href="#failures">Failures</a> <a href="#errors">Errors</a> <a href="#matrix">Matrix</a> <a href="#coverage">Coverage</a> ${hasTransitions ? html`<a href="#transitions">Transitions</a> ` : ''}<a href="#skipped">Skipped</a> <a href="#not-applicable">Not applicable</a></nav>
<div id="filter" class="filter" aria-label="Filter the failures and the matrix" role="search">
<label>Status <select id="filter-status"><option value="">any</option>${(['failed', 'errored', 'passed', 'skipped', 'not_applicable'] as const).map((status) => html`<option value="${status}">${status.replace('_', ' ')}</option>`)}</select></label>
<label>Check <select id="filter-check"><option value="">any</option>${matrix.checks.map((checkId) => html`<option value="${checkId}">${checkId}</option>`)}</select></label>
<label>Operation <input id="filter-operation" type="search" placeholder="part of an operationId" autocomplete="off"></label>
<span id="filter-count" class="muted" role="status" aria-live="polite"></span>
</div>
</div>
</header>`;
}

// ---------------------------------------------------------------------------------------------
// Matrix

interface FailureEntry {
  id: string;
  checkId: string;
  operationId: string;
  /** The first failure of a de-duplication group and how often it occurred; absent for a failed cell without failures. */
  first?: Failure;
  count: number;
}

interface FailurePlan {
  /** Operation id to its entries, operations in matrix row order, entries in check column order. */
  byOperation: Map<string, FailureEntry[]>;
  /** `operationId\0checkId` to the id of the first entry of that pair, the target of the matrix link. */
  anchorOf: Map<string, string>;
}

function pairKey(operationId: string, checkId: string): string {
  return `${operationId}\u0000${checkId}`;
}

function planFailures(cells: readonly CellMeta[], matrix: Matrix): FailurePlan {
  const byOperation = new Map<string, FailureEntry[]>();
  const anchorOf = new Map<string, string>();
  let next = 1;
  for (const operationId of matrix.operations) {
    const failed = cells.filter((cell) => cell.operationId === operationId && cell.status === 'failed');
    if (failed.length === 0) continue;
    const entries: FailureEntry[] = groupFailures(failed).map(({ first, count }) => ({ id: '', checkId: first.checkId, operationId, first, count }));
    for (const cell of failed.filter((candidate) => candidate.failures.length === 0)) {
      if (!entries.some((entry) => !entry.first && entry.checkId === cell.checkId)) entries.push({ id: '', checkId: cell.checkId, operationId, count: 1 });
    }
    // Entries of one check stay together, checks in matrix column order.
    entries.sort((a, b) => matrix.checks.indexOf(a.checkId) - matrix.checks.indexOf(b.checkId));
    for (const entry of entries) {
      entry.id = `failure-${next++}`;
      const key = pairKey(operationId, entry.checkId);
      if (!anchorOf.has(key)) anchorOf.set(key, entry.id);
    }
    byOperation.set(operationId, entries);
  }
  return { byOperation, anchorOf };
}

interface SkipPlan {
  /**
   * Reason to its anchor id, what is missing and how to provide it (skipped cells), and the
   * operations with their check ids; the commonest reason first, ties in first-seen order.
   */
  reasons: { id: string; reason: string; count: number; kind?: SkipKind; fixes: string[]; byOperation: Map<string, string[]> }[];
  /** `operationId\0checkId` to the anchor of the pair's first skip reason. */
  anchorOf: Map<string, string>;
}

function planSkips(cells: readonly CellMeta[], status: 'skipped' | 'not_applicable', prefix: string): SkipPlan {
  const found: SkipPlan['reasons'] = [];
  for (const cell of cells) {
    if (cell.status !== status) continue;
    const reason = cell.skipReason ?? 'no reason given';
    let entry = found.find((candidate) => candidate.reason === reason);
    if (!entry) found.push((entry = { id: '', reason, count: 0, ...(cell.skipKind ? { kind: cell.skipKind } : {}), fixes: [], byOperation: new Map() }));
    entry.count += 1;
    if (cell.fix && !entry.fixes.includes(cell.fix)) entry.fixes.push(cell.fix);
    const checks = entry.byOperation.get(cell.operationId) ?? [];
    if (!checks.includes(cell.checkId)) checks.push(cell.checkId);
    entry.byOperation.set(cell.operationId, checks);
  }
  // Array.prototype.sort is stable: equal counts keep their first-seen order.
  const reasons = found.sort((a, b) => b.count - a.count).map((entry, index) => ({ ...entry, id: `${prefix}-${index + 1}` }));
  const anchorOf = new Map<string, string>();
  for (const entry of reasons) {
    for (const [operationId, checks] of entry.byOperation) {
      for (const checkId of checks) {
        const key = pairKey(operationId, checkId);
        if (!anchorOf.has(key)) anchorOf.set(key, entry.id);
      }
    }
  }
  return { reasons, anchorOf };
}

function renderMatrix(cells: readonly CellMeta[], matrix: Matrix, failures: FailurePlan, skips: SkipPlan, notApplicable: SkipPlan): Html {
  const heading = html`<h2 id="matrix-title">Operation × check matrix</h2>`;
  if (matrix.operations.length === 0) {
    return html`<section id="matrix" aria-labelledby="matrix-title">${heading}<p class="empty">No cells were recorded.</p></section>`;
  }
  const pairs = new Map<string, CellMeta[]>();
  for (const cell of cells) {
    const key = pairKey(cell.operationId, cell.checkId);
    pairs.set(key, [...(pairs.get(key) ?? []), cell]);
  }
  const legend = html`<ul class="legend" aria-label="Legend">
<li><span class="cell-sample passed" aria-hidden="true">${HTML_STATUS_SYMBOLS.passed}</span> passed</li>
<li><span class="cell-sample failed" aria-hidden="true">${HTML_STATUS_SYMBOLS.failed}</span> failed (links to the failure)</li>
<li><span class="cell-sample errored" aria-hidden="true">${HTML_STATUS_SYMBOLS.errored}</span> errored (links to the error)</li>
<li><span class="cell-sample skipped" aria-hidden="true">${HTML_STATUS_SYMBOLS.skipped}</span> skipped: could run, something is missing (links to the fix)</li>
<li><span class="cell-sample not_applicable" aria-hidden="true">${HTML_STATUS_SYMBOLS.not_applicable}</span> not applicable (links to the reason)</li>
<li><span class="cell-sample none" aria-hidden="true"></span> not run</li>
</ul>`;
  const rows = matrix.operations.map((operationId, row) => {
    const tds = matrix.checks.map((checkId, column) => {
      const status = matrix.statuses[row]?.[column];
      const key = pairKey(operationId, checkId);
      const own = pairs.get(key) ?? [];
      if (status === undefined) return html`<td class="cell none" data-check="${checkId}"><span class="vh">not run</span></td>`;
      const symbol = html`<span aria-hidden="true">${HTML_STATUS_SYMBOLS[status]}</span>`;
      if (status === 'failed') {
        const count = own.reduce((sum, cell) => sum + cell.failures.length, 0);
        const label = `${checkId} on ${operationId} failed${count > 0 ? ` (${plural(count, 'failure')})` : ''}: see the failure`;
        return html`<td class="cell failed" data-check="${checkId}" data-status="failed"><a href="#${failures.anchorOf.get(key) ?? 'failures'}" title="${label}">${symbol}<span class="vh">failed, see the failure</span></a></td>`;
      }
      if (status === 'errored') {
        const error = own.find((cell) => cell.status === 'errored')?.error;
        const label = `errored: ${error ? `${error.code}: ${error.message}` : 'no reason given'}`;
        return html`<td class="cell errored" data-check="${checkId}" data-status="errored"><a href="#errors" title="${label}">${symbol}<span class="vh">${label}</span></a></td>`;
      }
      if (status === 'skipped' || status === 'not_applicable') {
        const reason = own.find((cell) => cell.status === status)?.skipReason ?? 'no reason given';
        const plan = status === 'skipped' ? skips : notApplicable;
        const label = `${status === 'skipped' ? 'skipped' : 'not applicable'}: ${reason}`;
        const section = status === 'skipped' ? 'skipped' : 'not-applicable';
        return html`<td class="cell ${status}" data-check="${checkId}" data-status="${status}"><a href="#${plan.anchorOf.get(key) ?? section}" title="${label}">${symbol}<span class="vh">${label}</span></a></td>`;
      }
      const cases = own.reduce((sum, cell) => sum + cell.cases, 0);
      return html`<td class="cell passed" data-check="${checkId}" data-status="passed" title="${`passed (${plural(cases, 'case')})`}">${symbol}<span class="vh">passed</span></td>`;
    });
    return html`<tr data-operation="${operationId}"><th scope="row">${operationId}</th>${tds}</tr>`;
  });
  return html`<section id="matrix" aria-labelledby="matrix-title">
${heading}
<p>The outcome of each check (column) on each operation (row): ${plural(matrix.operations.length, 'operation')}, ${plural(matrix.checks.length, 'check')}.</p>
${legend}
<div class="scroll matrix-box">
<table class="matrix">
<caption class="vh">Outcome of each check on each operation</caption>
<thead><tr><th scope="col" class="corner">Operation</th>${matrix.checks.map((checkId) => html`<th scope="col" class="check"><span>${checkId}</span></th>`)}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
</div>
</section>`;
}

// ---------------------------------------------------------------------------------------------
// Coverage

const MEASURE_LABELS: Record<CoverageMeasure, string> = {
  operations: 'Operations exercised',
  statuses: 'Status codes observed',
  parameters: 'Parameters sent',
};

function renderCoverage(coverage: Coverage | undefined): Html {
  const heading = html`<h2 id="coverage-title">Coverage of the spec</h2>`;
  if (!coverage) {
    return html`<section id="coverage" aria-labelledby="coverage-title">${heading}<p class="empty">Coverage was not measured: the report was written without the OpenAPI document.</p></section>`;
  }
  const minimum = coverage.minPercent;
  const totals = COVERAGE_MEASURES.map((measure) => {
    const { covered, total, percent } = coverage.totals[measure];
    const below = coverage.belowMinimum.includes(measure);
    const verdict =
      minimum === undefined
        ? html`<td class="muted">no minimum</td>`
        : below
          ? html`<td class="bad"><span aria-hidden="true">✗ </span>below ${minimum}%</td>`
          : html`<td class="good"><span aria-hidden="true">✓ </span>meets ${minimum}%</td>`;
    return html`<tr class="total-${measure}"><th scope="row">${MEASURE_LABELS[measure]}</th><td class="num">${covered}/${total}</td><td class="num">${formatPercent(percent)}</td><td><meter min="0" max="100" value="${percent}"${minimum === undefined ? '' : html` low="${minimum}" optimum="100"`} aria-label="${`${MEASURE_LABELS[measure]}: ${formatPercent(percent)}`}">${formatPercent(percent)}</meter></td>${verdict}</tr>`;
  });
  const shortfall = describeShortfall(coverage);
  return html`<section id="coverage" aria-labelledby="coverage-title">
${heading}
<p>Measured against the whole document: an operation is exercised when a check ran on it with at least one case; a documented status code (or range, or <code>default</code>) is observed when a response matched it; a documented parameter is sent when a request carried it.${minimum === undefined ? '' : html` The run asked for at least ${minimum}% of each.`}</p>
${shortfall ? html`<p class="callout bad"><span aria-hidden="true">✗ </span>${shortfall[0]?.toUpperCase()}${shortfall.slice(1)}; the run exits with code 1.</p>` : ''}
<table class="totals">
<caption>Coverage totals</caption>
<thead><tr><th scope="col">Measure</th><th scope="col">Covered / documented</th><th scope="col">Percent</th><th scope="col">Bar</th><th scope="col">Minimum</th></tr></thead>
<tbody>
${totals}
</tbody>
</table>
<div class="scroll">
<table class="per-operation">
<caption>Coverage per operation</caption>
<thead><tr><th scope="col">Operation</th><th scope="col">Exercised</th><th scope="col">Status codes</th><th scope="col">Parameters</th></tr></thead>
<tbody>
${coverage.operations.map(renderOperationCoverage)}
</tbody>
</table>
</div>
</section>`;
}

function renderOperationCoverage(operation: OperationCoverage): Html {
  const { statuses, parameters } = operation;
  const statusChips = statuses.documented.map((key) => chip(key, statuses.observed.includes(key), 'observed'));
  const undocumented = statuses.undocumented.map((status) => html`<li class="chip odd"><span aria-hidden="true">? </span>${status}<span class="vh"> observed but not documented</span></li>`);
  const parameterChips = parameters.documented.map((parameter) => chip(parameter, parameters.sent.includes(parameter), 'sent'));
  return html`<tr>
<th scope="row"><code>${operation.operationId}</code><br><span class="muted">${operation.method} ${operation.path}</span></th>
<td class="${operation.exercised ? 'good' : 'bad'}"><span aria-hidden="true">${operation.exercised ? '✓ ' : '✗ '}</span>${operation.exercised ? 'yes' : 'no'}</td>
<td><span class="fraction">${statuses.observed.length}/${statuses.documented.length}</span> <ul class="chips">${statusChips}${undocumented}</ul></td>
<td>${parameters.documented.length === 0 ? html`<span class="muted">none documented</span>` : html`<span class="fraction">${parameters.sent.length}/${parameters.documented.length}</span> <ul class="chips">${parameterChips}</ul>`}</td>
</tr>`;
}

function chip(label: string, covered: boolean, verb: string): Html {
  return html`<li class="chip ${covered ? 'hit' : 'miss'}"><span aria-hidden="true">${covered ? '✓ ' : '✗ '}</span>${label}<span class="vh">${covered ? ` ${verb}` : ` not ${verb}`}</span></li>`;
}

// ---------------------------------------------------------------------------------------------
// Transition coverage

function renderTransitions(coverage: TransitionCoverage): Html {
  const unknown = coverage.unknown.map((edge) => html`<li class="chip odd"><span aria-hidden="true">? </span>${edge}<span class="vh"> recorded but in no transition table</span></li>`);
  return html`<section id="transitions" aria-labelledby="transitions-title">
<h2 id="transitions-title">Transition coverage</h2>
<p>The edges of each state machine of the reference's transition tables; an edge is exercised when a stateful scenario saw the transition happen through the target. An edge not exercised is not a failure: a scenario the target's adapter cannot set up is skipped.</p>
<p class="transitions-total"><span class="fraction">${coverage.exercised}/${coverage.total}</span> edges exercised</p>
<div class="scroll">
<table class="per-machine">
<caption>Transition coverage per state machine</caption>
<thead><tr><th scope="col">State machine</th><th scope="col">Edges</th></tr></thead>
<tbody>
${coverage.machines.map(renderMachineCoverage)}
</tbody>
</table>
</div>
${unknown.length > 0 ? html`<p>Recorded by a scenario but in no transition table (a bug of the scenario):</p>
<ul class="chips">${unknown}</ul>` : ''}
</section>`;
}

function renderMachineCoverage(machine: MachineCoverage): Html {
  const exercised = machine.edges.filter((edge) => edge.exercised).length;
  const prefix = `${machine.machine}: `;
  const chips = machine.edges.map(({ edge, exercised: hit }) => {
    const label = edge.startsWith(prefix) ? edge.slice(prefix.length) : edge;
    return html`<li class="chip ${hit ? 'hit' : 'idle'}"><span aria-hidden="true">${hit ? '✓ ' : '– '}</span>${label}<span class="vh">${hit ? ' exercised' : ' not exercised'}</span></li>`;
  });
  return html`<tr><th scope="row"><code>${machine.machine}</code></th><td><span class="fraction">${exercised}/${machine.edges.length}</span> <ul class="chips">${chips}</ul></td></tr>`;
}

// ---------------------------------------------------------------------------------------------
// Failures, skipped cells, harness errors

function renderFailures(plan: FailurePlan): Html {
  const heading = html`<h2 id="failures-title">Failures</h2>`;
  if (plan.byOperation.size === 0) {
    return html`<section id="failures" aria-labelledby="failures-title">${heading}<p class="empty">No check failed.</p></section>`;
  }
  let groupIndex = 0;
  const groups = [...plan.byOperation].map(([operationId, entries]) => {
    const id = `operation-${++groupIndex}`;
    const occurrences = entries.reduce((sum, entry) => sum + entry.count, 0);
    return html`<section class="operation-group" id="${id}" aria-labelledby="${id}-title" data-operation="${operationId}">
<h3 id="${id}-title"><code>${operationId}</code> <span class="muted">${plural(entries.length, 'distinct failure')}, ${plural(occurrences, 'occurrence')}</span></h3>
${entries.map(renderFailure)}
</section>`;
  });
  return html`<section id="failures" aria-labelledby="failures-title">
${heading}
<p class="intro">Grouped by operation; a failure that recurred with the same check, operation and kind is shown once with its count.</p>
${groups}
</section>`;
}

function renderFailure(entry: FailureEntry): Html {
  const { first } = entry;
  if (!first) {
    return html`<article class="failure" id="${entry.id}" aria-labelledby="${entry.id}-title" data-check="${entry.checkId}">
<h4 id="${entry.id}-title"><code>${entry.checkId}</code> — failed without recorded failures</h4>
<p class="message">The suite marked ${entry.checkId} on ${entry.operationId} failed but recorded no failure to show or reproduce.</p>
</article>`;
  }
  const times = entry.count > 1 ? html` <span class="badge">${entry.count} occurrences</span>` : '';
  const values: Html[] = [];
  if (first.expected !== undefined) values.push(html`<dt>Expected</dt><dd><pre>${prettyJson(first.expected)}</pre></dd>`);
  if (first.actual !== undefined) values.push(html`<dt>Actual</dt><dd><pre>${prettyJson(first.actual)}</pre></dd>`);
  const answer = first.response
    ? html`${first.response.status} in ${Math.round(first.response.elapsedMs)} ms`
    : html`no response`;
  return html`<article class="failure" id="${entry.id}" aria-labelledby="${entry.id}-title" data-check="${first.checkId}">
<h4 id="${entry.id}-title"><code>${first.checkId}</code> — ${first.title}${times}</h4>
<p class="meta"><span class="severity severity-${first.severity}">${first.severity}</span> · kind <code>${first.kind}</code> · rule <code>${first.rule}</code> · case <code>${first.caseId}</code></p>
<p class="message">${first.message}</p>
${values.length > 0 ? html`<dl class="values">${values}</dl>` : ''}
<p class="exchange"><code>${first.request.method} ${first.request.url}</code> → ${answer}</p>
<div class="repro">
<div class="repro-head"><strong>Reproduce with:</strong> <button type="button" class="copy" data-copy="${entry.id}-curl" aria-label="${`Copy the curl command of ${first.operationId}, ${first.title}`}">Copy</button> <span class="copy-status" role="status" aria-live="polite"></span></div>
<pre id="${entry.id}-curl" class="curl"><code>${reproducerLines(first.reproduce).join('\n')}</code></pre>
</div>
<p class="replay">Seed <code>${first.reproduce.seed}</code>${first.reproduce.path ? html` · replay path <code>${first.reproduce.path}</code>` : ''}${first.reproduce.replay ? html` · replay the cell: <code>${first.reproduce.replay}</code>` : ''}</p>
<details><summary>Request and response</summary>
${renderMessage('Request', first.request)}
${first.response ? renderMessage('Response', first.response) : html`<p class="muted">No response: the request ended without one (timeout, reset or refused).</p>`}
</details>
</article>`;
}

function renderMessage(label: string, message: HttpRequest | HttpResponse): Html {
  const headers = Object.entries(redactHeaders(message.headers)).map(([name, value]) => `${name}: ${value}`).join('\n');
  const body = message.body ?? '';
  const cut = body.length > BODY_CHARS ? `${body.slice(0, BODY_CHARS)}\n… (cut at ${BODY_CHARS} characters)` : body;
  const first = 'status' in message ? `HTTP ${message.status}` : `${message.method} ${message.url}`;
  return html`<h5>${label}</h5><pre>${first}\n${headers}${cut ? `\n\n${cut}` : ''}</pre>`;
}

/** Failures a baseline accepts, with the reason; the section is left out when there are none. */
function renderAccepted(cells: readonly CellMeta[]): Html {
  const accepted = cells.flatMap((cell) => cell.accepted ?? []);
  if (accepted.length === 0) return html``;
  return html`<section id="accepted" aria-labelledby="accepted-title">
<h2 id="accepted-title">Accepted by the baseline</h2>
<p>${plural(accepted.length, 'failure')} the baseline accepts: reported, not failing the run.</p>
<ul>${accepted.map((f) => html`<li><code>${f.checkId}</code> on <code>${f.operationId}</code>: ${f.title} (${f.kind}). <span class="muted">Because: ${f.acceptedBecause}</span></li>`)}</ul>
</section>`;
}

function renderSkipped(plan: SkipPlan): Html {
  const heading = html`<h2 id="skipped-title">Skipped cells</h2>`;
  if (plan.reasons.length === 0) {
    return html`<section id="skipped" aria-labelledby="skipped-title">${heading}<p class="empty">No cell was skipped: every check that could apply ran.</p></section>`;
  }
  const total = plan.reasons.reduce((sum, reason) => sum + reason.count, 0);
  return html`<section id="skipped" aria-labelledby="skipped-title">
${heading}
<p>${plural(total, 'cell')} could run but did not: the run lacks a role, fixture, adapter or option. A skipped cell is neither passed nor failed; each reason says how to provide what is missing.</p>
<details class="collapsed"><summary>${plural(plan.reasons.length, 'reason')}, ${plural(total, 'cell')}</summary>
${renderReasons(plan)}
</details>
</section>`;
}

function renderNotApplicable(plan: SkipPlan): Html {
  const heading = html`<h2 id="not-applicable-title">Not applicable</h2>`;
  if (plan.reasons.length === 0) {
    return html`<section id="not-applicable" aria-labelledby="not-applicable-title">${heading}<p class="empty">Every check applied to every operation it was run on.</p></section>`;
  }
  const total = plan.reasons.reduce((sum, reason) => sum + reason.count, 0);
  return html`<section id="not-applicable" aria-labelledby="not-applicable-title">
${heading}
<p>${plural(total, 'cell')} where the check cannot apply to the operation (not a list, no such field): nothing is missing.</p>
<details class="collapsed"><summary>${plural(plan.reasons.length, 'reason')}, ${plural(total, 'cell')}</summary>
${renderReasons(plan)}
</details>
</section>`;
}

function renderReasons(plan: SkipPlan): Html {
  return html`<ul class="skips">
${plan.reasons.map(
    (reason) => html`<li id="${reason.id}"><p class="skip-reason">${reason.kind ? html`<span class="badge kind">${reason.kind}</span> ` : ''}${reason.reason} <span class="muted">(${plural(reason.count, 'cell')})</span></p>
${reason.fixes.map((fix) => html`<p class="fix">Fix: <code>${fix}</code></p>`)}
<ul>${[...reason.byOperation].map(([operationId, checks]) => html`<li><code>${operationId}</code>: ${checks.join(', ')}</li>`)}</ul></li>`,
  )}
</ul>`;
}

// Errored cells are harness problems inside one cell: listed with the others, by the cell's name.
function withErroredCells(results: RunResults): HarnessProblem[] {
  const errored = results.cells
    .filter((cell) => cell.status === 'errored')
    .map((cell): HarnessProblem => ({ where: `${cell.checkId} on ${cell.operationId}`, message: cell.error?.message ?? 'the cell errored without saying why', ...(cell.error ? { code: cell.error.code } : {}) }));
  return [...results.errors, ...errored];
}

function renderErrors(errors: readonly HarnessProblem[]): Html {
  const heading = html`<h2 id="errors-title">Harness errors</h2>`;
  if (errors.length === 0) {
    return html`<section id="errors" aria-labelledby="errors-title">${heading}<p class="empty">None: the harness reached the target and ran every selected check.</p></section>`;
  }
  const groups = new Map<string, { problem: HarnessProblem; places: string[] }>();
  for (const problem of errors) {
    const key = `${problem.code ?? ''}|${problem.message}`;
    const group = groups.get(key);
    if (group) group.places.push(problem.where);
    else groups.set(key, { problem, places: [problem.where] });
  }
  const items = [...groups.values()].map(({ problem, places }) => {
    const [firstLine = '', ...rest] = problem.message.split('\n');
    const shown = places.slice(0, MAX_ERROR_PLACES).join(', ');
    const more = places.length > MAX_ERROR_PLACES ? ` and ${places.length - MAX_ERROR_PLACES} more` : '';
    return html`<article class="error">
<h3><span aria-hidden="true">! </span>${problem.code ? html`<code>${problem.code}</code>: ` : ''}${firstLine}</h3>
${rest.length > 0 ? html`<pre>${rest.join('\n')}</pre>` : ''}
<p class="muted">in ${shown}${more}</p>
${problem.stack ? html`<details><summary>Stack</summary><pre>${problem.stack}</pre></details>` : ''}
</article>`;
  });
  return html`<section id="errors" aria-labelledby="errors-title">
${heading}
<p class="callout error">${plural(errors.length, 'error')}: problems of the harness or of reaching the target, not failures of the API; the run is inconclusive.</p>
${items}
</section>`;
}

// Short values on one line (they read best that way and keep the first failure above the fold), longer ones indented.
const ONE_LINE_CHARS = 100;

function prettyJson(value: unknown): string {
  let text: string;
  try {
    const flat = JSON.stringify(value);
    text = flat !== undefined && flat.length <= ONE_LINE_CHARS ? flat : (JSON.stringify(value, null, 2) ?? String(value));
  } catch {
    text = String(value);
  }
  return truncate(text, VALUE_CHARS);
}

// ---------------------------------------------------------------------------------------------
// The page's constant stylesheet and script

const STYLE = `
:root { color-scheme: light; --pass: #0a6b2d; --pass-bg: #d6f5df; --fail: #a1141d; --fail-bg: #fbd9dc; --skip: #505a64; --skip-bg: #e6e9ed; --error: #7a2390; --error-bg: #f1dcf6; --line: #d0d5db; --muted: #57606a; --code-bg: #f4f6f8; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1f2328; background: #fff; }
header.top, main, footer { max-width: 1400px; margin: 0 auto; padding: 0 24px; }
header.top { padding-top: 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h1 { font-size: 20px; margin: 8px 0; color: var(--muted); font-weight: 600; }
h2 { font-size: 22px; margin: 24px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 17px; margin: 24px 0 8px; }
h4 { font-size: 16px; margin: 0 0 4px; }
h5 { font-size: 13px; margin: 12px 0 4px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 13px; }
pre { background: var(--code-bg); border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; margin: 4px 0; }
a { color: #0550ae; }
a:focus-visible, button:focus-visible { outline: 3px solid #0969da; outline-offset: 2px; }
.vh { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.muted { color: var(--muted); font-weight: normal; }
.empty { color: var(--muted); font-style: italic; }
.verdict { display: inline-flex; align-items: center; gap: 12px; font-size: 28px; font-weight: 700; margin: 4px 0; padding: 4px 16px; border-radius: 8px; border: 2px solid; }
.verdict-symbol { font-size: 30px; }
.verdict-pass { color: var(--pass); background: var(--pass-bg); }
.verdict-fail { color: var(--fail); background: var(--fail-bg); }
.verdict-error { color: var(--error); background: var(--error-bg); }
.reasons { margin: 4px 0 12px; padding-left: 20px; }
.facts { display: flex; flex-wrap: wrap; gap: 4px 28px; margin: 8px 0; }
.facts div { display: flex; gap: 8px; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; font-weight: 600; }
.counts { list-style: none; display: flex; flex-wrap: wrap; gap: 8px; padding: 0; margin: 8px 0; }
.count { padding: 4px 12px; border-radius: 6px; border: 1px solid var(--line); }
.count-number { font-weight: 700; font-size: 18px; }
.count-passed { background: var(--pass-bg); color: var(--pass); }
.count-failed { background: var(--fail-bg); color: var(--fail); }
.count-skipped { background: #fff4d6; color: #6b4b00; }
.count-errored { background: var(--error-bg); color: var(--error); }
.count-not-applicable { background: var(--skip-bg); color: var(--skip); }
.count-errors { background: var(--error-bg); color: var(--error); }
.count-zero { background: #fff; color: var(--muted); }
nav { display: flex; gap: 16px; margin: 8px 0; }
.scroll { overflow-x: auto; }
.matrix-box { overflow: auto; max-height: 80vh; border: 1px solid var(--line); }
.matrix { margin: 0; }
.matrix thead th { position: sticky; top: 0; z-index: 2; }
.matrix th[scope="row"] { position: sticky; left: 0; z-index: 1; }
.matrix thead th.corner { left: 0; z-index: 3; }
.tools { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 8px 24px; }
.filter { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; margin: 4px 0; }
.filter select, .filter input { font: inherit; font-size: 14px; padding: 2px 4px; }
.missing { margin: 4px 0; color: #6b4b00; }
.fix { margin: 2px 0 2px 16px; }
.badge.kind { background: #fff4d6; color: #6b4b00; }
.hidden-by-filter { display: none; }
.dim-by-filter { opacity: .15; }
table { border-collapse: collapse; margin: 8px 0; }
caption { text-align: left; color: var(--muted); padding: 4px 0; caption-side: top; }
th, td { border: 1px solid var(--line); padding: 4px 8px; vertical-align: top; text-align: left; }
thead th { background: var(--code-bg); }
.matrix th[scope="row"] { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; white-space: nowrap; background: #fff; }
.matrix th.check { vertical-align: bottom; padding: 6px 2px; }
.matrix th.check span { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; font: 12px/1.2 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.matrix th.corner { vertical-align: bottom; }
.cell { width: 24px; min-width: 24px; text-align: center; vertical-align: middle; font-size: 15px; font-weight: 700; padding: 0; }
.cell a { display: block; padding: 4px 0; text-decoration: none; color: inherit; }
.cell a:hover { text-decoration: underline; }
.passed { background: var(--pass-bg); color: var(--pass); }
.failed { background: var(--fail-bg); color: var(--fail); }
.skipped { background: #fff4d6; color: #6b4b00; }
.errored { background: var(--error-bg); color: var(--error); }
.not_applicable { background: var(--skip-bg); color: var(--skip); }
.none { background: #fff; }
.legend { list-style: none; display: flex; flex-wrap: wrap; gap: 16px; padding: 0; margin: 8px 0; }
.cell-sample { display: inline-block; width: 26px; height: 26px; line-height: 24px; text-align: center; border: 1px solid var(--line); font-weight: 700; vertical-align: middle; }
.totals td.num { text-align: right; font-variant-numeric: tabular-nums; }
meter { width: 160px; }
.good { color: var(--pass); }
.bad { color: var(--fail); }
td.good, td.bad { font-weight: 600; white-space: nowrap; }
.callout { padding: 8px 12px; border-radius: 6px; font-weight: 600; }
.callout.bad { background: var(--fail-bg); }
.callout.error { background: var(--error-bg); color: var(--error); }
.per-operation { width: 100%; }
.per-operation th[scope="row"] { white-space: nowrap; }
.per-operation td:nth-child(3) { min-width: 240px; }
.fraction { font-variant-numeric: tabular-nums; font-weight: 600; }
.chips { list-style: none; display: inline-flex; flex-wrap: wrap; gap: 4px; padding: 0; margin: 0; }
.chip { font: 12px/1.6 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; padding: 0 6px; border-radius: 10px; border: 1px solid var(--line); }
.chip.hit { background: var(--pass-bg); color: var(--pass); }
.chip.miss { background: #fff; color: var(--fail); border-style: dashed; }
.chip.odd { background: #fff4d6; color: #6b4b00; }
.chip.idle { background: var(--skip-bg); color: var(--skip); }
.per-machine th { white-space: nowrap; }
.transitions-total { font-size: 17px; }
.failure { border: 1px solid var(--line); border-left: 6px solid var(--fail); border-radius: 6px; padding: 12px 16px; margin: 12px 0; scroll-margin-top: 12px; }
.failure:target { outline: 3px solid #0969da; outline-offset: 2px; }
.meta { color: var(--muted); margin: 0 0 8px; }
.severity { font-weight: 700; text-transform: uppercase; font-size: 12px; }
.severity-critical, .severity-high { color: var(--fail); }
.message { white-space: pre-wrap; word-break: break-word; margin: 8px 0; }
.values { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; margin: 8px 0; }
.values dt { font-weight: 600; padding-top: 8px; }
.values dd { margin: 0; min-width: 0; }
.badge { font-size: 12px; font-weight: 600; background: var(--fail-bg); color: var(--fail); padding: 2px 8px; border-radius: 10px; }
.repro-head { display: flex; align-items: center; gap: 8px; margin-top: 8px; }
button.copy { font: inherit; font-size: 13px; padding: 2px 12px; border: 1px solid #8c959f; border-radius: 6px; background: #f6f8fa; cursor: pointer; }
button.copy:hover { background: #eaeef2; }
.copy-status { color: var(--pass); font-size: 13px; }
.replay { margin: 4px 0 8px; }
details summary { cursor: pointer; color: #0550ae; }
.skips > li { margin-bottom: 8px; }
.skip-reason { margin: 0; font-weight: 600; }
.error { border: 1px solid var(--line); border-left: 6px solid var(--error); border-radius: 6px; padding: 8px 16px; margin: 12px 0; }
.error h3 { margin: 4px 0; color: var(--error); }
footer { color: var(--muted); font-size: 13px; margin-top: 32px; padding-bottom: 24px; border-top: 1px solid var(--line); }
`;

// The copy buttons: the Clipboard API where the browser allows it (file:// pages often do not),
// else select the command so that Ctrl+C copies it.
const SCRIPT = `
(function () {
  var status = document.getElementById('filter-status');
  var check = document.getElementById('filter-check');
  var operation = document.getElementById('filter-operation');
  var count = document.getElementById('filter-count');
  if (!status || !check || !operation) return;
  function apply() {
    var s = status.value, c = check.value, o = operation.value.trim().toLowerCase();
    var shown = 0;
    document.querySelectorAll('.matrix tbody tr').forEach(function (row) {
      var opOk = !o || (row.getAttribute('data-operation') || '').toLowerCase().indexOf(o) !== -1;
      var any = false;
      row.querySelectorAll('td.cell').forEach(function (cell) {
        var ok = (!c || cell.getAttribute('data-check') === c) && (!s || cell.getAttribute('data-status') === s);
        cell.classList.toggle('dim-by-filter', !ok);
        if (ok && cell.hasAttribute('data-status')) any = true;
      });
      var visible = opOk && (any || (!s && !c));
      row.classList.toggle('hidden-by-filter', !visible);
      if (visible) shown += 1;
    });
    var failures = 0;
    document.querySelectorAll('.operation-group').forEach(function (group) {
      var opOk = !o || (group.getAttribute('data-operation') || '').toLowerCase().indexOf(o) !== -1;
      var left = 0;
      group.querySelectorAll('article.failure').forEach(function (article) {
        var ok = opOk && (!c || article.getAttribute('data-check') === c) && (!s || s === 'failed');
        article.classList.toggle('hidden-by-filter', !ok);
        if (ok) left += 1;
      });
      group.classList.toggle('hidden-by-filter', left === 0);
      failures += left;
    });
    if (count) count.textContent = (s || c || o) ? shown + ' operations, ' + failures + ' failures shown' : '';
  }
  [status, check].forEach(function (control) { control.addEventListener('change', apply); });
  operation.addEventListener('input', apply);
})();
document.addEventListener('click', function (event) {
  var button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
  if (!button) return;
  var source = document.getElementById(button.getAttribute('data-copy'));
  var status = button.parentElement ? button.parentElement.querySelector('.copy-status') : null;
  if (!source) return;
  var text = source.textContent || '';
  function say(message) {
    if (status) status.textContent = message;
    setTimeout(function () { if (status) status.textContent = ''; }, 3000);
  }
  function selectIt() {
    var range = document.createRange();
    range.selectNodeContents(source);
    var selection = window.getSelection();
    if (selection) { selection.removeAllRanges(); selection.addRange(range); }
    var copied = false;
    try { copied = document.execCommand('copy'); } catch (error) { copied = false; }
    say(copied ? 'Copied' : 'Selected: press Ctrl+C (\\u2318C) to copy');
  }
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(function () { say('Copied'); }, selectIt);
  } else {
    selectIt();
  }
});
`;

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  `script-src 'sha256-${createHash('sha256').update(SCRIPT, 'utf8').digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
