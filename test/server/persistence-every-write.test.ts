// Every acknowledged write survives a restart, whatever made it: for each operation of the bundled
// document that changes state (found in the document, so that an operation added later is covered
// without editing this file) and each POST route of the control API (found by registering them),
// the test makes a valid write on a fixture made for it (engine/write-cases.ts, as a run does),
// uploads the parts of the file it creates, reads its effect back, then kills the server (kill -9, and SIGTERM), restarts it on the same
// state file and asks again. Two proofs: the read-backs answer the same, and the whole store the
// restarted server holds equals the one the killed server held (server/persistence.ts
// snapshotStore, over IPC), which catches a change that no read-back shows. The fault
// write_not_persisted (changes of orders never journaled) must make it fail.
// @see docs/reference-server.md (State file); server/state-journal.ts
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnUntilLine } from '../../bench/child-line.js';
import { createReferenceAdapter } from '../../engine/adapters/reference.js';
import { sendPlanned } from '../../engine/cell/evidence.js';
import { createClient } from '../../engine/client.js';
import { defaultTokenEnv } from '../../core/target.js';
import { roleFor } from '../../core/operation-needs.js';
import type { Target } from '../../core/target.js';
import type { Exchange, Role } from '../../core/types.js';
import { writeCaseMaker, writeTestCase, type PlannedRequest } from '../../engine/write-cases.js';
import { registerControlRoutes, type ReferenceControl } from '../../server/control.js';
import type { StoreSnapshot } from '../../server/persistence.js';
import { loadSpec } from '../../core/spec/load.js';

const CHILD = fileURLToPath(new URL('./persistence-child.ts', import.meta.url));
const spec = await loadSpec();
const children = new Set<ChildProcess>();
/** A webhook receiver that accepts every delivery. */
const receiver = await (async () => {
  const server = createServer((request, response) => request.resume().on('end', () => response.writeHead(204).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
})();

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await receiver.close();
});

interface Started {
  child: ChildProcess;
  url: string;
  credentials: Record<string, string>;
  fixtures: Record<string, string>;
}

async function start(file: string, faults: readonly string[]): Promise<Started> {
  // Webhooks on: the deliveries the writes cause are changes of the store too (its delivery log).
  const { child, first } = await spawnUntilLine<Omit<Started, 'child'>>([CHILD, file, '0', faults.join(','), 'webhooks'], 30_000, { ipc: true });
  children.add(child);
  return { child, ...first };
}

/** The child's live store, as snapshotStore encodes it. */
function liveStore(child: ChildProcess): Promise<StoreSnapshot> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve(message as StoreSnapshot));
    child.send('snapshot');
  });
}

async function stop(child: ChildProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
  children.delete(child);
}

/** The target of a child, with every role as the embedded run has them. */
function targetOf(started: Started): Target {
  const roles: Target['roles'] = {};
  for (const [role, token] of Object.entries(started.credentials)) roles[role as Role] = { token, env: defaultTokenEnv(role as Role) };
  if (started.fixtures.oauth_client_secret) roles.oauth_client = { token: started.fixtures.oauth_client_secret };
  return { baseUrl: started.url, kind: 'embedded', roles, fixtures: started.fixtures, requestsPerSecond: null, timeoutMs: 10_000, readOnly: false, headers: { 'polar-version': spec.version } };
}

/** The POST routes of the control API and its GET routes (reads), as registerControlRoutes declares them. */
function controlRoutes(): { posts: string[]; gets: string[] } {
  const posts: string[] = [];
  const gets: string[] = [];
  const app = { post: (url: string) => posts.push(url), get: (url: string) => gets.push(url) } as unknown as FastifyInstance;
  registerControlRoutes(app, {} as ReferenceControl);
  return { posts, gets };
}

/** How a control route is called: its path parameters and body, made on the target (setup calls go through the control API too). */
type ControlRecipe = (
  call: (url: string, body?: unknown) => Promise<Record<string, unknown>>,
  fixtures: Record<string, string>,
  receiver: string,
  read: (url: string) => Promise<Record<string, unknown>>,
) => Promise<{ params?: Record<string, string>; body: unknown }>;

