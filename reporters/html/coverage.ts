/**
 * The coverage sections of the HTML report: spec coverage (totals against the minimum, then each
 * operation's status codes and parameters as chips) and transition coverage (each state
 * machine's edges, exercised or not).
 * @see docs/reports.md (HTML)
 */
import { COVERAGE_MEASURES, describeShortfall, formatPercent, type Coverage, type CoverageMeasure, type OperationCoverage } from '../../engine/coverage.js';
import type { MachineCoverage, TransitionCoverage } from '../../engine/stateful/transitions.js';
import { html, type Html } from './template.js';

const MEASURE_LABELS: Record<CoverageMeasure, string> = {
  operations: 'Operations exercised',
  statuses: 'Status codes observed',
  parameters: 'Parameters sent',
};

/** The spec coverage section: the totals by measure and the operations left uncovered, or a note when the report was written without the document. */
export function renderCoverage(coverage: Coverage | undefined): Html {
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

/** The transition coverage section: each state machine's edges, exercised or not (engine/stateful/transitions.ts). */
export function renderTransitions(coverage: TransitionCoverage): Html {
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
