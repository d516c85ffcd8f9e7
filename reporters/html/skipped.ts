/**
 * The skipped and not-applicable sections of the HTML report, each collapsed: the cells grouped
 * by reason, commonest first; a skipped cell's reason says what the run lacks and how to
 * provide it.
 * @see docs/reports.md (HTML)
 */
import { plural } from '../format.js';
import type { SkipPlan } from './plan.js';
import { html, type Html } from './template.js';

/** The skipped section: each reason with what the run lacks, the fix and the cells it covers. */
export function renderSkipped(plan: SkipPlan): Html {
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

/** The not-applicable section: each reason with the cells it covers (never counted as skipped). */
export function renderNotApplicable(plan: SkipPlan): Html {
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