const CONTROL_RECIPES: Readonly<Record<string, ControlRecipe>> = {
  '/__control/reset': async () => ({ body: {} }),
  // A data file in place of the store; sent first, and the reset after it brings the demo store back for the other recipes.
  '/__control/data': async () => ({ body: { organizations: [{ name: 'Loaded before the reset', customers: [{ email: 'loaded@example.com' }] }] } }),
  // A subscription on the test clock first, so that the advance renews it (a new period, a paid order, events).
  '/__control/clock/advance': async (call, fixtures) => {
    await call('/__control/test-clock/subscriptions', { customer_id: fixtures.customer_id });
    return { body: { ms: 32 * 86_400_000 } };
  },
  '/__control/test-clock/subscriptions': async (_call, fixtures) => ({ body: { customer_id: fixtures.customer_id, trial_days: 7 } }),
  '/__control/subscriptions/:id/payment-failures': async (call, fixtures) => ({ params: { id: String((await call('/__control/test-clock/subscriptions', { customer_id: fixtures.customer_id })).id) }, body: { fail: true } }),
  '/__control/orders': async () => ({ body: {} }),
  '/__control/orders/:id/complete': async (call) => ({ params: { id: String((await call('/__control/orders', {})).id) }, body: {} }),
  '/__control/orders/:id/refunds': async (call) => {
    const id = String((await call('/__control/orders', {})).id);
    await call(`/__control/orders/${id}/complete`, {});
    return { params: { id }, body: { amount: 1 } };
  },
  '/__control/customers': async () => ({ body: { external_id: 'kept-after-restart' } }),
  '/__control/products': async () => ({ body: { name: 'Kept after restart' } }),
  '/__control/subscriptions': async (_call, fixtures) => ({ body: { customer_id: fixtures.customer_id, status: 'active' } }),
  '/__control/license-keys': async (_call, fixtures) => ({ body: { customer_id: fixtures.customer_id } }),
  '/__control/seat-invitations': async () => ({ body: { email: 'kept@example.com' } }),
  '/__control/authorization-codes': async () => ({ body: {} }),
  // An endpoint of every order event, delivered to this test's receiver: the writes after it cause deliveries.
  '/__control/webhook-endpoints': async (_call, _fixtures, receiver) => ({ body: { url: `${receiver}/kept`, events: ['order.created', 'order.updated', 'order.paid', 'order.refunded'] } }),
  '/__control/webhook-endpoints/:id/enabled': async (call, _fixtures, receiver) => ({ params: { id: String((await call('/__control/webhook-endpoints', { url: `${receiver}/off`, events: ['order.paid'] })).id) }, body: { enabled: false } }),
  '/__control/webhook-deliveries/settle': async () => ({ body: { timeout_ms: 0 } }),
  // An attempt of an order's event to this test's receiver, sent once more.
  '/__control/webhook-deliveries/:id/resend': async (call, _fixtures, receiver, read) => {
    await call('/__control/webhook-endpoints', { url: `${receiver}/resent`, events: ['order.created'] });
    await call('/__control/orders', {});
    await call('/__control/webhook-deliveries/settle', { timeout_ms: 10_000 });
    const { items } = (await read('/__control/webhook-deliveries?event_type=order.created')) as { items: { id: string; status: string }[] };
    return { params: { id: items.find((attempt) => attempt.status === 'succeeded')!.id }, body: {} };
  },
};

/** A read-back's answer, comparable across a restart: presigned URLs (signed with the time they were made) lose their query. */
function comparable(exchange: Exchange): { status: number | undefined; json: unknown } {
  // The restarted server listens on another port: its own URLs (a control path, an introspection's iss) are compared without their origin.
  const json = JSON.parse(JSON.stringify(exchange.response?.json ?? null, (_key, value: unknown) => (typeof value === 'string' && /^https?:\/\/127\.0\.0\.1:\d+(\/|$)/.test(value) ? new URL(value).pathname : value)));
  return { status: exchange.response?.status, json };
}

