// `conformance run --suites stateful` against a reference started as a remote target: without an
// adapter the scenarios that need one are skipped with the reason; with `--adapter reference`
// they run and pass; a partial adapter runs what it can; `--read-only` skips every scenario; a
// failing adapter is a harness error (exit 2), never a failure of the target; portal_isolation never
// picks a deleted customer that a wrong embedded object names live.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SCENARIOS } from '../../../engine/stateful/registry.js';
import { runConformance, type RunOptions, type RunOutcome } from '../../../cli/run.js';
import type { CellMeta } from '../../../core/types.js';
import { startReferenceServer, type RunningReference } from '../../../server/index.js';

const FIXTURES = path.join(import.meta.dirname, '../adapters/fixtures');
const sink = () => new Writable({ write: (_c, _e, done) => done() });
const byId = (outcome: RunOutcome) => new Map<string, CellMeta>(outcome.results.cells.map((cell) => [cell.checkId, cell]));
const needing = (capability: string) => SCENARIOS.filter((s) => s.capabilities.includes(capability as never)).map((s) => s.id);

describe('the stateful suites against a reference as a remote target', () => {
  let reference: RunningReference;
  let run: (options?: Partial<RunOptions>) => Promise<RunOutcome>;
  beforeAll(async () => {
    reference = await startReferenceServer({ host: '127.0.0.1', port: 0, seed: 9, rateLimit: false });
    const dir = mkdtempSync(path.join(tmpdir(), 'cnf-stateful-'));
    const config = path.join(dir, 'conformance.config.json');
    const roles = Object.fromEntries(['admin', 'reader', 'no_scope', 'other_org', 'customer_session', 'member_session', 'oauth_client'].map((role) => [role, { tokenEnv: `REF_${role.toUpperCase()}` }]));
    const { oauth_client_secret: secret, ...fixtures } = reference.fixtures;
    writeFileSync(config, JSON.stringify({ roles, fixtures }));
    const env = { ...Object.fromEntries(Object.entries(reference.credentials).map(([role, token]) => [`REF_${role.toUpperCase()}`, token])), REF_OAUTH_CLIENT: secret! };
    // Pacing off (rate 0): the reference has no rate limit, and pacing is test/engine/client.test.ts's subject, not this file's.
    run = (options = {}) => runConformance({ target: reference.url, config, env, suites: ['stateful'], seed: 9, rate: 0, reporters: [], out: sink(), ...options });
  });
  afterAll(() => reference?.close());

  test('without an adapter, every scenario that needs one is skipped with the reason; the others pass', async () => {
    const outcome = await run();
    expect(outcome.results.errors).toEqual([]);
    const cells = byId(outcome);
    for (const scenario of SCENARIOS) {
      const cell = cells.get(scenario.id);
      if (scenario.capabilities.length > 0) {
        expect(cell, scenario.id).toMatchObject({ status: 'skipped', skipReason: `needs adapter capability ${scenario.capabilities[0]} (no adapter: pass --adapter FILE)` });
      } else {
        expect(cell?.status, `${scenario.id}: ${cell?.skipReason ?? cell?.failures[0]?.message}`).toBe('passed');
      }
    }
    expect(outcome.exitCode).toBe(0);
  }, 120_000);

  test('a partial adapter module runs the scenarios it can and skips the others with the missing capability', async () => {
    const outcome = await run({ adapter: path.join(FIXTURES, 'partial-adapter.mjs'), checks: ['upload_part_expiry', 'order_paid_transition', 'seat_claim_expired'] });
    const cells = byId(outcome);
    expect(cells.get('upload_part_expiry')?.status).toBe('passed');
    expect(cells.get('order_paid_transition')).toMatchObject({ status: 'skipped', skipReason: 'needs adapter capability createOrder' });
    expect(cells.get('seat_claim_expired')).toMatchObject({ status: 'skipped', skipReason: 'needs adapter capability createSeatInvitation' });
    expect(outcome.exitCode).toBe(0);
  }, 120_000);

  test('with --adapter reference every scenario runs and passes (the customer deleted by the first run is skipped with the reason)', async () => {
    const outcome = await run({ adapter: 'reference' });
    expect(outcome.results.errors).toEqual([]);
    const cells = byId(outcome);
    expect(cells.get('customer_deletion_cascades')).toMatchObject({ status: 'skipped', skipReason: expect.stringContaining('already deleted') });
    const others = SCENARIOS.filter((s) => !s.id.startsWith('customer_deletion'));
    expect(others.filter((s) => cells.get(s.id)?.status !== 'passed').map((s) => `${s.id}: ${cells.get(s.id)?.skipReason ?? cells.get(s.id)?.failures[0]?.message}`)).toEqual([]);
    expect(needing('webhooks').length).toBe(0);
    expect(cells.get('webhook_signed')?.transitions).toEqual(['order: pending→paid']);
    // The cascade scenario owns what it deletes, so it runs on every run; it saw every edge of the cascade.
    expect(cells.get('customer_deletion_cascades_all_states')?.status).toBe('passed');
    expect([...(cells.get('customer_deletion_cascades_all_states')?.transitions ?? [])].sort()).toEqual([
      'license_key: granted→revoked',
      'seat: claimed→revoked',
      'seat: pending→claimed',
      'seat: pending→revoked',
      'subscription: active→canceled',
      'subscription: incomplete→canceled',
      'subscription: past_due→canceled',
      'subscription: paused→canceled',
      'subscription: trialing→canceled',
      'subscription: unpaid→canceled',
    ]);
    expect(outcome.exitCode).toBe(0);
  }, 120_000);

  test('--read-only skips every scenario', async () => {
    const outcome = await run({ adapter: 'reference', readOnly: true });
    // The stateful project also runs the model-based suites (suites/model/): they are skipped too, with their own words.
    const scenarioCells = outcome.results.cells.filter((c) => SCENARIOS.some((s) => s.id === c.checkId));
    expect(scenarioCells).toHaveLength(SCENARIOS.length);
    expect(scenarioCells.every((c) => c.status === 'skipped' && c.skipReason === 'read-only run: the scenario changes state')).toBe(true);
    expect(outcome.results.cells.every((c) => c.status === 'skipped' && c.skipReason?.startsWith('read-only run: '))).toBe(true);
    expect(outcome.exitCode).toBe(0);
  }, 120_000);

  test('a failing adapter is a harness error (exit 2) naming the capability, not a failure of the target', async () => {
    const outcome = await run({ adapter: path.join(FIXTURES, 'failing-adapter.mjs'), checks: ['order_paid_transition'] });
    expect(outcome.results.cells.filter((c) => c.status === 'failed')).toEqual([]);
    expect(outcome.results.errors).toEqual([expect.objectContaining({ code: 'CNF_ERR_ADAPTER', message: expect.stringContaining('adapter "failing back office": createOrder failed: the back office is read-only') })]);
    expect(outcome.exitCode).toBe(2);
  }, 120_000);

  test('an --adapter that is not an adapter module is a bad option (CNF_ERR_CONFIG_INVALID)', async () => {
    await expect(run({ adapter: path.join(FIXTURES, 'no-factory.mjs') })).rejects.toMatchObject({ code: 'CNF_ERR_CONFIG_INVALID' });
    await expect(run({ adapter: path.join(FIXTURES, 'absent.mjs') })).rejects.toMatchObject({ code: 'CNF_ERR_CONFIG_INVALID' });
  });
});

