import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { KNOWN_EDGES, STATE_MACHINES, type TransitionCoverage } from '../../engine/stateful/transitions.js';
import type { CellMeta } from '../../core/types.js';
import { computeCoverage } from '../../engine/coverage.js';
import { JsonReporter, MAX_BODY_BYTES, redactHeaders, renderJson, type JsonReport } from '../../reporters/json.js';
import { collectResults, finishResults, type RunResults } from '../../engine/results.js';
import type { ReportInfo } from '../../reporters/run-info.js';
import { cell, failure, INFO, notApiTraffic, skipped, stateful } from './fixtures/cells.js';
import { moduleOf } from './fixtures/modules.js';
import { loadCoverageSpec } from './fixtures/spec.js';
import type { LoadedSpec } from '../../core/spec/load.js';

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
    expect(Object.keys(parsed)).toEqual(['tool', 'version', 'target', 'specVersion', 'specNotes', 'seed', 'startedAt', 'durationMs', 'timings', 'shard', 'merged', 'conformance', 'summary', 'coverage', 'transitions', 'matrix', 'cells', 'errors']);
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
      transitions: null,
      errors: RESULTS.errors,
    });
  });

  test('observed traffic: the exchanges that were not the API\'s, last; a run\'s report has no such field', () => {
    const observed = report({ ...RESULTS, notApiTraffic: notApiTraffic(25) });
    expect(Object.keys(observed).at(-1)).toBe('notApiTraffic');
    expect(observed.notApiTraffic).toEqual(notApiTraffic(25));
    expect(observed.notApiTraffic?.listed).toHaveLength(20);
    expect(report()).not.toHaveProperty('notApiTraffic');
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

describe('transitions', () => {
  /** The transition coverage where exactly `exercised` were seen, every machine and edge in table order. */
  function coverageWith(exercised: string[], unknown: string[] = []): TransitionCoverage {
    return {
      machines: STATE_MACHINES.map((m) => ({ machine: m.machine, edges: m.edges.map((edge) => ({ edge, exercised: exercised.includes(edge) })) })),
      exercised: exercised.length,
      total: KNOWN_EDGES.size,
      unknown,
    };
  }

  const table: [string, { cells: CellMeta[]; want: TransitionCoverage | null }][] = [
    ['no stateful cell: null', { cells: RESULTS.cells, want: null }],
    ['a stateful cell that saw no transition: every edge, none exercised', { cells: [stateful('customers:delete', 'customer_deletion_cascades', [])], want: coverageWith([]) }],
    [
      'edges of passed and failed cells count once; an edge no table has is listed apart',
      {
        cells: [
          ...RESULTS.cells,
          stateful('orders:create', 'order_paid_once', ['order: pending→paid', 'seat: pending→claimed']),
          stateful('customers:delete', 'customer_deletion_cascades', ['seat: pending→claimed', 'subscription: active→canceled', 'order: paid→refunded'], { failures: [failure()] }),
        ],
        want: coverageWith(['order: pending→paid', 'seat: pending→claimed', 'subscription: active→canceled'], ['order: paid→refunded']),
      },
    ],
  ];
  test.each(table)('%s', (_name, { cells, want }) => {
    expect(report({ cells, errors: [] }).transitions).toEqual(want);
  });

  test('each edge carries its own exercised flag', () => {
    const { transitions } = report({ cells: [stateful('customer_seats:claim', 'model_seats', ['seat: pending→claimed', 'seat: claimed→revoked'])], errors: [] });
    expect(transitions?.machines.find((m) => m.machine === 'seat')).toEqual({
      machine: 'seat',
      edges: [
        { edge: 'seat: pending→claimed', exercised: true },
        { edge: 'seat: pending→revoked', exercised: false },
        { edge: 'seat: claimed→revoked', exercised: true },
      ],
    });
    expect(transitions).toMatchObject({ exercised: 2, total: KNOWN_EDGES.size, unknown: [] });
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

  test('writes the report with the timing of the run it is given', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cnf-json-'));
    dirs.push(dir);
    const outputFile = join(dir, 'out', 'report.json');
    const run = { target: INFO.target, specVersion: INFO.specVersion, seed: 5 };
    const info: ReportInfo = { ...run, startedAt: '2026-11-22T06:30:00.000Z', durationMs: 4321 };
    const reporter = new JsonReporter({ ...run, outputFile });
    await reporter.report(finishResults(collectResults([moduleOf(RESULTS.cells)], [{ message: 'late' }], 'failed')), info);
    const written = JSON.parse(await readFile(outputFile, 'utf8')) as JsonReport;
    expect(written.seed).toBe(5);
    expect(written.startedAt).toBe('2026-11-22T06:30:00.000Z');
    expect(written.durationMs).toBe(4321);
    expect(written.summary).toMatchObject({ passed: 1, failed: 1, skipped: 1, errors: 1 });
    expect(written.errors).toEqual([{ where: 'unhandled error', message: 'late' }]);
    expect(written.coverage).toBeNull();
    expect(written.transitions).toBeNull();
  });

  test('with a stateful cell, writes the transition coverage', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cnf-json-'));
    dirs.push(dir);
    const outputFile = join(dir, 'report.json');
    const reporter = new JsonReporter({ ...INFO, outputFile });
    await reporter.report(finishResults(collectResults([moduleOf([...RESULTS.cells, stateful('files:create', 'model_files', ['file: pending→uploaded'])])], [], 'passed')), INFO);
    const written = JSON.parse(await readFile(outputFile, 'utf8')) as JsonReport;
    expect(written.transitions).toMatchObject({ exercised: 1, total: KNOWN_EDGES.size, unknown: [] });
    expect(written.transitions?.machines.find((m) => m.machine === 'file')?.edges).toEqual([{ edge: 'file: pending→uploaded', exercised: true }]);
  });

  test('with the document, writes coverage and which measures are below --min-coverage', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cnf-json-'));
    dirs.push(dir);
    const outputFile = join(dir, 'report.json');
    const reporter = new JsonReporter({ ...INFO, outputFile });
    await reporter.report(finishResults(collectResults([moduleOf(RESULTS.cells)], [], 'passed'), { spec, minCoverage: 30 }), INFO);
    const written = JSON.parse(await readFile(outputFile, 'utf8')) as JsonReport;
    expect(written.coverage?.totals).toEqual({
      operations: { covered: 1, total: 3, percent: 33.3 },
      statuses: { covered: 0, total: 7, percent: 0 },
      parameters: { covered: 0, total: 5, percent: 0 },
    });
    expect(written.coverage).toMatchObject({ minPercent: 30, belowMinimum: ['statuses', 'parameters'] });
  });
});