/** What differs between two encoded stores (records by collection and id, logs, maps, clock); ids handed out after a crash skip ahead, so the id sequence is left out. */
function storeDifferences(before: StoreSnapshot, after: StoreSnapshot): string[] {
  const differences: string[] = [];
  if (before.clockOffsetMs !== after.clockOffsetMs) differences.push(`clock offset ${before.clockOffsetMs} -> ${after.clockOffsetMs}`);
  const keyed = (value: unknown): Map<string, string> => {
    const entries = Array.isArray(value) ? value : ((value as { $m?: unknown[] } | null)?.$m ?? []);
    return new Map(entries.map((entry, i) => {
      const id = Array.isArray(entry) ? JSON.stringify(entry[0]) : ((entry as { id?: unknown; $same?: unknown[] }).id ?? (entry as { $same?: unknown[] }).$same?.[1] ?? JSON.stringify((entry as { digest?: unknown }).digest) ?? String(i));
      return [String(id), JSON.stringify(entry)];
    }));
  };
  for (const field of new Set([...Object.keys(before.data), ...Object.keys(after.data)])) {
    const was = keyed(before.data[field]);
    const is = keyed(after.data[field]);
    for (const [id, text] of was) {
      if (!is.has(id)) differences.push(`${field} ${id}: lost`);
      else if (is.get(id) !== text) differences.push(`${field} ${id}: ${text.slice(0, 300)} -> ${is.get(id)!.slice(0, 300)}`);
    }
    for (const id of is.keys()) if (!was.has(id)) differences.push(`${field} ${id}: appeared`);
  }
  return differences;
}

/** One acknowledged write and how its effect reads back. */
interface Acknowledged {
  what: string;
  readBack?: PlannedRequest;
  answer?: { status: number | undefined; json: unknown };
}

/** Sends a write of every state-changing operation of the document and every control POST route; returns them acknowledged, with their read-backs' answers. */
async function writeEverything(started: Started): Promise<Acknowledged[]> {
  const target = targetOf(started);
  const client = createClient(target, { breaker: null });
  const adapter = createReferenceAdapter(target, client);
  const acknowledged: Acknowledged[] = [];
  try {
    // The control API first, a data load and a reset at its head: either, made after the document's writes, would wipe them.
    const { posts } = controlRoutes();
    const call = async (url: string, body: unknown = {}) => {
      const response = await fetch(`${started.url}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const text = await response.text();
      expect(response.ok, `POST ${url} answered ${response.status}: ${text}`).toBe(true);
      return JSON.parse(text) as Record<string, unknown>;
    };
    const first = ['/__control/data', '/__control/reset'];
    const rank = (route: string) => (first.includes(route) ? first.indexOf(route) : first.length);
    for (const route of [...posts].sort((a, b) => rank(a) - rank(b))) {
      const recipe = CONTROL_RECIPES[route];
      expect(recipe, `the control route POST ${route} has a recipe in CONTROL_RECIPES`).toBeDefined();
      const read = async (url: string) => (await (await fetch(`${started.url}${url}`)).json()) as Record<string, unknown>;
      const { params = {}, body } = await recipe!(call, started.fixtures, receiver.url, read);
      await call(route.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(params[name]!)), body);
      acknowledged.push({ what: `POST ${route}` });
    }
    const writes = spec.operations.filter((operation) => !['GET', 'HEAD', 'OPTIONS'].includes(operation.method));
    expect(writes.length).toBeGreaterThan(5);
    for (const operation of writes) {
      const maker = writeCaseMaker(spec, operation, target, adapter);
      expect(maker.unavailable, `${operation.operationId}: a write case can be made on the reference`).toBeUndefined();
      const role = roleFor(operation);
      const fixture = await maker.make(role, 0);
      const write = await client.send(operation, writeTestCase(operation, fixture, role, `${operation.operationId}#restart`));
      const status = write.response?.status ?? 0;
      expect(status >= 200 && status < 300, `${operation.operationId} answered ${status}: ${write.response?.body.slice(0, 300)}`).toBe(true);
      // The parts of a new file go to URLs the reference serves itself (not in the document): a write too.
      const parts = (write.response?.json as { upload?: { parts?: { url: string; chunk_start: number; chunk_end: number }[] } } | undefined)?.upload?.parts ?? [];
      for (const part of parts) {
        const put = await fetch(part.url, { method: 'PUT', body: Buffer.alloc(part.chunk_end - part.chunk_start + 1, 'k') });
        expect(put.status, `PUT ${new URL(part.url).pathname} of ${operation.operationId}`).toBe(200);
      }
      const readBack = fixture.readBackAfter?.(write);
      const entry: Acknowledged = { what: `${operation.method} ${operation.path} (${operation.operationId})` };
      if (readBack) {
        entry.readBack = readBack;
        entry.answer = comparable(await sendPlanned(client, readBack, `${operation.operationId}#read`));
        // A deletion reads back 404; whatever it is, the restart must not change it.
        expect(entry.answer.status, `${operation.operationId}: the effect reads back`).toBeDefined();
      }
      acknowledged.push(entry);
    }
  } finally {
    await adapter.close?.();
    await client.close();
  }
  return acknowledged;
}

/** Reads every effect again on the restarted server: the answers that differ. */
async function readAgain(started: Started, acknowledged: readonly Acknowledged[]): Promise<string[]> {
  const client = createClient(targetOf(started), { breaker: null });
  const differ: string[] = [];
  try {
    for (const write of acknowledged) {
      if (!write.readBack) continue;
      // No polling: after a restart the effect is there or it is lost.
      const again = comparable(await sendPlanned(client, { ...write.readBack, eventuallyMs: 0 }, 'again'));
      if (JSON.stringify(again) !== JSON.stringify(write.answer)) differ.push(`${write.what}: ${JSON.stringify(write.answer).slice(0, 200)} -> ${JSON.stringify(again).slice(0, 200)}`);
    }
  } finally {
    await client.close();
  }
  return differ;
}

/** Writes everything, stops the server with `signal`, restarts it on the same file: what the restart lost. */
async function restartAfterWrites(signal: 'SIGKILL' | 'SIGTERM', faults: readonly string[] = []): Promise<{ acknowledged: Acknowledged[]; store: string[]; reads: string[] }> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'cnf-every-write-')), 'state.json');
  const first = await start(file, faults);
  const acknowledged = await writeEverything(first);
  // The deliveries the writes caused, done: they are part of the store compared.
  const settled = await fetch(`${first.url}/__control/webhook-deliveries/settle`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"timeout_ms":10000}' });
  expect(settled.status).toBe(200);
  const before = await liveStore(first.child);
  expect(before.data.deliveries, 'the writes caused webhook deliveries').not.toEqual([]);
  await stop(first.child, signal);
  const second = await start(file, faults);
  try {
    const after = await liveStore(second.child);
    return { acknowledged, store: storeDifferences(before, after), reads: await readAgain(second, acknowledged) };
  } finally {
    await stop(second.child, 'SIGKILL');
  }
}

