import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectSchema, testServer, type TestServer } from './support.js';

let server: TestServer;

beforeAll(async () => {
  server = await testServer({ clock: () => new Date('2026-06-01T12:00:00Z') });
});

beforeEach(() => {
  server.control.reset();
});

const post = (url: string, json?: unknown) => server.app.inject({ method: 'POST', url, ...(json === undefined ? {} : { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(json) }) });

describe('control functions', () => {
  it('createOrder makes a pending order of the portal customer by default', () => {
    const created = server.control.createOrder();
    if (!created.ok) throw new Error(created.error.message);
    expectSchema(server, 'Order', created.value);
    expect(created.value).toMatchObject({ status: 'pending', customer_id: server.fixtures.customer_id, billing_reason: 'purchase', tax_amount: Math.round((created.value.net_amount as number) * 0.2) });
    expect(server.store.orders.get(created.value.id as string)).toBeDefined();
  });

  it('createOrder without a checkout emits only order.created', () => {
    server.control.createOrder({ checkout: false });
    expect(server.control.events().map((e) => e.type)).toEqual(['order.created']);
  });

  it.each<[string, Parameters<TestServer['control']['createOrder']>[0], string]>([
    ['an unknown customer', { customer_id: '00000000-0000-4000-8000-000000000000' }, 'NOT_FOUND'],
    ['an unknown product', { product_id: '00000000-0000-4000-8000-000000000000' }, 'NOT_FOUND'],
    ['a product of another organization', { product_id: '__OTHER__' }, 'INVALID'],
    ['zero seats', { seats: 0 }, 'INVALID'],
  ])('createOrder refuses %s', (_name, input, code) => {
    const resolved = input?.product_id === '__OTHER__' ? { product_id: server.fixtures.other_product_id! } : input;
    const created = server.control.createOrder(resolved);
    expect(created.ok ? undefined : created.error.code).toBe(code);
  });

  it('completeOrder refuses an unknown order', () => {
    const completed = server.control.completeOrder('00000000-0000-4000-8000-000000000000');
    expect(completed.ok ? undefined : completed.error.code).toBe('NOT_FOUND');
  });

  it('advanceClock moves the server clock and refuses negative amounts', () => {
    expect(server.control.advanceClock(90_000)).toEqual({ ok: true, value: { now: '2026-06-01T12:01:30.000000Z' } });
    expect(server.store.clock().toISOString()).toBe('2026-06-01T12:01:30.000Z');
    expect(server.control.advanceClock(-1).ok).toBe(false);
    expect(server.control.advanceClock(Number.NaN).ok).toBe(false);
  });

  it('createSeatInvitation refuses a subscription that is not seat-based', () => {
    const plain = [...server.store.subscriptions.all()].find((s) => s.seats === null && s.status === 'active')!;
    const invited = server.control.createSeatInvitation({ subscription_id: plain.id });
    expect(invited.ok ? undefined : invited.error.code).toBe('INVALID');
  });

  it('reset restores the demo state of the seed: records, tokens, clock and event log', async () => {
    const before = JSON.stringify([...server.store.customers.all()]);
    await server.send('DELETE', `/v1/customers/external/${server.fixtures.customer_external_id}`);
    server.control.createOrder();
    server.control.advanceClock(5000);
    const tokens = server.store.tokens.length;
    expect(server.control.reset()).toEqual({ fixtures: server.fixtures });
    expect(JSON.stringify([...server.store.customers.all()])).toBe(before);
    expect(server.store.events).toEqual([]);
    expect(server.store.clock().toISOString()).toBe('2026-06-01T12:00:00.000Z');
    expect(server.store.tokens.length).toBe(tokens);
    expect((await server.get('/v1/products/', { limit: 1 })).statusCode).toBe(200);
    expect((await server.get('/v1/customer-portal/license-keys/', {}, 'customer_session')).statusCode).toBe(200);
    expect((await server.send('DELETE', `/v1/customers/external/${server.fixtures.customer_external_id}`)).statusCode).toBe(200);
  });
});

describe('control API over HTTP', () => {
  it('creates and completes an order, and reads the event log', async () => {
    const created = await post('/__control/orders', { checkout: true });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    const completed = await post(`/__control/orders/${id}/complete`);
    expect(completed.statusCode).toBe(200);
    expect(completed.json().status).toBe('paid');
    expect((await post(`/__control/orders/${id}/complete`)).statusCode).toBe(409);
    const events = await server.app.inject({ url: '/__control/events?type=order.paid' });
    expect(events.json().items.map((e: { data: { id: string } }) => e.data.id)).toEqual([id]);
    const all = (await server.app.inject({ url: '/__control/events' })).json().items.map((e: { type: string }) => e.type);
    expect(all).toEqual(['checkout.created', 'order.created', 'order.updated', 'order.paid']);
  });

  it('mints authorization codes and seat invitations, advances the clock and resets', async () => {
    const code = await post('/__control/authorization-codes', { scope: 'openid products:read' });
    expect(code.statusCode).toBe(201);
    expect(code.json()).toMatchObject({ code: expect.stringMatching(/^polar_ac_/), client_id: server.fixtures.oauth_client_id, scope: 'openid products:read' });
    const seat = await post('/__control/seat-invitations', { email: 'x@example.com' });
    expect(seat.statusCode).toBe(201);
    expect(seat.json()).toMatchObject({ invitation_token: expect.any(String), seat: { status: 'pending', email: 'x@example.com' } });
    expect((await post('/__control/clock/advance', { ms: 1000 })).json()).toEqual({ now: '2026-06-01T12:00:01.000000Z' });
    const reset = await post('/__control/reset');
    expect(reset.statusCode).toBe(200);
    expect(reset.json().fixtures).toEqual(server.fixtures);
  });

  it.each<[string, string, unknown, number]>([
    ['an unknown order', '/__control/orders/00000000-0000-4000-8000-000000000000/complete', undefined, 404],
    ['a missing ms', '/__control/clock/advance', {}, 400],
    ['a string ms', '/__control/clock/advance', { ms: '5' }, 400],
    ['an unknown client', '/__control/authorization-codes', { client_id: 'nope' }, 404],
    ['a body that is a list', '/__control/orders', [1], 400],
    ['a field of the wrong type', '/__control/seat-invitations', { expires_in_seconds: 'soon' }, 400],
  ])('answers %s with %i and an error body', async (_name, url, body, status) => {
    const response = await post(url, body);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ error: expect.any(String), detail: expect.any(String) });
  });
});
