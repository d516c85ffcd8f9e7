// Every family of model-based commands against real reference servers (127.0.0.1, free ports):
// the clean reference passes, and a fault that breaks a family's model fails it with a short,
// readable shrunk command list that names the faulted command and replays from its seed and path.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FAMILIES } from '../../../engine/stateful/families.js';
import type { FamilyId } from '../../../engine/stateful/registry.js';
import type { CommandEnv } from '../../../engine/stateful/real.js';
import { runFamily } from '../../../engine/stateful/run-family.js';
import { guardAdapter } from '../../../engine/adapters/load.js';
import { createReferenceAdapter } from '../../../engine/adapters/reference.js';
import { createClient } from '../../../engine/client.js';
import { DEFAULT_TIMEOUT_MS } from '../../../cli/config.js';
import type { Target } from '../../../core/target.js';
import type { Role } from '../../../core/types.js';
import { startReferenceServer, type RunningReference } from '../../../server/index.js';
import { loadSpec, type LoadedSpec } from '../../../core/spec/load.js';

const SEED = 20261122;
const spec: LoadedSpec = await loadSpec();

/** A reference with `faults` and the command env over it (its roles, fixtures and control API adapter). */
async function referenceEnv(faults: string[] = [], options: { adapter?: boolean; readOnly?: boolean } = {}): Promise<{ env: CommandEnv; close: () => Promise<void> }> {
  const running: RunningReference = await startReferenceServer({ host: '127.0.0.1', port: 0, seed: 1, rateLimit: false, faults });
  const roles: Target['roles'] = {};
  for (const [role, token] of Object.entries(running.credentials)) roles[role as Role] = { token };
  const target: Target = { baseUrl: running.url, kind: 'remote', roles, fixtures: running.fixtures, requestsPerSecond: null, timeoutMs: DEFAULT_TIMEOUT_MS, readOnly: options.readOnly ?? false };
  const client = createClient(target);
  const adapter = options.adapter === false ? undefined : guardAdapter(createReferenceAdapter(target), 'reference adapter');
  return {
    env: { spec, target, client, clientFor: () => client, adapter, seed: SEED },
    async close() {
      await adapter?.close?.();
      await client.close();
      await running.close();
    },
  };
}

describe('against the clean reference', () => {
  let reference: Awaited<ReturnType<typeof referenceEnv>>;
  beforeAll(async () => {
    reference = await referenceEnv();
  });
  afterAll(() => reference?.close());

  test.each(Object.keys(FAMILIES) as FamilyId[])('%s passes', async (id) => {
    const outcome = await runFamily({ family: FAMILIES[id], env: reference.env, runSeed: SEED, numRuns: 5 });
    expect(outcome.failure?.finding).toBeUndefined();
    expect(outcome).toMatchObject({ status: 'passed', runs: 5 });
  });

  test('the sequences take the transitions of the tables, and the family operation is observed', async () => {
    const seats = await runFamily({ family: FAMILIES.seats, env: reference.env, runSeed: SEED, numRuns: 5 });
    expect(seats.transitions).toContain('seat: pending→claimed');
    expect(seats.observed.statuses).toEqual(expect.arrayContaining([200, 422]));
    const customers = await runFamily({ family: FAMILIES.customers, env: reference.env, runSeed: SEED, numRuns: 5 });
    expect(customers.transitions).toEqual(expect.arrayContaining(['customer: active→deleted', 'subscription: active→canceled']));
  });
});

