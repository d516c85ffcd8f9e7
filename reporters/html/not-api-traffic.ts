/**
 * The "Not API traffic" section of the HTML report of observed traffic (`conformance proxy`,
 * `conformance check`): the exchanges set aside as not the API's (a page's document, scripts,
 * styles, images, fonts, calls to other origins), counted by reason and listed, collapsed, so that
 * nothing is set aside silently. A run's report has no such section.
 * @see docs/observed.md (Not API traffic); docs/reports.md (HTML)
 */
import type { NotApiTraffic } from '../../engine/results.js';
import { notApiTrafficHeadline, plural } from '../format.js';
import { html, type Html } from './template.js';

/**
 * The section, or nothing for a run's results (no `notApiTraffic`) and for traffic that was all
 * the API's: the headline (count by reason), then the first exchanges listed (number in the
 * traffic, method, URL without its query, why), with how many more were counted but not listed.
 */
export function renderNotApiTraffic(traffic: NotApiTraffic | undefined): Html | '' {
  if (!traffic || traffic.count === 0) return '';
  const unlisted = traffic.count - traffic.listed.length;
  return html`<section id="not-api-traffic" aria-labelledby="not-api-traffic-title">
<h2 id="not-api-traffic-title">Not API traffic</h2>
<p>${notApiTrafficHeadline(traffic)}. A page's own requests and calls to other origins are not requests of the API: never judged, never failed, never counted in a cell.</p>
<details class="collapsed"><summary>${plural(traffic.listed.length, 'exchange')} listed${unlisted > 0 ? `, ${unlisted} more counted` : ''}</summary>
<ul class="not-api">
${traffic.listed.map((exchange) => html`<li><span class="muted">#${String(exchange.exchange)}</span> <code>${exchange.method} ${exchange.url}</code>: ${exchange.why}</li>`)}
</ul>
</details>
</section>`;
}
