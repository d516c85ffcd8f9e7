/**
 * The header of the HTML report: the title, the verdict with its reasons, the conformance
 * statement, the run's facts, the counts of cells by outcome, the section links and the filter.
 * @see docs/reports.md (HTML; Conformance statement)
 * @see https://www.w3.org/TR/WCAG22/#use-of-color (a symbol beside each colour)
 */
import type { ConformanceStatement } from '../../engine/conformance.js';
import { summarize, type RunResults } from '../../engine/results.js';
import { formatDuration, statementHeadline, statementOf } from '../format.js';
import type { Matrix } from '../matrix.js';
import type { ReportInfo } from '../run-info.js';
import { HTML_STATUS_SYMBOLS, type VerdictView } from './plan.js';
import { html, type Html } from './template.js';

/** The conformance statement in one paragraph of the header: the headline, then each class with its verdict (failures counted by level). */
function renderStatement(statement: ConformanceStatement): Html {
  const classes = statement.classes.map((c, i) => {
    const tone = c.verdict === 'not conformant' ? 'bad' : c.verdict === 'conformant' ? 'good' : 'muted';
    const counts = c.mustFailed + c.shouldFailed > 0 ? ` (${c.mustFailed} must, ${c.shouldFailed} should)` : '';
    return html`${i > 0 ? ' · ' : ''}<span class="${tone}">${c.conformanceClass}: ${c.verdict}${counts}</span>`;
  });
  return html`<p id="conformance" class="statement"><strong>${statementHeadline(statement)}</strong>. ${classes}</p>`;
}

/** The page's header: the verdict and its reasons, the conformance statement, the run's facts, the counts by outcome and the section links. */
export function renderHeader(results: RunResults, info: ReportInfo, verdict: VerdictView, title: string, hasTransitions: boolean, matrix: Matrix): Html {
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
${renderStatement(statementOf(results))}
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
<nav aria-label="Sections"><a href="#failures">Failures</a> <a href="#errors">Errors</a> <a href="#matrix">Matrix</a> <a href="#coverage">Coverage</a> ${hasTransitions ? html`<a href="#transitions">Transitions</a> ` : ''}${results.notApiTraffic?.count ? html`<a href="#not-api-traffic">Not API traffic</a> ` : ''}<a href="#skipped">Skipped</a> <a href="#not-applicable">Not applicable</a></nav>
<div id="filter" class="filter" aria-label="Filter the failures and the matrix" role="search">
<label>Status <select id="filter-status"><option value="">any</option>${(['failed', 'errored', 'passed', 'skipped', 'not_applicable'] as const).map((status) => html`<option value="${status}">${status.replace('_', ' ')}</option>`)}</select></label>
<label>Check <select id="filter-check"><option value="">any</option>${matrix.checks.map((checkId) => html`<option value="${checkId}">${checkId}</option>`)}</select></label>
<label>Operation <input id="filter-operation" type="search" placeholder="part of an operationId" autocomplete="off"></label>
<span id="filter-count" class="muted" role="status" aria-live="polite"></span>
</div>
</div>
</header>`;
}
