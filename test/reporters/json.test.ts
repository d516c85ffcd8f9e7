import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { computeCoverage } from '../../reporters/coverage.js';
import { JsonReporter, MAX_BODY_BYTES, redactHeaders, renderJson, type JsonReport } from '../../reporters/json.js';
import type { RunResults } from '../../reporters/results.js';
import { cell, failure, INFO, skipped } from './fixtures/cells.js';
import { moduleOf } from './fixtures/modules.js';
import { loadCoverageSpec } from './fixtures/spec.js';
import type { LoadedSpec } from '../../spec/load.js';

let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadCoverageSpec();
});

const FAILED = cell('products:list', 'status_code_conformance', { failures: [failure()] });
const RESULTS: RunResults = {
  cells: [FAILED, cell('products:list', 'response_schema_conformance'), skipped('orders:get', 'ignored_auth', 'needs role other_org')],
  errors: [{ where: 'run', message: 'the run was interrupted before every test finished; the matrix is incomplete' }],
};

function report(results: RunResults = RESULTS): JsonReport {
  return JSON.parse(renderJson(results, INFO)) as JsonReport;
}

describe('renderJson', () => {
  test('has the documented top-level fields, in order', () => {
    const text = renderJson(RESULTS, INFO);
    expect(text.endsWith('}\n')).toBe(true);
    const parsed = JSON.parse(text) as JsonReport;
    expect(Object.keys(parsed)).toEqual(['tool', 'version', 'target', 'specVersion', 'seed', 'startedAt', 'durationMs', 'summary', 'coverage', 'matrix', 'cells', 'errors']);
    expect(parsed).toMatchObject({
      tool: pkg.name,
      version: pkg.version,
      target: 'http://127.0.0.1:4010',
      specVersion: '2026-10',
      seed: 42,
      startedAt: '2026-11-22T05:00:00.000Z',
      durationMs: 3210,
      summary: { passed: 1, failed: 1, skipped: 1, errors: 1, failures: 1, operations: 2, checks: 3, cases: 20 },
      coverage: null,
      errors: RESULTS.errors,
    });
  });

  test('the matrix has null where a check did not run', () => {
    expect(report().matrix).toEqual({
      operations: ['orders:get', 'products:list'],
      checks: ['status_code_conformance', 'response_schema_conformance', 'ignored_auth'],
      statuses: [
        [null, null, 'skipped'],
        ['failed', 'passed', null],
      ],
    });
  });

  test('failures carry request, response, expected, actual and reproduce; credentials are redacted', () => {
    const [reported] = report().cells[0]!.failures;
    const original = FAILED.failures[0]!;
    expect(reported).toEqual({
      ...original,
      request: { ...original.request, headers: { authorization: 'Bearer [redacted]', accept: 'application/json' } },
    });
    expect(renderJson(RESULTS, INFO)).not.toContain('polar_oat_secret');
  });

  test('coverage is the computed coverage, as JSON', () => {
    const coverage = computeCoverage(spec, [cell('products:list', 'x', { observed: { statuses: [200], parameters: ['query:limit'] } })], 50);
    expect(JSON.parse(renderJson(RESULTS, INFO, coverage)).coverage).toEqual(coverage);
    expect(coverage.belowMinimum).toEqual(['operations', 'statuses', 'parameters']);
  });

  test('skipped cells keep their reason', () => {
    expect(report().cells[2]).toEqual({ ...RESULTS.cells[2] });
  });

  test('bodies over 1 MiB are cut and flagged, and the parsed copy dropped', () => {
    const big = 'é'.repeat(MAX_BODY_BYTES); // 2 bytes each: twice the limit
    const huge = failure({
      request: { method: 'POST', url: 'http://x/v1/files/', headers: {}, body: big },
      response: { status: 413, headers: {}, body: big, json: { a: 1 }, elapsedMs: 1 },
    });
    const [reported] = report({ cells: [cell('files:create', 'x', { failures: [huge] })], errors: [] }).cells[0]!.failures;
    expect(Buffer.byteLength(reported!.request.body!, 'utf8')).toBe(MAX_BODY_BYTES);
    expect(reported!.request.bodyTruncated).toBe(true);
    expect(Buffer.byteLength(reported!.response!.body, 'utf8')).toBe(MAX_BODY_BYTES);
    expect(reported!.response).not.toHaveProperty('json');
    expect(reported!.response!.bodyTruncated).toBe(true);
  });

  test('a failure without a response (a transport error) has none', () => {
    const [reported] = report({ cells: [cell('a', 'x', { failures: [failure({ response: undefined })] })], errors: [] }).cells[0]!.failures;
    expect(reported).not.toHaveProperty('response');
  });
});

describe('redactHeaders', () => {
  const table: [string, { given: Record<string, string>; want: Record<string, string> }][] = [
    ['bearer keeps its scheme', { given: { authorization: 'Bearer abc' }, want: { authorization: 'Bearer [redacted]' } }],
    ['basic keeps its scheme', { given: { Authorization: 'Basic dXNlcjpwYXNz' }, want: { Authorization: 'Basic [redacted]' } }],
    ['cookies', { given: { cookie: 'sid=1', 'set-cookie': 'sid=2; HttpOnly' }, want: { cookie: '[redacted]', 'set-cookie': '[redacted]' } }],
    ['other headers untouched', { given: { accept: 'application/json', 'x-request-id': 'r1' }, want: { accept: 'application/json', 'x-request-id': 'r1' } }],
  ];
  test.each(table)('%s', (_name, { given, want }) => {
    expect(redactHeaders(given)).toEqual(want);
  });
});

describe('JsonReporter', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  test('writes the report with the measured timing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cnf-json-'));
    dirs.push(dir);
    const outputFile = join(dir, 'out', 'report.json');
    const reporter = new JsonReporter({ target: INFO.target, specVersion: INFO.specVersion, seed: 5, outputFile });
    const before = Date.now();
    reporter.onTestRunStart();
    await reporter.onTestRunEnd([moduleOf(RESULTS.cells)], [{ message: 'late' }], 'failed');
    const written = JSON.parse(await readFile(outputFile, 'utf8')) as JsonReport;
    expect(written.seed).toBe(5);
    expect(Date.parse(written.startedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(written.durationMs).toBeGreaterThanOrEqual(0);
    expect(written.summary).toMatchObject({ passed: 1, failed: 1, skipped: 1, errors: 1 });
    expect(written.errors).toEqual([{ where: 'unhandled error', message: 'late' }]);
    expect(written.coverage).toBeNull();
  });

  test('with the document, writes coverage and which measures are below --min-coverage', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cnf-json-'));
    dirs.push(dir);
    const outputFile = join(dir, 'report.json');
    const reporter = new JsonReporter({ ...INFO, outputFile, spec, minCoverage: 30 });
    await reporter.onTestRunEnd([moduleOf(RESULTS.cells)], [], 'passed');
    const written = JSON.parse(await readFile(outputFile, 'utf8')) as JsonReport;
    expect(written.coverage?.totals).toEqual({
      operations: { covered: 1, total: 3, percent: 33.3 },
      statuses: { covered: 0, total: 7, percent: 0 },
      parameters: { covered: 0, total: 5, percent: 0 },
    });
    expect(written.coverage).toMatchObject({ minPercent: 30, belowMinimum: ['statuses', 'parameters'] });
  });
});
