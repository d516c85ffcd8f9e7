/**
 * The failure sections of the HTML report: the failures grouped by operation, each with its
 * message, expected and actual values, a curl reproducer with a copy button, and the request and
 * response (credentials redacted); then the failures a baseline accepts.
 * @see docs/reports.md (HTML)
 */
import type { CellMeta, HttpRequest, HttpResponse } from '../../core/types.js';
import { plural, reproducerLines, truncate } from '../format.js';
import { redactHeaders } from '../json.js';
import type { FailureEntry, FailurePlan } from './plan.js';
import { html, type Html } from './template.js';

// Expected and actual values, and bodies, are shown whole up to these sizes (report.json keeps more).
const VALUE_CHARS = 4000;
const BODY_CHARS = 16 * 1024;

/** The failures section: one entry per failure group, with its finding, request, response and runnable reproducer. */
export function renderFailures(plan: FailurePlan): Html {
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
export function renderAccepted(cells: readonly CellMeta[]): Html {
  const accepted = cells.flatMap((cell) => cell.accepted ?? []);
  if (accepted.length === 0) return html``;
  return html`<section id="accepted" aria-labelledby="accepted-title">
<h2 id="accepted-title">Accepted by the baseline</h2>
<p>${plural(accepted.length, 'failure')} the baseline accepts: reported, not failing the run.</p>
<ul>${accepted.map((f) => html`<li><code>${f.checkId}</code> on <code>${f.operationId}</code>: ${f.title} (${f.kind}). <span class="muted">Because: ${f.acceptedBecause}</span></li>`)}</ul>
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
