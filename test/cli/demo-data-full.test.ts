// The description's two price types that the default demo store leaves out (unit_based,
// metered_tiers) are still served and checked: a reference started with the full demo store
// (`conformance serve --demo-data full`) passes the harness's default suites on the operations
// whose answers hold prices.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runConformance } from '../../cli/run.js';
import { startReferenceServer, type RunningReference } from '../../server/index.js';

const sink = () => new Writable({ write: (_c, _e, done) => done() });
let reference: RunningReference;

beforeAll(async () => {
  reference = await startReferenceServer({ host: '127.0.0.1', port: 0, rateLimit: false, demoData: 'full' });
});
afterAll(() => reference?.close());

test('the full demo store answers prices of all six types, and the harness passes them', async () => {
  const types = new Set<string>();
  for (let page = 1; page < 50; page++) {
    const response = await fetch(`${reference.url}/v1/products/?limit=100&page=${page}`, { headers: { authorization: `Bearer ${reference.credentials.admin}` } });
    const items = ((await response.json()) as { items: { prices: { amount_type: string }[] }[] }).items;
    if (items.length === 0) break;
    for (const product of items) for (const price of product.prices) types.add(price.amount_type);
  }
  expect([...types].sort()).toEqual(['custom', 'fixed', 'metered_tiers', 'metered_unit', 'seat_based', 'unit_based']);

  const dir = mkdtempSync(path.join(tmpdir(), 'cnf-full-'));
  const config = path.join(dir, 'conformance.config.json');
  const roles = Object.fromEntries(['admin', 'reader', 'no_scope', 'other_org'].map((role) => [role, { tokenEnv: `REF_${role.toUpperCase()}` }]));
  const { oauth_client_secret: _secret, ...fixtures } = reference.fixtures;
  writeFileSync(config, JSON.stringify({ roles, fixtures }));
  const env = Object.fromEntries(Object.entries(reference.credentials).map(([role, token]) => [`REF_${role.toUpperCase()}`, token]));
  // Pacing off (rate 0): the reference has no rate limit.
  const outcome = await runConformance({ target: reference.url, config, env, operations: ['products:list', 'products:get', 'subscriptions:list', 'subscriptions:get'], suites: ['exchange', 'pagination', 'negative'], runs: 5, seed: 24, rate: 0, reporters: [], out: sink() });
  expect(outcome.results.errors).toEqual([]);
  expect(outcome.results.cells.filter((cell) => cell.status === 'failed').map((cell) => `${cell.operationId} ${cell.checkId}: ${cell.failures[0]?.message}`)).toEqual([]);
  expect(outcome.results.cells.filter((cell) => cell.status === 'passed').length).toBeGreaterThan(10);
  expect(outcome.exitCode).toBe(0);
}, 180_000);