describe('every acknowledged write survives a restart', () => {
  const { posts, gets } = controlRoutes();

  it('knows every route of the control API: a POST has a recipe, and the GET routes are reads', () => {
    expect(posts.filter((route) => !CONTROL_RECIPES[route])).toEqual([]);
    expect(Object.keys(CONTROL_RECIPES).filter((route) => !posts.includes(route))).toEqual([]);
    expect(gets.sort()).toEqual(['/__control/clock', '/__control/events', '/__control/overview', '/__control/webhook-deliveries']);
  });

  it.each(['SIGKILL', 'SIGTERM'] as const)('after %s: every write of the document and of the control API reads back the same, and the whole store is the same', async (signal) => {
    const { acknowledged, store, reads } = await restartAfterWrites(signal);
    const uploaded = acknowledged.find((write) => write.what.includes('files:create'))?.answer?.json as { items?: { is_uploaded?: boolean }[] } | undefined;
    expect(uploaded?.items?.[0]?.is_uploaded).toBe(true);
    const documentWrites = spec.operations.filter((operation) => !['GET', 'HEAD', 'OPTIONS'].includes(operation.method)).length;
    expect(acknowledged.length).toBe(posts.length + documentWrites);
    expect(acknowledged.filter((write) => write.readBack).length).toBeGreaterThan(4);
    expect(reads).toEqual([]);
    expect(store).toEqual([]);
  }, 120_000);

  it('fails with the fault write_not_persisted: the orders it changed are not the same after a kill -9', async () => {
    const { store, reads } = await restartAfterWrites('SIGKILL', ['write_not_persisted']);
    expect(store.some((difference) => difference.startsWith('orders '))).toBe(true);
    expect(reads.some((difference) => difference.includes('orders:update'))).toBe(true);
  }, 120_000);
});
