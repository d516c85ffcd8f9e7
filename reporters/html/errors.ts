/**
 * The harness errors section of the HTML report: problems of the harness or of reaching the
 * target (errored cells among them), grouped by code and message, each with where it happened.
 * @see docs/reports.md (HTML)
 */
import type { HarnessProblem } from '../../engine/results.js';
import { plural } from '../format.js';
import { html, type Html } from './template.js';

const MAX_ERROR_PLACES = 5;

/** The harness errors section: where each happened and what, with its code and stack when known; nothing without errors. */
export function renderErrors(errors: readonly HarnessProblem[]): Html {
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
