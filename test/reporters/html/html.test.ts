import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { KNOWN_EDGES } from '../../../engine/stateful/transitions.js';
import type { CellMeta } from '../../../core/types.js';
import { computeCoverage } from '../../../engine/coverage.js';
import type { Verdict } from '../../../reporters/html/plan.js';
import { HtmlReporter, renderHtml } from '../../../reporters/html/report.js';
import { escapeHtml } from '../../../reporters/html/template.js';
import { collectResults, finishResults, type RunResults } from '../../../engine/results.js';
import type { LoadedSpec } from '../../../core/spec/load.js';
import { cell, failure, INFO, skipped, stateful } from '../fixtures/cells.js';
import { moduleOf } from '../fixtures/modules.js';
import { loadCoverageSpec } from '../fixtures/spec.js';

let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadCoverageSpec();
});

const SCRIPT = '<script>alert(1)</script>';
const RESULTS: RunResults = {
  cells: [
    cell('products:list', 'status_code_conformance', { failures: [failure({ message: `The body was ${SCRIPT}.` })], observed: { statuses: [200, 500], parameters: ['query:limit'] } }),
    cell('products:list', 'response_schema_conformance', { observed: { statuses: [200], parameters: ['query:page'] } }),
    skipped('orders:update', 'status_code_conformance', 'unsafe method: valid cases belong to the stateful suites'),
    cell('orders:update', 'content_type_conformance', { status: 'failed' }),
    cell('orders:update', 'response_schema_conformance', { status: 'not_applicable', skipReason: 'no JSON response body', cases: 0 }),
  ],
  errors: [],
};
const STATEFUL: RunResults = {
  cells: [
    ...RESULTS.cells,
    stateful('customer_seats:claim', 'model_seats', ['seat: pending→claimed', 'seat: claimed→revoked']),
    stateful('orders:create', 'order_paid_once', ['order: pending→paid'], { failures: [failure()] }),
  ],
  errors: [],
};

/** The text between `<tag…>` and `</tag>`, for each occurrence. */
function elements(page: string, tag: string): string[] {
  return [...page.matchAll(new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))].map((match) => match[1]!);
}

describe('escapeHtml', () => {
  const table: [string, string, string][] = [
    ['markup', '<a href="x">it\'s & more</a>', '&lt;a href=&quot;x&quot;&gt;it&#39;s &amp; more&lt;/a&gt;'],
    ['control characters become U+FFFD; tab, newline, CR stay', 'a\u0000b\u001bc\td\ne\rf\u007f', 'a\uFFFDb\uFFFDc\td\ne\rf\uFFFD'],
    ['plain text and non-ASCII unchanged', 'products:list ✓ é', 'products:list ✓ é'],
  ];
  test.each(table)('%s', (_name, given, want) => {
    expect(escapeHtml(given)).toBe(want);
  });
});

