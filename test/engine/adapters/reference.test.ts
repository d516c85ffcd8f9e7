// The target adapter: the reference adapter against a real reference server (127.0.0.1, a free
// port), adapter modules, capability checks and the errors of each.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AdapterError, capabilitiesOf, missingCapability, outsideOperation, ADAPTER_CAPABILITIES, type TargetAdapter } from '../../../core/adapter.js';
import { guardAdapter, importAdapterFactory, loadAdapter, resolveAdapterOption } from '../../../engine/adapters/load.js';
import { createReferenceAdapter } from '../../../engine/adapters/reference.js';
import { DEFAULT_TIMEOUT_MS } from '../../../cli/config.js';
import type { Target } from '../../../core/target.js';
import { startReferenceServer, type RunningReference } from '../../../server/index.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const targetOf = (baseUrl: string): Target => ({ baseUrl, kind: 'remote', roles: {}, fixtures: {}, requestsPerSecond: null, timeoutMs: DEFAULT_TIMEOUT_MS, readOnly: false });

describe('the reference adapter against a reference server', () => {
  let reference: RunningReference;
  let adapter: TargetAdapter;
  beforeAll(async () => {
    reference = await startReferenceServer({ host: '127.0.0.1', port: 0, seed: 3 });
    adapter = createReferenceAdapter(targetOf(reference.url));
  });
  afterAll(async () => {
    await adapter?.close?.();
    await reference?.close();
  });

  test('has every capability, and says its event log is current once a write is answered', () => {
    expect(capabilitiesOf(adapter)).toEqual([...ADAPTER_CAPABILITIES]);
    expect(adapter.eventsAtOnce).toBe(true);
    expect(missingCapability(adapter, [...ADAPTER_CAPABILITIES])).toBeUndefined();
  });

  test('createOrder makes a pending order that completeOrder makes paid, with their events', async () => {
    const order = await adapter.createOrder!({ customerId: reference.fixtures.customer_id! });
    expect(order).toMatchObject({ status: 'pending', paid: false, customer_id: reference.fixtures.customer_id });
    const completed = await adapter.completeOrder!(order.id as string);
    expect(completed).toMatchObject({ id: order.id, status: 'paid', paid: true });
    const types = (await adapter.listEvents!({})).filter((e) => e.data.id === order.id).map((e) => e.type);
    expect(types).toEqual(['order.created', 'order.updated', 'order.paid']);
    expect((await adapter.listEvents!({ type: 'order.paid' })).every((e) => e.type === 'order.paid')).toBe(true);
  });

  test('listEvents reads only what follows the events it read before, and the whole log again after a reset', async () => {
    const full = async () => ((await (await fetch(`${reference.url}/__control/events`)).json()) as { items: { id: string }[] }).items.map((e) => e.id);
    const first = await adapter.listEvents!({});
    const order = await adapter.createOrder!({});
    await adapter.completeOrder!(order.id as string);
    const second = await adapter.listEvents!({});
    expect(second.map((e) => e.id)).toEqual(await full());
    expect(second.slice(0, first.length)).toEqual(first);
    expect(await (await fetch(`${reference.url}/__control/events?after=${second.at(-1)!.id}`)).json()).toEqual({ items: [], has_more: false, after_found: true });
    // Another reader's reset empties the log: the adapter's copy is not served stale.
    expect((await fetch(`${reference.url}/__control/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(200);
    const after = await adapter.listEvents!({});
    expect(after.map((e) => e.id)).toEqual(await full());
    expect(after.some((e) => e.data.id === order.id)).toBe(false);
    // The control API says whether it knew the event a page follows.
    const known = (await (await fetch(`${reference.url}/__control/events?after=${second.at(-1)!.id}`)).json()) as { after_found: boolean };
    expect(known.after_found).toBe(false);
  });

  test('createSeatInvitation answers a pending seat and its token; mintAuthorizationCode a code of the demo client', async () => {
    const invitation = await adapter.createSeatInvitation!({});
    expect(invitation.seat).toMatchObject({ status: 'pending' });
    expect(invitation.invitationToken).toMatch(/\S{20,}/);
    const code = await adapter.mintAuthorizationCode!({});
    expect(code).toMatchObject({ clientId: reference.fixtures.oauth_client_id, redirectUri: expect.stringMatching(/^https?:\/\//) });
  });

  test('refundOrder refunds a paid order, listed by the API, with order.updated', async () => {
    const order = await adapter.createOrder!({});
    await adapter.completeOrder!(order.id as string);
    const refund = await adapter.refundOrder!(order.id as string, { amount: 1 });
    expect(refund).toMatchObject({ id: expect.any(String), order_id: order.id, amount: 1 });
    const types = (await adapter.listEvents!({})).filter((e) => e.data.id === order.id).map((e) => e.type);
    expect(types.slice(-2)).toEqual(['order.updated', 'order.refunded']);
    await expect(adapter.refundOrder!('00000000-0000-4000-8000-000000000000', {})).rejects.toMatchObject({ code: 'CNF_ERR_ADAPTER', capability: 'refundOrder', message: expect.stringContaining('answered 404') });
  });

  test('createCustomer, createSubscription and grantLicenseKey make what a deletion cascades to', async () => {
    const customer = await adapter.createCustomer!({ externalId: 'cnf_adapter_test' });
    expect(customer).toMatchObject({ id: expect.any(String), external_id: 'cnf_adapter_test', deleted_at: null });
    const subscription = await adapter.createSubscription!({ customerId: customer.id as string, status: 'paused', seats: 2 });
    expect(subscription).toMatchObject({ status: 'paused', customer_id: customer.id, seats: 2 });
    const key = await adapter.grantLicenseKey!({ customerId: customer.id as string });
    expect(key).toMatchObject({ status: 'granted', customer_id: customer.id });
    await expect(adapter.createSubscription!({ customerId: customer.id as string, status: 'frozen' })).rejects.toMatchObject({ capability: 'createSubscription', message: expect.stringContaining('answered 400') });
  });

  test('advanceClock, webhook endpoints and settleDeliveries', async () => {
    await expect(adapter.advanceClock!(1000)).resolves.toBeUndefined();
    const endpoint = await adapter.createWebhookEndpoint!({ url: 'http://127.0.0.1:9/hook', events: ['order.paid'], enabled: false });
    expect(endpoint).toMatchObject({ id: expect.any(String), secret: expect.stringMatching(/^whsec_/), enabled: false });
    await expect(adapter.setWebhookEndpointEnabled!(endpoint.id, false)).resolves.toBeUndefined();
    // Nothing is queued: the control API's count of pending deliveries comes back.
    await expect(adapter.settleDeliveries!(100)).resolves.toEqual({ pending: 0 });
  });

  test('a refusal of the control API is an AdapterError (CNF_ERR_ADAPTER) naming the capability and the answer', async () => {
    const refusal = adapter.completeOrder!('00000000-0000-4000-8000-000000000000');
    await expect(refusal).rejects.toBeInstanceOf(AdapterError);
    await expect(refusal).rejects.toMatchObject({ code: 'CNF_ERR_ADAPTER', capability: 'completeOrder', message: expect.stringContaining('answered 404') });
    await expect(adapter.advanceClock!(-5)).rejects.toMatchObject({ code: 'CNF_ERR_ADAPTER', message: expect.stringContaining('answered 422') });
  });
});

describe('the reference adapter against a reference without its control API', () => {
  test('says the control API may be switched off', async () => {
    const reference = await startReferenceServer({ host: '127.0.0.1', port: 0, seed: 3, control: false });
    const adapter = createReferenceAdapter(targetOf(reference.url));
    try {
      await expect(adapter.createOrder!({})).rejects.toMatchObject({ code: 'CNF_ERR_ADAPTER', message: expect.stringContaining('--no-control') });
    } finally {
      await adapter.close!();
      await reference.close();
    }
  });

  test('says when nothing answers', async () => {
    const adapter = createReferenceAdapter({ ...targetOf('http://127.0.0.1:9'), timeoutMs: 500 });
    try {
      await expect(adapter.advanceClock!(1)).rejects.toMatchObject({ code: 'CNF_ERR_ADAPTER', message: expect.stringContaining('got no answer') });
    } finally {
      await adapter.close!();
    }
  });
});

describe('missingCapability', () => {
  const partial = guardAdapter({ name: 'partial', advanceClock: async () => {} }, 'test');
  test.each<[string, TargetAdapter | undefined, readonly (typeof ADAPTER_CAPABILITIES)[number][], string | undefined]>([
    ['no adapter', undefined, ['completeOrder'], 'needs adapter capability completeOrder (no adapter: pass --adapter FILE)'],
    ['a missing capability, the first in order', partial, ['advanceClock', 'createOrder', 'completeOrder'], 'needs adapter capability createOrder'],
    ['every capability there', partial, ['advanceClock'], undefined],
    ['nothing needed, no adapter', undefined, [], undefined],
  ])('%s', (_name, adapter, needs, expected) => {
    expect(missingCapability(adapter, needs)).toBe(expected);
  });
});

describe('adapter modules', () => {
  test('resolveAdapterOption: the reference, a file, or a missing file (CNF_ERR_CONFIG_INVALID)', async () => {
    expect(await resolveAdapterOption('reference')).toEqual({ kind: 'reference' });
    expect(await resolveAdapterOption('partial-adapter.mjs', FIXTURES)).toEqual({ kind: 'module', file: path.join(FIXTURES, 'partial-adapter.mjs') });
    await expect(resolveAdapterOption('absent.mjs', FIXTURES)).rejects.toMatchObject({ code: 'CNF_ERR_CONFIG_INVALID', message: expect.stringContaining('no such file') });
  });

  test('a module without createAdapter is refused', async () => {
    await expect(importAdapterFactory(path.join(FIXTURES, 'no-factory.mjs'))).rejects.toMatchObject({ code: 'CNF_ERR_CONFIG_INVALID', message: expect.stringContaining('createAdapter') });
  });

  test('loadAdapter builds a module adapter for the target, with only its capabilities', async () => {
    const adapter = await loadAdapter({ kind: 'module', file: path.join(FIXTURES, 'partial-adapter.mjs') }, targetOf('http://127.0.0.1:4010'));
    expect(adapter?.name).toBe('partial adapter of 127.0.0.1:4010');
    expect(capabilitiesOf(adapter!)).toEqual(['advanceClock']);
    expect(await loadAdapter(undefined, targetOf('http://127.0.0.1:4010'))).toBeUndefined();
  });

  test('a capability that is not a function is refused', async () => {
    await expect(loadAdapter({ kind: 'module', file: path.join(FIXTURES, 'bad-capability.mjs') }, targetOf('http://127.0.0.1:1'))).rejects.toMatchObject({ code: 'CNF_ERR_CONFIG_INVALID', message: expect.stringContaining('completeOrder must be a function') });
  });

  test('guardAdapter turns what a capability throws into an AdapterError naming the adapter', async () => {
    const adapter = guardAdapter({ name: 'staging', completeOrder: async () => { throw new Error('order is archived'); } }, 'file.js');
    await expect(adapter.completeOrder!('x')).rejects.toMatchObject({ name: 'AdapterError', code: 'CNF_ERR_ADAPTER', capability: 'completeOrder', message: 'adapter "staging": completeOrder failed: order is archived' });
    expect(() => guardAdapter(null, 'file.js')).toThrow(/must return an object/);
  });

  test('guardAdapter keeps eventsAtOnce when it is a boolean, and refuses anything else', () => {
    expect(guardAdapter({ name: 'a', eventsAtOnce: true }, 'file.js').eventsAtOnce).toBe(true);
    expect(guardAdapter({ name: 'b', eventsAtOnce: false }, 'file.js').eventsAtOnce).toBe(false);
    expect(guardAdapter({ name: 'c' }, 'file.js').eventsAtOnce).toBeUndefined();
    expect(() => guardAdapter({ name: 'd', eventsAtOnce: 'yes' }, 'file.js')).toThrow(/eventsAtOnce must be true or false, not string/);
  });
});

describe('outsideOperation', () => {
  test('keeps the path and query verbatim and expands no template', () => {
    const operation = outsideOperation('put', '/__uploads/u/1?expires=1&signature=a%2Fb{x}');
    expect(operation).toMatchObject({ method: 'PUT', path: '/__uploads/u/1?expires=1&signature=a%2Fb%7Bx%7D', operationId: 'PUT /__uploads/u/1', security: [] });
  });
});

describe('the reference adapter against a control API that does not say whether it knew the event', () => {
  test('reads the whole log again, page by page, with no event twice', async () => {
    let events = Array.from({ length: 120 }, (_, i) => ({ id: `e${i}`, type: i % 2 ? 'order.paid' : 'order.updated', timestamp: '2026-01-01T00:00:00Z', data: {} }));
    const server = createServer((request, response) => {
      const url = new URL(request.url!, 'http://x');
      const after = url.searchParams.get('after');
      const limit = Number(url.searchParams.get('limit'));
      const start = after === null ? 0 : events.findIndex((e) => e.id === after) + 1;
      const items = events.slice(start, start + limit);
      // An older control API: has_more, but no after_found.
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items, has_more: start + limit < events.length }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const adapter = createReferenceAdapter(targetOf(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    try {
      expect((await adapter.listEvents!({})).map((e) => e.id)).toEqual(events.map((e) => e.id));
      events = [...events, { id: 'e120', type: 'order.paid', timestamp: '2026-01-01T00:00:00Z', data: {} }];
      expect((await adapter.listEvents!({ type: 'order.paid' })).map((e) => e.id)).toEqual(events.filter((e) => e.type === 'order.paid').map((e) => e.id));
    } finally {
      await adapter.close?.();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the reference adapters of one process', () => {
  test('share what they read of a target\'s log: a second adapter reads only what follows, and readings side by side read no event twice', async () => {
    let events = Array.from({ length: 70 }, (_, i) => ({ id: `e${i}`, type: 'order.paid', timestamp: '2026-01-01T00:00:00Z', data: {} }));
    const asked: (string | null)[] = [];
    const server = createServer((request, response) => {
      const url = new URL(request.url!, 'http://x');
      const after = url.searchParams.get('after');
      asked.push(after);
      const limit = Number(url.searchParams.get('limit'));
      const at = after === null ? -1 : events.findIndex((e) => e.id === after);
      const items = events.slice(at + 1, at + 1 + limit);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items, has_more: at + 1 + limit < events.length, ...(after === null ? {} : { after_found: at >= 0 }) }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const target = targetOf(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const one = createReferenceAdapter(target);
    const two = createReferenceAdapter(target);
    try {
      expect((await one.listEvents!({})).map((e) => e.id)).toEqual(events.map((e) => e.id));
      // (A log copy left by an earlier server on the same port is read again from the start: after_found false.)
      expect(asked.slice(-2)).toEqual([null, 'e49']);
      asked.length = 0;
      events = [...events, { id: 'e70', type: 'order.paid', timestamp: '2026-01-01T00:00:00Z', data: {} }];
      const [a, b] = await Promise.all([two.listEvents!({}), one.listEvents!({})]);
      expect(a.map((e) => e.id)).toEqual(events.map((e) => e.id));
      expect(b.map((e) => e.id)).toEqual(events.map((e) => e.id));
      // The second adapter's first reading followed the first's last event; the reading beside it found nothing new.
      expect(asked).toEqual(['e69', 'e70']);
    } finally {
      await one.close?.();
      await two.close?.();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
