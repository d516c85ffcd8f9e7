import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, test } from 'vitest';
import type { CellMeta } from '../../core/types.js';
import { ConsoleReporter, renderConsoleReport, renderConsoleSummary } from '../../reporters/console.js';
import { computeCoverage } from '../../engine/coverage.js';
import type { LoadedSpec } from '../../core/spec/load.js';
import { collectResults, finishResults, type RunResults } from '../../engine/results.js';
import type { ReportInfo } from '../../reporters/run-info.js';
import { cell, failure, INFO, notApiTraffic } from './fixtures/cells.js';
import { fakeModule, moduleOf } from './fixtures/modules.js';
import { loadCoverageSpec } from './fixtures/spec.js';

let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadCoverageSpec();
});

const ANSI = /\u001b\[/;

const statusFailure = failure();
const schemaFailure = failure({
  checkId: 'response_schema_conformance',
  kind: 'schema_mismatch',
  severity: 'medium',
  rule: 'oas-3.1/schema-object',
  title: 'Response violates schema',
  message: 'items[0].price_amount must be integer.\nThe API description says money is an integer in cents.',
  operationId: 'orders:list',
  caseId: 'orders:list#3',
  expected: { type: 'integer' },
  actual: 'x'.repeat(300),
  reproduce: { curl: "curl -X GET 'http://127.0.0.1:4010/v1/orders/'", seed: 42 },
});

const RESULTS: RunResults = {
  cells: [
    cell('products:list', 'status_code_conformance', { failures: [statusFailure, failure({ caseId: 'products:list#2' })] }),
    cell('products:list', 'response_schema_conformance'),
    cell('products:list', 'ignored_auth', { status: 'skipped', skipReason: 'needs role other_org', skipKind: 'role', fix: 'export CONFORMANCE_OTHER_ORG_TOKEN=…', cases: 0 }),
    cell('orders:list', 'status_code_conformance'),
    cell('orders:list', 'response_schema_conformance', { failures: [schemaFailure] }),
    cell('orders:list', 'ignored_auth', { status: 'skipped', skipReason: 'needs role other_org', skipKind: 'role', fix: 'export CONFORMANCE_OTHER_ORG_TOKEN=…', cases: 0 }),
    cell('orders:list', 'pagination_limit_respected'),
    cell('orders:get', 'pagination_limit_respected', { status: 'not_applicable', skipReason: 'not a list operation', cases: 0 }),
    cell('orders:create', 'order_paid_transition', { cases: 1 }),
    cell('seats:claim', 'seat_claim_single_use', { status: 'skipped', skipReason: 'needs the adapter capability claimSeat', skipKind: 'adapter', fix: 'pass --adapter' }),
    cell('orders:get', 'status_code_conformance', { status: 'errored', error: { code: 'CNF_ERR_ADAPTER', message: 'no order to get' }, cases: 0 }),
  ],
  errors: [
    { where: 'files:create > upload', message: 'the target did not answer', code: 'CNF_ERR_TARGET_UNREACHABLE' },
    { where: 'files:get > status', message: 'the target did not answer', code: 'CNF_ERR_TARGET_UNREACHABLE' },
  ],
};

const EXPECTED = `Conformance run
  target        http://127.0.0.1:4010
  spec version  2026-10
  seed          42

Conformance: not conformant (core)
  core        not conformant  2 must-level failed, 0 should-level, of 4 judged
  pagination  not shown       no cell ran
  auth        not shown       no cell ran
  tenancy     not shown       no cell ran
  state       conformant      1 cell judged
  webhooks    not shown       no cell ran
  versions    not shown       no cell ran
  limits      conformant      1 cell judged

operation      1  2  3  4
orders:get     !     ·
orders:list    ✓  ✗  ✓  –
products:list  ✗  ✓     –

1  status_code_conformance       3  pagination_limit_respected
2  response_schema_conformance   4  ignored_auth

✓ passed  ✗ failed  ! errored  – skipped  · not applicable  (blank) not run

Scenarios on one operation each (2 cells): 1 ✓  1 –
  – seat_claim_single_use (seats:claim)

Not applicable (1 cell: the check cannot apply to the operation)
  1  not a list operation

Skipped (3 cells that could run; missing: 2 role, 1 adapter)
  2  [role] needs role other_org
     fix: export CONFORMANCE_OTHER_ORG_TOKEN=…
  1  [adapter] needs the adapter capability claimSeat
     fix: pass --adapter

Errors (3)
  Problems of the harness or of reaching the target, not failures of the API; the run is inconclusive.

  ! CNF_ERR_TARGET_UNREACHABLE: the target did not answer
    in files:create > upload, files:get > status

  ! CNF_ERR_ADAPTER: no order to get
    in status_code_conformance on orders:get

Failures (2 distinct, 3 occurrences)

✗ status_code_conformance on products:list — Undocumented HTTP status code (2 occurrences)
  high · undocumented_status_code · rule oas-3.1/responses-object · case products:list#1
  Received 500, documented: 200, 401, 422.
  expected: [200,401,422]
  actual:   500
  Reproduce with:

    curl -X GET 'http://127.0.0.1:4010/v1/products/?limit=101' -H "Authorization: Bearer $CNF_ADMIN_TOKEN"

  seed 42 path 0:1

✗ response_schema_conformance on orders:list — Response violates schema
  medium · schema_mismatch · rule oas-3.1/schema-object · case orders:list#3
  items[0].price_amount must be integer.
  The API description says money is an integer in cents.
  expected: {"type":"integer"}
  actual:   "${'x'.repeat(158)}…
  Reproduce with:

    curl -X GET 'http://127.0.0.1:4010/v1/orders/'

  seed 42

conformance: 4 passed, 2 failed, 1 errored, 3 skipped, 1 not applicable, 2 errors in 3.2s (seed 42)
`;

describe('renderConsoleReport', () => {
  test('renders the whole report as plain text', () => {
    expect(renderConsoleReport(RESULTS, INFO)).toBe(EXPECTED);
  });

  test('a clean run is the header, matrix and summary line only', () => {
    const text = renderConsoleReport({ cells: [cell('products:list', 'status_code_conformance')], errors: [] }, { ...INFO, title: 'Nightly', durationMs: 65_400, seed: 7 });
    expect(text.split('\n')[0]).toBe('Nightly');
    expect(text).not.toMatch(/Failures|Skipped|Errors/);
    expect(text.trimEnd().split('\n').at(-1)).toBe('conformance: 1 passed, 0 failed, 0 skipped in 1m 5.4s (seed 7)');
  });

  test('no cells says so', () => {
    expect(renderConsoleReport({ cells: [], errors: [] }, INFO)).toContain('No cells were recorded.');
  });

  test('colours only when asked', () => {
    expect(renderConsoleReport(RESULTS, INFO)).not.toMatch(ANSI);
    expect(renderConsoleReport(RESULTS, INFO, { color: true })).toMatch(ANSI);
  });

  const manyChecks: CellMeta[] = Array.from({ length: 30 }, (_, i) => cell('subscriptions:list', `check_${i + 1}`));
  const table: [string, { cells: CellMeta[]; width: number; headers: string[] }][] = [
    ['4 checks fit 100 columns three columns a check', {
      cells: manyChecks.slice(0, 4),
      width: 100,
      headers: ['operation           1  2  3  4'],
    }],
    ['30 checks: one column a check, a space every fifth, numbers written downwards', {
      cells: manyChecks,
      width: 100,
      headers: [
        '                             1 11111 11112 22222 22223',
        'operation          12345 67890 12345 67890 12345 67890',
      ],
    }],
    ['a narrow width cuts the labels and splits the compact matrix into blocks of whole groups of five', {
      cells: manyChecks,
      width: 40,
      headers: [
        '                       1 11111 11112',
        'operation    12345 67890 12345 67890',
        '             22222 22223',
        'operation    12345 67890',
      ],
    }],
  ];
  test.each(table)('%s', (_name, { cells, width, headers }) => {
    const text = renderConsoleReport({ cells, errors: [] }, INFO, { width });
    expect(text.split('\n').filter((line) => line.startsWith('operation') || /^ {10,}\d/.test(line))).toEqual(headers);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(width);
  });

  test('a run of the real size fits 80 columns, failures and the report files last', () => {
    const checks = Array.from({ length: 35 }, (_, i) => `some_generic_check_number_${i + 1}`);
    const operations = Array.from({ length: 20 }, (_, i) => `customer_portal:orders:operation_${i + 1}`);
    const cells = operations.flatMap((operationId, row) =>
      checks.map((checkId, column) => {
        if ((row + column) % 3 === 0) return cell(operationId, checkId, { status: 'not_applicable', skipReason: `not applicable reason ${column % 11}`, cases: 0 });
        if ((row + column) % 7 === 0) return cell(operationId, checkId, { status: 'skipped', skipReason: 'needs role admin', skipKind: 'role', fix: 'export CONFORMANCE_ADMIN_TOKEN=…', cases: 0 });
        return cell(operationId, checkId);
      }),
    );
    cells.push(cell(operations[3]!, checks[4]!, { failures: [failure({ operationId: operations[3]!, checkId: checks[4]!, reproduce: { curl: 'curl x', seed: 42 } })] }));
    const text = renderConsoleReport({ cells, errors: [] }, INFO, { width: 80, reportFiles: ['/elsewhere/report.json'] });
    // Only a curl command may be longer: it is copied, not read.
    for (const line of text.split('\n').filter((l) => !l.startsWith('    curl '))) expect(line.length, line).toBeLessThanOrEqual(80);
    const lines = text.trimEnd().split('\n');
    expect(lines.slice(-5)).toEqual(['Reports:', '  /elsewhere/report.json', '', 'conformance: 400 passed, 1 failed, 67 skipped, 233 not applicable', '  in 3.2s (seed 42)']);
    expect(text.indexOf('Failures (1 distinct')).toBeGreaterThan(text.indexOf('Skipped ('));
    expect(text).toContain('Not applicable (233 cells: the check cannot apply to the operation)');
    expect(text).toContain('  and 3 more reasons (--verbose lists them all)');
    expect(text).toContain('Skipped (67 cells that could run; missing: 67 role)\n  67  [role] needs role admin\n      fix: export CONFORMANCE_ADMIN_TOKEN=…');
    // The legend shows every check number once, in two columns.
    expect(text).toMatch(/^ 1 {2}some_generic_check_number_1 +19 {2}some_generic_check_number_19$/m);
  });

  test('a long operation id is cut in the middle, keeping its start and end', () => {
    const long = `subscriptions:${'x'.repeat(50)}:end`;
    const text = renderConsoleReport({ cells: [cell(long, 'status_code_conformance')], errors: [] }, INFO);
    expect(text).toContain(`${long.slice(0, 20)}…${long.slice(-19)}  ✓`);
  });
  test('coverage: a block before the summary line, the measures below the minimum marked', () => {
    const cells = [
      cell('products:list', 'status_code_conformance', { observed: { statuses: [200, 401], parameters: ['query:limit', 'query:page'] } }),
      cell('orders:update', 'status_code_conformance', { observed: { statuses: [204], parameters: ['path:id'] } }),
    ];
    const text = renderConsoleReport({ cells, errors: [] }, INFO, { coverage: computeCoverage(spec, cells, 60) });
    expect(text.endsWith(`Coverage of the spec (minimum 60%)
  operations  2/3  66.6%
  statuses    3/7  42.8%  ✗ below 60%
  parameters  3/5  60.0%
  not exercised: webhooks:list_endpoints

conformance: 2 passed, 0 failed, 0 skipped, coverage below 60% in 3.2s (seed 42)
`)).toBe(true);
  });

  test('coverage without a minimum marks nothing and leaves the summary line alone', () => {
    const cells = [cell('products:list', 'a'), cell('orders:update', 'a'), cell('webhooks:list_endpoints', 'a')];
    const text = renderConsoleReport({ cells, errors: [] }, INFO, { coverage: computeCoverage(spec, cells) });
    expect(text).toContain('Coverage of the spec\n  operations  3/3  100.0%\n  statuses    0/7    0.0%\n  parameters  0/5    0.0%\n\nconformance: 3 passed, 0 failed, 0 skipped in 3.2s (seed 42)\n');
  });

  test('the coverage block names at most 8 operations not exercised', () => {
    const idle = Array.from({ length: 11 }, (_, i) => ({
      operationId: `op_${i + 1}`, method: 'GET', path: '/', exercised: false,
      statuses: { documented: [], observed: [], undocumented: [] }, parameters: { documented: [], sent: [] },
    }));
    const zero = { covered: 0, total: 0, percent: 100 };
    const text = renderConsoleReport({ cells: [], errors: [] }, INFO, { coverage: { operations: idle, totals: { operations: { covered: 0, total: 11, percent: 0 }, statuses: zero, parameters: zero }, belowMinimum: [] } });
    expect(text).toContain('  not exercised: op_1, op_2, op_3, op_4, op_5, op_6, op_7, op_8, and 3 more\n');
  });

  test('observed traffic that was not the API\'s: counted by reason, the first five listed (twenty with --verbose), every line within the width; nothing without any', () => {
    const observed: RunResults = { cells: [cell('products:list', 'status_code_conformance')], errors: [], notApiTraffic: notApiTraffic(25) };
    const text = renderConsoleReport(observed, INFO, { width: 100 });
    expect(text).toContain([
      "Not API traffic (25 exchanges, not judged: 19 a browser's page, script, style, image or font, 6",
      "  another origin than the API's)",
      "  A page's own requests and calls to other origins are not requests of the API: never judged, never",
      '  failed.',
      "  #1 GET http://127.0.0.1:4010/ — a browser's document request (Sec-Fetch-Dest: document)",
      "  #2 GET http://127.0.0.1:4010/assets/chunk-2.js — a browser's script request (Sec-Fetch-Dest:",
      '    script)',
    ].join('\n'));
    expect(text.split('\n').every((line) => line.length <= 100)).toBe(true);
    expect(text.indexOf('Not API traffic')).toBeLessThan(text.indexOf('conformance:'));
    expect(text).toContain('  … and 20 more (the first 20 with --verbose, in report.json and in report.html)');
    expect(text.match(/^  #\d+ /gm)).toHaveLength(5);
    const verbose = renderConsoleReport(observed, INFO, { width: 100, verbose: true });
    expect(verbose.match(/^  #\d+ /gm)).toHaveLength(20);
    expect(verbose).toContain('  … and 5 more\n');
    for (const none of [{ ...observed, notApiTraffic: notApiTraffic(0) }, { cells: observed.cells, errors: [] }]) expect(renderConsoleReport(none, INFO)).not.toContain('Not API traffic');
  });

  test('a failed cell without failures is still shown as a failure', () => {
    const text = renderConsoleReport({ cells: [cell('a', 'x', { status: 'failed' })], errors: [] }, INFO);
    expect(text).toContain('Failures (1 distinct, 1 occurrence)\n\n✗ x on a — failed without recorded failures');
  });

  test('a skipped cell without a reason says so; --verbose lists the cells, wrapped', () => {
    const checks = Array.from({ length: 12 }, (_, i) => `some_check_number_${i}`);
    const results = { cells: checks.map((checkId) => cell('a:list', checkId, { status: 'skipped', cases: 0 })), errors: [] };
    const text = renderConsoleReport(results, INFO);
    expect(text).toContain('Skipped (12 cells that could run; missing: 12 other)\n  12  no reason given\n\n');
    expect(text).not.toContain('a:list: ');
    const verbose = renderConsoleReport(results, INFO, { verbose: true });
    expect(verbose).toContain('  12  no reason given\n      a:list: some_check_number_0,');
    const listLines = verbose.split('\n').filter((line) => line.includes('some_check_number') && line.startsWith('      '));
    expect(listLines.length).toBeGreaterThan(1);
    for (const line of listLines) expect(line.length).toBeLessThanOrEqual(100);
    expect(listLines.join(' ').match(/some_check_number_\d+/g)).toHaveLength(12);
  });

  test('a schema error repeated over the items of a list is shown once with the count', () => {
    const errors = Array.from({ length: 10 }, (_, i) => ({ path: `/items/${i}`, keyword: 'required', message: "must have required property 'is_archived'" }));
    const schema = failure({
      checkId: 'response_schema_conformance',
      kind: 'schema_violation',
      message: `The 200 body does not match its schema: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}.`,
      actual: [...errors, { path: '/pagination/total_count', keyword: 'type', message: 'must be integer' }],
    });
    const text = renderConsoleReport({ cells: [cell('products:list', 'response_schema_conformance', { failures: [schema] })], errors: [] }, INFO);
    expect(text).toContain(
      [
        '  The 200 body does not match its schema:',
        "    /items/* must have required property 'is_archived' (10 items: /items/0 … /items/9)",
        '    /pagination/total_count must be integer',
        '  expected: [200,401,422]',
        '  Reproduce with:',
      ].join('\n'),
    );
    expect(text.match(/is_archived/g)).toHaveLength(1);
  });

  test('the same failure on several operations is shown once, naming the others', () => {
    const on = (operationId: string) => failure({ operationId, caseId: `${operationId}#1` });
    const cells = ['products:list', 'orders:list', 'files:list'].map((operationId) => cell(operationId, 'status_code_conformance', { failures: [on(operationId)] }));
    const text = renderConsoleReport({ cells, errors: [] }, INFO);
    expect(text).toContain('Failures (1 distinct, 3 occurrences)\n\n✗ status_code_conformance on products:list — Undocumented HTTP status code (3 occurrences)\n  also on: orders:list, files:list\n');
  });

  test('the summary of a run whose reporters write files only: errors, report files, summary line', () => {
    const cwdFile = join(process.cwd(), 'conformance-report', 'report.json');
    expect(renderConsoleSummary(RESULTS, INFO, { reportFiles: [cwdFile] })).toBe(
      [
        'Errors (3)',
        '  Problems of the harness or of reaching the target, not failures of the API; the run is inconclusive.',
        '',
        '  ! CNF_ERR_TARGET_UNREACHABLE: the target did not answer',
        '    in files:create > upload, files:get > status',
        '',
        '  ! CNF_ERR_ADAPTER: no order to get',
        '    in status_code_conformance on orders:get',
        '',
        'Reports:',
        `  ${join('conformance-report', 'report.json')}`,
        '',
        'conformance: 4 passed, 2 failed, 1 errored, 3 skipped, 1 not applicable, 2 errors in 3.2s (seed 42)',
        '',
      ].join('\n'),
    );
  });
});

describe('ConsoleReporter', () => {
  function capture(): { out: PassThrough; text: () => string } {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    return { out, text: () => Buffer.concat(chunks).toString('utf8') };
  }

  test('writes a progress line per module and the report at the end, without colours off a TTY', async () => {
    const { out, text } = capture();
    const run = { target: INFO.target, specVersion: '2026-04', seed: 9 };
    const info: ReportInfo = { ...run, startedAt: INFO.startedAt, durationMs: 3210 };
    const reporter = new ConsoleReporter({ ...run, out });
    const first = moduleOf(RESULTS.cells.slice(0, 3), 'suites/products.suite.ts');
    const second = fakeModule([{ fullName: 'orders:list > x', state: 'failed', errors: [{ message: 'ECONNRESET' }] }], [], [], 'suites/orders.suite.ts');

    reporter.onTestRunStart();
    reporter.moduleDone(first.relativeModuleId, collectResults([first]));
    reporter.moduleDone(second.relativeModuleId, collectResults([second]));
    reporter.report(finishResults(collectResults([first, second], [], 'failed')), info);

    const written = text();
    expect(written).not.toMatch(ANSI);
    expect(written.split('\n').slice(0, 2)).toEqual([
      '· suites/products.suite.ts  3 cells: 1 ✓ 1 ✗ 1 –',
      '· suites/orders.suite.ts  0 cells: 0 ✓ 0 ✗ 0 – 1 error',
    ]);
    expect(written).toContain('  spec version  2026-04\n  seed          9\n');
    expect(written).toContain('  ! ECONNRESET\n    in orders:list > x');
    expect(written).toMatch(/\nconformance: 1 passed, 1 failed, 1 skipped, 1 error in 3\.2s \(seed 9\)\n$/);
  });

  test('on a TTY: a live progress line (cells done/total, elapsed, operation), no line per module, cleared before the report', () => {
    const { out, text } = capture();
    Object.assign(out, { isTTY: true, columns: 80 });
    const reporter = new ConsoleReporter({ ...INFO, out, color: false });
    const module = moduleOf(RESULTS.cells.slice(0, 3), 'suites/products.suite.ts');
    reporter.onTestRunStart();
    reporter.onTestModuleCollected(module);
    const tests = [...module.children.allTests()];
    for (const testCase of tests) reporter.onTestCaseResult(testCase);
    reporter.moduleDone(module.relativeModuleId, collectResults([module]));
    reporter.report(finishResults(collectResults([module], [], 'failed')), INFO);
    const written = text();
    // The first result is drawn at once and the last always; the one between falls in the 100 ms interval.
    expect(written).toMatch(/^\r\u001b\[2K… 1\/3 cells · \d+\.\ds · products:list/);
    expect(written).toMatch(/\r\u001b\[2K… 3\/3 cells · \d+\.\ds · products:list\r\u001b\[2K\nConformance run\n/);
    expect(written).not.toContain('suites/products.suite.ts');
  });

  test('off a TTY there is no progress line, only the line per module', () => {
    const { out, text } = capture();
    const reporter = new ConsoleReporter({ ...INFO, out });
    const module = moduleOf(RESULTS.cells.slice(0, 3), 'suites/products.suite.ts');
    reporter.onTestModuleCollected(module);
    for (const testCase of module.children.allTests()) reporter.onTestCaseResult(testCase);
    expect(text()).toBe('');
    reporter.moduleDone(module.relativeModuleId, collectResults([module]));
    expect(text()).toBe('· suites/products.suite.ts  3 cells: 1 ✓ 1 ✗ 1 –\n');
  });

  test('with the document, the reporter prints the coverage block', () => {
    const { out, text } = capture();
    new ConsoleReporter({ ...INFO, out }).report(finishResults(collectResults([moduleOf(RESULTS.cells)], [], 'passed'), { spec, minCoverage: 50 }), INFO);
    expect(text()).toContain('Coverage of the spec (minimum 50%)\n  operations  1/3  33.3%  ✗ below 50%');
    expect(text()).toMatch(/, coverage below 50%\s+in 3\.2s \(seed 42\)\n$/);
  });

  test('color: true forces colours', () => {
    const { out, text } = capture();
    new ConsoleReporter({ ...INFO, out, color: true }).report(finishResults(collectResults([moduleOf(RESULTS.cells)], [], 'passed')), INFO);
    expect(text()).toMatch(ANSI);
  });
});