describe('portal_isolation against a target whose subscriptions embed another customer', () => {
  // Under embedded_customer_mismatch every subscription embeds its organization's first customer.
  // Whether the scenario's "other customer" is deleted must not be read from such an embedded
  // object: a deleted customer named live there made the adapter's order creation fail (an errored
  // cell, a harness bug), where the scenario must find a live customer or skip with the reason.
  let reference: RunningReference;
  beforeAll(async () => {
    reference = await startReferenceServer({ host: '127.0.0.1', port: 0, seed: 9, rateLimit: false, faults: ['embedded_customer_mismatch'] });
  });
  afterAll(() => reference?.close());

  test('a deleted customer whose subscriptions embed a live one is never picked: the scenario runs and passes', async () => {
    const headers = { authorization: `Bearer ${reference.credentials.admin}` };
    const listed = (await (await fetch(`${reference.url}/v1/subscriptions/?limit=100`, { headers })).json()) as { items: { customer_id: string; customer: { id: string } }[] };
    const own = reference.fixtures.customer_id!;
    // The first customer the list names that is neither the portal customer nor the one every subscription embeds.
    const victim = listed.items.find((item) => item.customer_id !== own && item.customer_id !== item.customer.id)?.customer_id;
    expect(victim).toBeDefined();
    const customer = (await (await fetch(`${reference.url}/v1/customers/${victim}`, { headers })).json()) as { external_id: string | null };
    expect(customer.external_id).not.toBeNull();
    expect((await fetch(`${reference.url}/v1/customers/external/${customer.external_id}`, { method: 'DELETE', headers })).status).toBe(204);

    const dir = mkdtempSync(path.join(tmpdir(), 'cnf-portal-isolation-'));
    const config = path.join(dir, 'conformance.config.json');
    const roles = Object.fromEntries(['admin', 'customer_session'].map((role) => [role, { tokenEnv: `REF_${role.toUpperCase()}` }]));
    const { oauth_client_secret: _secret, ...fixtures } = reference.fixtures;
    writeFileSync(config, JSON.stringify({ roles, fixtures }));
    const env = { REF_ADMIN: reference.credentials.admin, REF_CUSTOMER_SESSION: reference.credentials.customer_session };
    const outcome = await runConformance({ target: reference.url, config, env, suites: ['stateful'], checks: ['portal_isolation'], adapter: 'reference', seed: 9, rate: 0, reporters: [], out: sink() });
    expect(outcome.results.errors).toEqual([]);
    const cell = byId(outcome).get('portal_isolation');
    expect(cell, `${cell?.error?.message ?? cell?.skipReason ?? ''}`).toMatchObject({ status: 'passed' });
  }, 60_000);
});