describe('against a faulted reference', () => {
  // [family, fault, the shrunk sequence's last command, most commands]
  test.each([
    ['seats', 'invitation_token_reusable', /^claimSeat\(s\d\)\[reused\]$/, 4, 'seats.invitation_single_use'],
    ['orders', 'invoice_generated_implicitly', /^(getInvoice\(o\d(, portal)?\)\[not generated\]|updateBilling\(o\d(, portal)?\))$/, 3, undefined],
    ['product-benefits', 'benefits_foreign_accepted', /^replaceBenefits\(\[.*foreign.*\]\)\[refused\]$/, 2, 'products.benefits_same_organization'],
    ['customers', 'no_cascade_on_delete', /^listSubscriptions\(c\d\[deleted\]\)$/, 3, 'customers.delete_external.cancels_subscriptions'],
    ['files', 'upload_checksum_ignored', /^putPart\(f\d, \d\)\[wrong bytes\]$/, 3, 'files.part_checksum_verified'],
  ] as const)('%s fails on %s with a short shrunk sequence that replays', async (id, fault, last, most, rule) => {
    const reference = await referenceEnv([fault]);
    try {
      const outcome = await runFamily({ family: FAMILIES[id], env: reference.env, runSeed: SEED, numRuns: 10 });
      expect(outcome.status).toBe('failed');
      const failure = outcome.failure!;
      const commands = failure.commands.split(' → ');
      expect(commands.length).toBeLessThanOrEqual(most);
      expect(commands.at(-1)).toMatch(last);
      if (rule) expect(failure.finding.rule).toBe(rule);
      expect(failure).toMatchObject({ seed: SEED, path: expect.stringMatching(/^\d+(:\d+)*@[A-Za-z0-9+/]*:[A-Za-z0-9+/]*$/) });
      const replayed = await runFamily({ family: FAMILIES[id], env: reference.env, runSeed: SEED, numRuns: 10, path: failure.path });
      expect(replayed.status).toBe('failed');
      expect(replayed.failure!.commands).toBe(failure.commands);
    } finally {
      await reference.close();
    }
  });
});

describe('a target whose events never come', () => {
  test('the orders family fails the same whether the adapter says its log is current or not, and reads the log once per step when it does', async () => {
    const reference = await referenceEnv(['event_skipped']);
    try {
      const adapter = reference.env.adapter!;
      expect(adapter.eventsAtOnce).toBe(true);
      const counted = (eventsAtOnce: boolean) => {
        const seen = { reads: 0 };
        const { eventsAtOnce: _said, ...rest } = adapter;
        const wrapped = { ...rest, ...(eventsAtOnce ? { eventsAtOnce } : {}), listEvents: async (filter?: { type?: string }) => (seen.reads++, adapter.listEvents!(filter)) };
        return { env: { ...reference.env, adapter: wrapped }, seen };
      };
      const current = counted(true);
      const lagging = counted(false);
      const found = await runFamily({ family: FAMILIES.orders, env: current.env, runSeed: SEED, numRuns: 2 });
      expect(found.status).toBe('failed');
      // The shrunk sequence replayed (no shrinking) with each adapter: the same failure; a log said to
      // lag is polled at the failing step (every 150 ms for a second), one said to be current is read once.
      current.seen.reads = 0;
      const once = await runFamily({ family: FAMILIES.orders, env: current.env, runSeed: SEED, numRuns: 2, path: found.failure!.path });
      const polled = await runFamily({ family: FAMILIES.orders, env: lagging.env, runSeed: SEED, numRuns: 2, path: found.failure!.path });
      expect(once.failure!.commands).toBe(found.failure!.commands);
      expect(polled.failure!.commands).toBe(found.failure!.commands);
      expect(polled.failure!.finding.kind).toBe(once.failure!.finding.kind);
      expect(lagging.seen.reads).toBeGreaterThanOrEqual(current.seen.reads + 4);
    } finally {
      await reference.close();
    }
  });
});

describe('a target that cannot run a family', () => {
  test.each([
    ['a read-only run', { readOnly: true }, 'orders', 'read-only run: the commands change state', 'option'],
    ['no adapter', { adapter: false }, 'orders', 'needs adapter capability createOrder (no adapter: pass --adapter FILE)', 'adapter'],
  ] as const)('%s: skipped with the reason', async (_name, options, id, reason, kind) => {
    const reference = await referenceEnv([], options);
    try {
      expect(await runFamily({ family: FAMILIES[id], env: reference.env, runSeed: SEED, numRuns: 1 })).toMatchObject({ status: 'skipped', skip: { reason, kind }, runs: 0 });
    } finally {
      await reference.close();
    }
  });
});
