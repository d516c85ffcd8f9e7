/**
 * The operation x check matrix of the HTML report: one row per operation, one column per check,
 * sticky row and column headers inside its own scroll box; each cell shows its status as a
 * symbol and a colour, and links to its failure, error or skip reason.
 * @see docs/reports.md (HTML)
 * @see https://html.spec.whatwg.org/multipage/tables.html#attr-th-scope (row and column headers)
 */
import type { CellMeta } from '../../core/types.js';
import { plural } from '../format.js';
import type { Matrix } from '../matrix.js';
import { HTML_STATUS_SYMBOLS, pairKey, type FailurePlan, type SkipPlan } from './plan.js';
import { html, type Html } from './template.js';

/** The operation x check matrix as a table: a status symbol per cell, linked to the cell's failure, skip or not-applicable reason. */
export function renderMatrix(cells: readonly CellMeta[], matrix: Matrix, failures: FailurePlan, skips: SkipPlan, notApplicable: SkipPlan): Html {
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
