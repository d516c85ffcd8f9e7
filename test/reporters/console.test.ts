import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, test } from 'vitest';
import type { CellMeta } from '../../harness/types.js';
import { ConsoleReporter, renderConsoleReport } from '../../reporters/console.js';
import { computeCoverage } from '../../reporters/coverage.js';
import type { LoadedSpec } from '../../spec/load.js';
import type { RunResults } from '../../reporters/results.js';
import { cell, failure, INFO, skipped } from './fixtures/cells.js';
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
    skipped('products:list', 'ignored_auth', 'needs role other_org'),
    cell('orders:list', 'status_code_conformance'),
    cell('orders:list', 'response_schema_conformance', { failures: [schemaFailure] }),
    skipped('orders:list', 'ignored_auth', 'needs role other_org'),
    skipped('orders:get', 'pagination_limit_respected', 'not a list operation'),
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

operation      1  2  3  4
orders:get           –
orders:list    ✓  ✗     –
products:list  ✗  ✓     –

1  status_code_conformance       3  pagination_limit_respected
2  response_schema_conformance   4  ignored_auth

✓ passed  ✗ failed  – skipped  (blank) not run

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

Skipped (3 cells)
  – needs role other_org (2)
      products:list: ignored_auth
      orders:list: ignored_auth
  – not a list operation (1)
      orders:get: pagination_limit_respected

Errors (2)
  Problems of the harness or of reaching the target, not failures of the API; the run is inconclusive.

  ! CNF_ERR_TARGET_UNREACHABLE: the target did not answer
    in files:create > upload, files:get > status

conformance: 2 passed, 2 failed, 3 skipped, 2 errors in 3.2s (seed 42)
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
    ['30 checks split into blocks that fit 100 columns', {
      cells: manyChecks,
      width: 100,
      headers: [
        // 'subscriptions:list' is 18 wide; 18 + 20 columns of 4 = 98
        `${'operation'.padEnd(18)}${Array.from({ length: 20 }, (_, i) => String(i + 1).padStart(4)).join('')}`,
        `${'operation'.padEnd(18)}${Array.from({ length: 10 }, (_, i) => String(i + 21).padStart(4)).join('')}`,
      ],
    }],
    ['a narrow width makes more blocks', {
      cells: manyChecks.slice(0, 9),
      width: 30,
      headers: ['operation           1  2  3  4', 'operation           5  6  7  8', 'operation           9'],
    }],
  ];
  test.each(table)('%s', (_name, { cells, width, headers }) => {
    const text = renderConsoleReport({ cells, errors: [] }, INFO, { width });
    expect(text.split('\n').filter((line) => line.startsWith('operation'))).toEqual(headers);
    for (const line of text.split('\n').filter((l) => l.startsWith('operation') || l.startsWith('subscriptions'))) {
      expect(line.length).toBeLessThanOrEqual(width);
    }
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

  test('a long operation id is cut to 40 columns', () => {
    const long = `subscriptions:${'x'.repeat(50)}`;
    const text = renderConsoleReport({ cells: [cell(long, 'status_code_conformance')], errors: [] }, INFO);
    expect(text).toContain(`${long.slice(0, 39)}…  ✓`);
  });

  test('a failed cell without failures is still shown as a failure', () => {
    const text = renderConsoleReport({ cells: [cell('a', 'x', { status: 'failed' })], errors: [] }, INFO);
    expect(text).toContain('Failures (1 distinct, 1 occurrence)\n\n✗ x on a — failed without recorded failures');
  });

  test('a skipped cell without a reason says so, and long lists wrap', () => {
    const checks = Array.from({ length: 12 }, (_, i) => `some_check_number_${i}`);
    const text = renderConsoleReport({ cells: checks.map((checkId) => cell('a:list', checkId, { status: 'skipped' })), errors: [] }, INFO);
    expect(text).toContain('  – no reason given (12)\n      a:list: some_check_number_0,');
    const listLines = text.split('\n').filter((line) => line.includes('some_check_number') && line.startsWith('      '));
    expect(listLines.length).toBeGreaterThan(1);
    for (const line of listLines) expect(line.length).toBeLessThanOrEqual(100);
    expect(listLines.join(' ').match(/some_check_number_\d+/g)).toHaveLength(12);
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
    const reporter = new ConsoleReporter({ target: INFO.target, specVersion: '2026-04', seed: 9, out });
    const first = moduleOf(RESULTS.cells.slice(0, 3), 'suites/products.suite.ts');
    const second = fakeModule([{ fullName: 'orders:list > x', state: 'failed', errors: [{ message: 'ECONNRESET' }] }], [], [], 'suites/orders.suite.ts');

    reporter.onTestRunStart();
    reporter.onTestModuleEnd(first);
    reporter.onTestModuleEnd(second);
    reporter.onTestRunEnd([first, second], [], 'failed');

    const written = text();
    expect(written).not.toMatch(ANSI);
    expect(written.split('\n').slice(0, 2)).toEqual([
      '· suites/products.suite.ts  3 cells: 1 ✓ 1 ✗ 1 –',
      '· suites/orders.suite.ts  0 cells: 0 ✓ 0 ✗ 0 – 1 error',
    ]);
    expect(written).toContain('  spec version  2026-04\n  seed          9\n');
    expect(written).toContain('  ! ECONNRESET\n    in orders:list > x');
    expect(written).toMatch(/\nconformance: 1 passed, 1 failed, 1 skipped, 1 error in \d+\.\ds \(seed 9\)\n$/);
  });

  test('with the document, the reporter prints the coverage block', () => {
    const { out, text } = capture();
    new ConsoleReporter({ ...INFO, out, spec, minCoverage: 50 }).onTestRunEnd([moduleOf(RESULTS.cells)], [], 'passed');
    expect(text()).toContain('Coverage of the spec (minimum 50%)\n  operations  1/3  33.3%  ✗ below 50%');
    expect(text()).toMatch(/, coverage below 50% in \d+\.\ds \(seed 42\)\n$/);
  });

  test('color: true forces colours', () => {
    const { out, text } = capture();
    new ConsoleReporter({ ...INFO, out, color: true }).onTestRunEnd([moduleOf(RESULTS.cells)], [], 'passed');
    expect(text()).toMatch(ANSI);
  });
});
