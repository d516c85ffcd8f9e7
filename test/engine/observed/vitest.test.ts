// The one-line vitest helper: with useConformance() at the top of a file, every fetch of its tests
// is judged, and a test whose traffic shows a finding fails (here the traffic conforms: the tests
// pass, and the file's results hold the operations they called, judged).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReferenceServer, type RunningReference } from '../../../server/index.js';
import { nonConformingTraffic, useConformance } from '../../../engine/observed/vitest.js';
import { judgeExchange } from '../../../engine/observed/library.js';

const conformance = useConformance();

let reference: RunningReference;
beforeAll(async () => {
  reference = await startReferenceServer({ host: '127.0.0.1', port: 0, rateLimit: false, control: false });
});
afterAll(async () => {
  await reference.close();
});

test('a user test lists products through fetch', async () => {
  const response = await fetch(`${reference.url}/v1/products/?limit=5`, { headers: { authorization: `Bearer ${reference.tokens.admin}`, 'polar-version': '2026-10' } });
  expect(response.status).toBe(200);
});

test('a user test reads an unknown order: a documented 404', async () => {
  const response = await fetch(`${reference.url}/v1/orders/00000000-0000-4000-8000-000000000000`, { headers: { authorization: `Bearer ${reference.tokens.admin}` } });
  expect(response.status).toBe(404);
});

test('the file\'s traffic was judged: both operations passed their checks, nothing failed', () => {
  expect(conformance.failures()).toEqual([]);
  const passed = conformance.results().cells.filter((c) => c.status === 'passed');
  expect(new Set(passed.map((c) => c.operationId))).toEqual(new Set(['products:list', 'orders:get']));
  expect(passed.find((c) => c.operationId === 'products:list' && c.checkId === 'response_schema_conformance')?.cases).toBe(1);
});

test('a test whose traffic shows a finding fails with each finding and its reproducer', async () => {
  const verdict = await judgeExchange({
    request: { method: 'GET', url: 'https://api.example.com/v1/files/', headers: { authorization: 'Bearer t', 'polar-version': '2026-10' } },
    response: { status: 418, headers: { 'content-type': 'application/json' }, body: '{}', json: {}, elapsedMs: 1 },
  }, { apiVersion: '2026-10' });
  const error = nonConformingTraffic(verdict.failures);
  expect(error?.message).toMatch(/^the test's traffic does not conform \(\d+ findings?\):\nstatus_code_conformance on files:list \(undocumented_status_code\): /m);
  expect(error?.message).toContain('Reproduce with: curl ');
  expect(nonConformingTraffic([])).toBeUndefined();
});