describe('renderHtml', () => {
  test('a <script> in a failure message is shown as text, never as markup', () => {
    const page = renderHtml(RESULTS, INFO);
    expect(page).toContain('The body was &lt;script&gt;alert(1)&lt;/script&gt;.');
    expect(page).not.toContain(SCRIPT);
    expect(page.match(/<script\b/g)).toHaveLength(1);
  });

  test('every string the target or a suite controls is escaped', () => {
    const evil = '"><img src=x onerror=alert(1)>';
    const everywhere = failure({
      operationId: `op${evil}`,
      checkId: `check${evil}`,
      kind: `kind${evil}`,
      title: `title${evil}`,
      message: `message${evil}`,
      rule: `rule${evil}`,
      caseId: `case${evil}`,
      expected: { evil },
      actual: evil,
      request: { method: 'GET', url: `http://t/${evil}`, headers: { [`x${evil}`]: evil }, body: evil },
      response: { status: 500, headers: { 'content-type': evil }, body: evil, elapsedMs: 1 },
      reproduce: { curl: `curl '${evil}'`, seed: 1, path: evil },
    });
    const results: RunResults = {
      cells: [
        cell(`op${evil}`, `check${evil}`, { failures: [everywhere] }),
        skipped(`op${evil}`, `other${evil}`, `reason${evil}`),
      ],
      errors: [{ where: `where${evil}`, message: `message${evil}\nsecond${evil}`, code: `CODE${evil}`, stack: `stack${evil}` }],
    };
    const page = renderHtml(results, { ...INFO, title: `title${evil}`, target: `http://t/${evil}`, specVersion: `v${evil}` });
    const escaped = escapeHtml(evil);
    expect(escaped).toBe('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(page).not.toContain(evil);
    expect(page).not.toContain('<img');
    // Each field shows up escaped: the page has them all as text.
    for (const field of ['op', 'check', 'other', 'kind', 'title', 'message', 'second', 'rule', 'case', 'reason', 'where', 'CODE', 'stack', 'http://t/', "curl '", 'x', 'v']) {
      expect(page, field).toContain(escapeHtml(`${field}${evil}`));
    }
    expect(page).toContain(`{&quot;evil&quot;:&quot;\\&quot;&gt;&lt;img`); // expected, as one-line JSON
  });

  test('is self-contained: no URL to fetch, one inline script allowed by its hash, nothing else', () => {
    // With every optional section: spec coverage and transition coverage.
    const page = renderHtml(STATEFUL, INFO, computeCoverage(spec, STATEFUL.cells, 50));
    expect(page).not.toMatch(/<(link|img|iframe|object|embed|base|audio|video|source|form)\b/i);
    expect(page).not.toMatch(/\s(src|srcset|action|formaction|poster|data)=/i);
    expect(page).not.toMatch(/url\(|@import|@font-face/i);
    for (const [, href] of page.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^#/);

    const [script] = elements(page, 'script');
    const hash = createHash('sha256').update(script!, 'utf8').digest('base64');
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)?.[1]?.replaceAll('&#39;', "'");
    expect(csp?.split('; ')).toEqual(["default-src 'none'", "style-src 'unsafe-inline'", `script-src 'sha256-${hash}'`, "base-uri 'none'", "form-action 'none'"]);
  });

  test.each([
    ['without', RESULTS],
    ['with', STATEFUL],
  ])('every in-page link has its target (%s transition coverage)', (_name, results) => {
    const page = renderHtml(results, INFO, computeCoverage(spec, results.cells));
    const ids = new Set([...page.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]));
    const targets = [...page.matchAll(/href="#([^"]+)"/g)].map((match) => match[1]);
    expect(targets.length).toBeGreaterThan(5);
    for (const target of targets) expect(ids, target).toContain(target);
  });

  test('a failed cell links to its failure; a failed cell without failures to its own entry; skipped and not-applicable ones to their reasons', () => {
    const page = renderHtml(RESULTS, INFO);
    const links = [...page.matchAll(/<td class="cell (failed|skipped|not_applicable)"[^>]*><a href="#([^"]+)"/g)].map((match) => [match[1], match[2]]);
    // Rows alphabetical (orders:update first), columns in registry order (status_code_conformance first).
    expect(links).toEqual([
      ['skipped', 'skip-1'],
      ['failed', 'failure-1'],
      ['not_applicable', 'na-1'],
      ['failed', 'failure-2'],
    ]);
    // Failures grouped by operation, in matrix row order; each entry headed by its check.
    expect(page).toMatch(/<section class="operation-group" id="operation-1"[^>]*>\s*<h3[^>]*><code>orders:update<\/code>[\s\S]*?<article class="failure" id="failure-1"[^>]*>\s*<h4[^>]*><code>content_type_conformance<\/code> — failed without recorded failures<\/h4>/);
    expect(page).toMatch(/<section class="operation-group" id="operation-2"[^>]*>\s*<h3[^>]*><code>products:list<\/code>[\s\S]*?<article class="failure" id="failure-2"[^>]*>\s*<h4[^>]*><code>status_code_conformance<\/code> — Undocumented HTTP status code<\/h4>/);
    expect(page).toContain('<li id="skip-1"><p class="skip-reason">unsafe method: valid cases belong to the stateful suites <span class="muted">(1 cell)</span></p>');
    expect(page).toContain('<li id="na-1"><p class="skip-reason">no JSON response body <span class="muted">(1 cell)</span></p>');
  });

  test('failures come first, then errors, the matrix, and the skipped and not-applicable cells collapsed last', () => {
    const page = renderHtml(RESULTS, INFO);
    const order = ['<section id="failures"', '<section id="errors"', '<section id="matrix"', '<section id="coverage"', '<section id="skipped"', '<section id="not-applicable"'].map((start) => page.indexOf(start));
    expect(order.every((at) => at > 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(/<section id="skipped"[\s\S]*?<\/section>/.exec(page)?.[0]).toContain('<details class="collapsed"><summary>1 reason, 1 cell</summary>');
    expect(/<section id="not-applicable"[\s\S]*?<\/section>/.exec(page)?.[0]).toContain('<details class="collapsed"><summary>1 reason, 1 cell</summary>');
  });

  test('a skipped cell names what is missing and the fix; the header counts them apart from not-applicable ones', () => {
    const cells = [...RESULTS.cells, cell('refunds:list', 'tenant_isolation', { status: 'skipped', skipReason: 'needs role other_org', skipKind: 'role', fix: 'export CONFORMANCE_OTHER_ORG_TOKEN=…', cases: 0 })];
    const page = renderHtml({ cells, errors: [] }, INFO);
    expect(page).toContain('<span class="badge kind">role</span> needs role other_org <span class="muted">(1 cell)</span></p>\n<p class="fix">Fix: <code>export CONFORMANCE_OTHER_ORG_TOKEN=…</code></p>');
    expect(page).toContain('Skipped cells could run with what the run lacks: 1 role, 1 other');
    expect(page).toMatch(/<li class="count count-skipped"><span class="count-number">2<\/span>.*skipped<\/li><li class="count count-not-applicable"><span class="count-number">1<\/span>.*not applicable<\/li>/);
  });

  test('an errored cell is shown in the matrix and listed with the harness errors', () => {
    const cells = [...RESULTS.cells, cell('refunds:list', 'tenant_isolation', { status: 'errored', error: { code: 'CNF_ERR_ADAPTER', message: 'no refund' }, cases: 0 })];
    const page = renderHtml({ cells, errors: [] }, INFO);
    expect(page).toContain('<td class="cell errored" data-check="tenant_isolation" data-status="errored"><a href="#errors" title="errored: CNF_ERR_ADAPTER: no refund">');
    expect(page).toMatch(/<h3><span aria-hidden="true">! <\/span><code>CNF_ERR_ADAPTER<\/code>: no refund<\/h3>\s*<p class="muted">in tenant_isolation on refunds:list<\/p>/);
  });

  test('the filter lists every check of the matrix and every status', () => {
    const page = renderHtml(RESULTS, INFO);
    const filter = /<div id="filter"[\s\S]*?<\/div>/.exec(page)?.[0] ?? '';
    expect([...filter.matchAll(/<option value="([^"]*)">/g)].map((m) => m[1])).toEqual(['', 'failed', 'errored', 'passed', 'skipped', 'not_applicable', '', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance']);
    expect(filter).toContain('<input id="filter-operation" type="search"');
  });

  test('accessible structure: lang, title, real table headers, symbols beside colours', () => {
    const page = renderHtml(RESULTS, INFO);
    expect(page.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(elements(page, 'title')).toEqual(['Not conformant — Conformance run — http://127.0.0.1:4010']);
    const matrix = elements(page, 'table')[0]!;
    expect([...matrix.matchAll(/<th scope="col" class="check"><span>([^<]+)<\/span><\/th>/g)].map((m) => m[1])).toEqual([
      'status_code_conformance', 'content_type_conformance', 'response_schema_conformance',
    ]);
    expect([...matrix.matchAll(/<th scope="row">([^<]+)<\/th>/g)].map((m) => m[1])).toEqual(['orders:update', 'products:list']);
    expect(matrix).toContain('<td class="cell passed" data-check="response_schema_conformance" data-status="passed" title="passed (10 cases)"><span aria-hidden="true">✓</span><span class="vh">passed</span></td>');
    expect(matrix).toContain('<td class="cell none" data-check="content_type_conformance"><span class="vh">not run</span></td>');
  });

  test('the failure shows message, expected, actual, the reproducer with a copy button, seed and replay path', () => {
    const page = renderHtml(RESULTS, INFO);
    const article = elements(page, 'article')[1];
    expect(article).toContain('<p class="message">The body was &lt;script&gt;alert(1)&lt;/script&gt;.</p>');
    expect(article).toContain('<dt>Expected</dt><dd><pre>[200,401,422]</pre></dd><dt>Actual</dt><dd><pre>500</pre></dd>');
    expect(article).toContain(`<pre id="failure-2-curl" class="curl"><code>curl -X GET &#39;http://127.0.0.1:4010/v1/products/?limit=101&#39; -H &quot;Authorization: Bearer $CNF_ADMIN_TOKEN&quot;</code></pre>`);
    expect(article).toContain('<button type="button" class="copy" data-copy="failure-2-curl"');
    expect(article).toContain('Seed <code>42</code> · replay path <code>0:1</code>');
    // The request's credentials are redacted in the details, as in report.json.
    expect(article).toContain('authorization: Bearer [redacted]');
    expect(page).not.toContain('polar_oat_secret');
  });

  type Case = { results: RunResults; minCoverage?: number; want: Verdict; reason: RegExp };
  const clean: CellMeta[] = [cell('products:list', 'a', { observed: { statuses: [200], parameters: [] } })];
  const verdicts: [string, Case][] = [
    ['all passed', { results: { cells: clean, errors: [] }, want: 'Conformant', reason: /every check that ran passed \(1 cell, 10 cases\)/ }],
    ['passed with skips', { results: { cells: [...clean, skipped('a', 'b', 'r')], errors: [] }, want: 'Conformant', reason: /1 cell skipped<\/a>: not checked/ }],
    ['a failed cell', { results: RESULTS, want: 'Not conformant', reason: /2 failed cells<\/a> \(1 failure\)/ }],
    ['coverage below the minimum', { results: { cells: clean, errors: [] }, minCoverage: 50, want: 'Not conformant', reason: /coverage below the minimum of 50%: operations 33\.3%, statuses 14\.2%, parameters 0\.0%/ }],
    ['a harness error', { results: { cells: clean, errors: [{ where: 'run', message: 'x' }] }, want: 'Inconclusive', reason: /1 harness error<\/a>: the harness could not check everything/ }],
    // A failure is a finding about the API whatever else went wrong (exit code 1, docs/design.md, Command line).
    ['failures beat a harness error', { results: { cells: RESULTS.cells, errors: [{ where: 'run', message: 'x' }] }, want: 'Not conformant', reason: /2 failed cells/ }],
  ];
  test.each(verdicts)('verdict: %s', (_name, { results, minCoverage, want, reason }) => {
    const page = renderHtml(results, INFO, computeCoverage(spec, results.cells, minCoverage));
    expect(/<p id="verdict"[^>]*>.*<span class="verdict-label">([^<]+)<\/span><\/p>/.exec(page)?.[1]).toBe(want);
    expect(elements(page, 'ul').find((list) => list.includes(want === 'Conformant' ? 'every check' : 'href="#'))).toMatch(reason);
  });

  test('coverage: totals with the minimum, per operation chips, or a note when not measured', () => {
    const page = renderHtml(RESULTS, INFO, computeCoverage(spec, RESULTS.cells, 50));
    expect(page).toContain('<tr class="total-operations"><th scope="row">Operations exercised</th><td class="num">2/3</td><td class="num">66.6%</td>');
    expect(page).toContain('<tr class="total-statuses"><th scope="row">Status codes observed</th><td class="num">1/7</td><td class="num">14.2%</td>');
    expect(page).toMatch(/<tr class="total-statuses">.*<td class="bad"><span aria-hidden="true">✗ <\/span>below 50%<\/td><\/tr>/);
    expect(page).toMatch(/<tr class="total-operations">.*<td class="good"><span aria-hidden="true">✓ <\/span>meets 50%<\/td><\/tr>/);
    expect(page).toContain('<li class="chip odd"><span aria-hidden="true">? </span>500<span class="vh"> observed but not documented</span></li>');
    expect(page).toContain('<li class="chip miss"><span aria-hidden="true">✗ </span>query:metadata<span class="vh"> not sent</span></li>');
    expect(renderHtml(RESULTS, INFO)).toContain('Coverage was not measured: the report was written without the OpenAPI document.');
  });

  describe('transition coverage', () => {
    /** The transition coverage section, '' when there is none. */
    function section(page: string): string {
      return /<section id="transitions"[\s\S]*?<\/section>/.exec(page)?.[0] ?? '';
    }

    test('follows the spec coverage section, with the count of edges exercised', () => {
      const page = renderHtml(STATEFUL, INFO, computeCoverage(spec, STATEFUL.cells));
      const order = ['<section id="coverage"', '<section id="transitions"', '<section id="skipped"'].map((start) => page.indexOf(start));
      expect(order.every((at) => at > 0)).toBe(true);
      expect(order).toEqual([...order].sort((a, b) => a - b));
      expect(section(page)).toContain('<h2 id="transitions-title">Transition coverage</h2>');
      expect(section(page)).toContain(`<p class="transitions-total"><span class="fraction">3/${KNOWN_EDGES.size}</span> edges exercised</p>`);
      expect(page).toContain('<a href="#transitions">Transitions</a>');
    });

    const rows: [string, { fraction: string; chips: [string, boolean][] }][] = [
      ['seat', { fraction: '2/3', chips: [['pending→claimed', true], ['pending→revoked', false], ['claimed→revoked', true]] }],
      ['order', { fraction: '1/1', chips: [['pending→paid', true]] }],
      ['file', { fraction: '0/1', chips: [['pending→uploaded', false]] }],
    ];
    test.each(rows)('machine %s: a row of edge chips, green ✓ exercised, grey – not', (machine, { fraction, chips }) => {
      const row = new RegExp(`<tr><th scope="row"><code>${machine}</code></th><td>(.*?)</td></tr>`).exec(section(renderHtml(STATEFUL, INFO)))?.[1];
      expect(row).toContain(`<span class="fraction">${fraction}</span>`);
      const want = chips.map(([label, exercised]) =>
        exercised
          ? `<li class="chip hit"><span aria-hidden="true">✓ </span>${label}<span class="vh"> exercised</span></li>`
          : `<li class="chip idle"><span aria-hidden="true">– </span>${label}<span class="vh"> not exercised</span></li>`,
      );
      expect(row).toContain(`<ul class="chips">${want.join('')}</ul>`);
    });

    test('an edge no table has is listed apart, escaped', () => {
      const odd = 'order: paid→<img src=x onerror=alert(1)>';
      const page = renderHtml({ cells: [stateful('orders:create', 'order_paid_once', [odd])], errors: [] }, INFO);
      expect(page).not.toContain('<img');
      expect(section(page)).toContain(`<li class="chip odd"><span aria-hidden="true">? </span>${escapeHtml(odd)}<span class="vh"> recorded but in no transition table</span></li>`);
      expect(section(page)).toContain(`<span class="fraction">0/${KNOWN_EDGES.size}</span> edges exercised`);
    });

    test('no stateful cell, no section and no link to it', () => {
      const page = renderHtml(RESULTS, INFO, computeCoverage(spec, RESULTS.cells));
      expect(section(page)).toBe('');
      expect(page).not.toContain('Transition coverage');
      expect(page).not.toContain('#transitions');
    });
  });

  test('harness errors get their own section, grouped by code and message', () => {
    const page = renderHtml({ cells: [], errors: [
      { where: 'a > x', message: 'the target did not answer', code: 'CNF_ERR_TARGET_UNREACHABLE' },
      { where: 'b > y', message: 'the target did not answer', code: 'CNF_ERR_TARGET_UNREACHABLE', stack: 'HarnessError: at probe' },
    ] }, INFO);
    const errors = page.slice(page.indexOf('<section id="errors"'));
    expect(errors).toContain('<h2 id="errors-title">Harness errors</h2>');
    expect(errors.match(/<article class="error">/g)).toHaveLength(1);
    expect(errors).toContain('<code>CNF_ERR_TARGET_UNREACHABLE</code>: the target did not answer</h3>');
    expect(errors).toContain('in a &gt; x, b &gt; y');
    expect(page).toContain('No cells were recorded.');
  });

  test('is deterministic', () => {
    expect(renderHtml(RESULTS, INFO)).toBe(renderHtml(RESULTS, INFO));
  });
});

describe('HtmlReporter', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  test('writes the report with coverage when given the document', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cnf-html-'));
    dirs.push(dir);
    const outputFile = join(dir, 'out', 'report.html');
    const run = { target: INFO.target, specVersion: INFO.specVersion, seed: 5 };
    const reporter = new HtmlReporter({ ...run, outputFile });
    await reporter.report(finishResults(collectResults([moduleOf(RESULTS.cells)], [], 'failed'), { spec, minCoverage: 90 }), { ...run, startedAt: INFO.startedAt, durationMs: INFO.durationMs });
    const page = await readFile(outputFile, 'utf8');
    expect(page).toContain('<span class="verdict-label">Not conformant</span>');
    expect(page).toContain('Coverage below the minimum of 90%: operations 66.6%, statuses 14.2%, parameters 40.0%; the run exits with code 1.');
    expect(page).toContain('<dt>Seed</dt><dd><code>5</code></dd>');
  });
});
