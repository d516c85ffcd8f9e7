import { networkInterfaces } from 'node:os';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_CLOCK_OFFSET_MS } from '../../server/control.js';
import { startReferenceServer } from '../../server/index.js';
import { pointsAtItself } from '../../server/webhooks/dispatcher.js';
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

  it('advanceClock moves the server clock and refuses negative amounts and totals beyond 100 years', () => {
    expect(server.control.advanceClock(90_000)).toEqual({ ok: true, value: { now: '2026-06-01T12:01:30.000000Z' } });
    expect(server.store.clock().toISOString()).toBe('2026-06-01T12:01:30.000Z');
    const code = (result: { ok: boolean; error?: { code: string } }) => (result.ok ? 'ok' : result.error!.code);
    expect(code(server.control.advanceClock(-1))).toBe('OUT_OF_RANGE');
    expect(code(server.control.advanceClock(Number.NaN))).toBe('INVALID');
    expect(code(server.control.advanceClock(9e15))).toBe('OUT_OF_RANGE');
    expect(code(server.control.advanceClock(MAX_CLOCK_OFFSET_MS - 90_000))).toBe('ok');
    expect(code(server.control.advanceClock(1))).toBe('OUT_OF_RANGE');
    expect(server.store.clock().getTime()).toBe(Date.parse('2026-06-01T12:00:00Z') + MAX_CLOCK_OFFSET_MS);
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
    expect((await server.send('DELETE', `/v1/customers/external/${server.fixtures.customer_external_id}`)).statusCode).toBe(204);
  });
});

describe('refunds', () => {
  /** A new paid order of the portal customer, as the API shows it. */
  const paidOrder = () => {
    const created = server.control.createOrder();
    if (!created.ok) throw new Error(created.error.message);
    const completed = server.control.completeOrder(created.value.id as string);
    if (!completed.ok) throw new Error(completed.error.message);
    return completed.value;
  };

  it('createOrder picks by default a product that charges something', () => {
    expect(paidOrder().net_amount).toBeGreaterThan(0);
  });

  it('refundOrder refunds part of a paid order: a succeeded refund, listed, and the order keeps its status', async () => {
    const order = paidOrder();
    const id = order.id as string;
    const before = server.control.events().length;
    const refunded = server.control.refundOrder(id, { amount: 100 });
    if (!refunded.ok) throw new Error(refunded.error.message);
    expectSchema(server, 'Refund', refunded.value);
    expect(refunded.value).toMatchObject({ order_id: id, amount: 100, status: 'succeeded', customer_id: order.customer_id, currency: order.currency, tax_amount: Math.round(((order.tax_amount as number) * 100) / (order.net_amount as number)) });
    const events = server.control.events().slice(before);
    expect(events.map((e) => e.type)).toEqual(['refund.created', 'order.updated', 'order.refunded']);
    expect(events[1]!.data).toMatchObject({ id, status: 'paid', refunded_amount: 100 });
    const listed = (await server.get('/v1/refunds/', { order_id: id })).json();
    expect(listed.items).toEqual([refunded.value]);
  });

  it('refundOrder without an amount refunds what is left, then nothing is left', () => {
    const order = paidOrder();
    const id = order.id as string;
    const partial = server.control.refundOrder(id, { amount: 1 });
    const rest = server.control.refundOrder(id);
    if (!partial.ok || !rest.ok) throw new Error('refused');
    expect(rest.value.amount).toBe((order.net_amount as number) - 1);
    expect((partial.value.tax_amount as number) + (rest.value.tax_amount as number)).toBe(order.tax_amount);
    const again = server.control.refundOrder(id);
    expect(again.ok ? undefined : again.error.code).toBe('CONFLICT');
  });

  it.each<[string, (orderId: string) => unknown, string]>([
    ['an unknown order', () => server.control.refundOrder('00000000-0000-4000-8000-000000000000'), 'NOT_FOUND'],
    ['a pending order', () => { const created = server.control.createOrder(); return created.ok && server.control.refundOrder(created.value.id as string); }, 'CONFLICT'],
    ['more than the order', (orderId) => server.control.refundOrder(orderId, { amount: 10_000_000 }), 'INVALID'],
    ['zero cents', (orderId) => server.control.refundOrder(orderId, { amount: 0 }), 'INVALID'],
    ['a fraction of a cent', (orderId) => server.control.refundOrder(orderId, { amount: 1.5 }), 'INVALID'],
  ])('refundOrder refuses %s, and nothing changes', (_name, refund, code) => {
    const id = paidOrder().id as string;
    const refundEvents = () => server.control.events().filter((e) => ['refund.created', 'order.updated', 'order.refunded'].includes(e.type)).length;
    const events = refundEvents();
    const refunds = [...server.store.refunds.all()].length;
    const refused = refund(id) as { ok: boolean; error?: { code: string } };
    expect(refused.ok ? undefined : refused.error?.code).toBe(code);
    expect([...server.store.refunds.all()].length).toBe(refunds);
    expect(refundEvents()).toBe(events);
  });
});

describe('customers, subscriptions and license keys', () => {
  const customer = () => {
    const created = server.control.createCustomer();
    if (!created.ok) throw new Error(created.error.message);
    return created.value;
  };

  it('createCustomer makes a live customer of organization A with a unique external id', async () => {
    const created = customer();
    expectSchema(server, 'Customer', created);
    expect(created).toMatchObject({ organization_id: server.fixtures.organization_id, deleted_at: null, external_id: expect.stringMatching(/^cnf_/) });
    const taken = server.control.createCustomer({ external_id: created.external_id as string });
    expect(taken.ok ? undefined : taken.error.code).toBe('CONFLICT');
    expect((await server.send('DELETE', `/v1/customers/external/${created.external_id}`)).statusCode).toBe(204);
  });

  it('createSubscription makes a subscription of the customer in each of the eight statuses, listed by the API, created now', async () => {
    const owner = customer();
    const statuses = ['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused'];
    const created = statuses.map((status) => {
      const subscription = server.control.createSubscription({ customer_id: owner.id as string, status });
      if (!subscription.ok) throw new Error(subscription.error.message);
      expectSchema(server, 'Subscription', subscription.value);
      expect(subscription.value).toMatchObject({ status, customer_id: owner.id, created_at: '2026-06-01T12:00:00.000000Z', customer: { id: owner.id } });
      return [subscription.value.id, status];
    });
    const listed = (await server.get('/v1/subscriptions/', { customer_id: owner.id as string, limit: 100 })).json();
    expect(listed.items.map((item: { id: string; status: string }) => [item.id, item.status]).sort()).toEqual(created.sort());
  });

  it('createSubscription with seats takes invitations; the customer deletion cancels it and revokes its seat', async () => {
    const owner = customer();
    const created = server.control.createSubscription({ customer_id: owner.id as string, status: 'active', seats: 1 });
    if (!created.ok) throw new Error(created.error.message);
    expect(created.value.seats).toBe(1);
    const invited = server.control.createSeatInvitation({ subscription_id: created.value.id as string });
    if (!invited.ok) throw new Error(invited.error.message);
    const full = server.control.createSeatInvitation({ subscription_id: created.value.id as string });
    expect(full.ok ? undefined : full.error.code).toBe('CONFLICT');
    await server.send('DELETE', `/v1/customers/external/${owner.external_id}`);
    const revoked = server.control.events('customer_seat.revoked').map((e) => e.data);
    expect(revoked).toContainEqual(expect.objectContaining({ id: invited.value.seat.id, status: 'revoked' }));
    expect(server.store.subscriptions.get(created.value.id as string)?.status).toBe('canceled');
  });

  it.each<[string, () => unknown, string]>([
    ['an unknown customer', () => server.control.createSubscription({ customer_id: '00000000-0000-4000-8000-000000000000', status: 'active' }), 'NOT_FOUND'],
    ['an unknown status', () => server.control.createSubscription({ customer_id: customer().id as string, status: 'frozen' }), 'INVALID'],
    ['zero seats', () => server.control.createSubscription({ customer_id: customer().id as string, status: 'active', seats: 0 }), 'INVALID'],
    ['a license key for an unknown customer', () => server.control.grantLicenseKey({ customer_id: '00000000-0000-4000-8000-000000000000' }), 'NOT_FOUND'],
    ['a license key of a benefit of another type', () => server.control.grantLicenseKey({ customer_id: customer().id as string, benefit_id: server.store.benefits.inOrganization(server.fixtures.organization_id!).find((b) => b.type !== 'license_keys')!.id }), 'INVALID'],
  ])('refuses %s', (_name, create, code) => {
    const refused = create() as { ok: boolean; error?: { code: string } };
    expect(refused.ok ? undefined : refused.error?.code).toBe(code);
  });

  it('grantLicenseKey grants a key the customer deletion revokes (benefit_grant.revoked)', async () => {
    const owner = customer();
    const granted = server.control.grantLicenseKey({ customer_id: owner.id as string });
    if (!granted.ok) throw new Error(granted.error.message);
    expect(granted.value).toMatchObject({ customer_id: owner.id, status: 'granted', key: expect.stringMatching(/-[0-9A-F]{8}-/) });
    await server.send('DELETE', `/v1/customers/external/${owner.external_id}`);
    expect(server.control.events('benefit_grant.revoked').map((e) => (e.data.properties as { license_key_id?: string }).license_key_id)).toContain(granted.value.id);
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
    const first = (await server.app.inject({ url: '/__control/events?limit=3' })).json();
    expect({ types: first.items.map((e: { type: string }) => e.type), more: first.has_more }).toEqual({ types: ['checkout.created', 'order.created', 'order.updated'], more: true });
    const rest = (await server.app.inject({ url: `/__control/events?limit=3&after=${first.items[2].id}` })).json();
    expect({ types: rest.items.map((e: { type: string }) => e.type), more: rest.has_more }).toEqual({ types: ['order.paid'], more: false });
    const zero = await server.app.inject({ url: '/__control/events?limit=0' });
    expect({ status: zero.statusCode, loc: zero.json().detail[0].loc }).toEqual({ status: 422, loc: ['query', 'limit'] });
  });

  it('creates a customer with a seat-based subscription and a license key, and refunds an order', async () => {
    const created = await post('/__control/customers', { external_id: 'cnf_http_customer' });
    expect(created.statusCode).toBe(201);
    const customerId = created.json().id;
    const subscription = await post('/__control/subscriptions', { customer_id: customerId, status: 'past_due', seats: 3 });
    expect(subscription.statusCode).toBe(201);
    expect(subscription.json()).toMatchObject({ status: 'past_due', seats: 3, customer_id: customerId });
    const key = await post('/__control/license-keys', { customer_id: customerId });
    expect(key.statusCode).toBe(201);
    expect(key.json()).toMatchObject({ status: 'granted', customer_id: customerId });
    const order = (await post('/__control/orders', {})).json();
    await post(`/__control/orders/${order.id}/complete`);
    const refund = await post(`/__control/orders/${order.id}/refunds`, { amount: 1, reason: 'duplicate' });
    expect(refund.statusCode).toBe(201);
    expect(refund.json()).toMatchObject({ order_id: order.id, amount: 1, reason: 'duplicate' });
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
    ['a refund of an unknown order', '/__control/orders/00000000-0000-4000-8000-000000000000/refunds', {}, 404],
    ['a refund amount that is a string', '/__control/orders/00000000-0000-4000-8000-000000000000/refunds', { amount: '5' }, 400],
    ['a subscription without a status', '/__control/subscriptions', { customer_id: '00000000-0000-4000-8000-000000000000' }, 400],
    ['a license key without a customer', '/__control/license-keys', {}, 400],
    ['a customer whose external id is a number', '/__control/customers', { external_id: 5 }, 400],
    ['a clock advance by words', '/__control/clock/advance', { by: 'a month' }, 400],
    ['a clock advance to a duration', '/__control/clock/advance', { to: 'P1D' }, 400],
    ['a clock advance by both ms and a duration', '/__control/clock/advance', { ms: 5, by: 'P1D' }, 400],
    ['a resend of an unknown delivery', '/__control/webhook-deliveries/00000000-0000-4000-8000-000000000000/resend', {}, 404],
  ])('answers %s with %i and an error body', async (_name, url, body, status) => {
    const response = await post(url, body);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ error: expect.any(String), detail: expect.any(String) });
  });

  it.each<[string, string, Record<string, unknown>, string]>([
    ['a clock advance of 9e15 ms', '/__control/clock/advance', { ms: 9e15 }, 'ms'],
    ['a negative clock advance', '/__control/clock/advance', { ms: -5 }, 'ms'],
    ['a clock advance to an instant before now', '/__control/clock/advance', { to: '2026-05-01T00:00:00Z' }, 'to'],
    ['a clock advance by a negative duration', '/__control/clock/advance', { by: '-P1D' }, 'by'],
    ['a seat invitation expiring in 9e15 s', '/__control/seat-invitations', { expires_in_seconds: 9e15 }, 'expires_in_seconds'],
    ['a seat invitation expiring in 3.2e9 s (101 years)', '/__control/seat-invitations', { expires_in_seconds: 3.2e9 }, 'expires_in_seconds'],
    ['an authorization code expiring in 9e15 s', '/__control/authorization-codes', { expires_in_seconds: 9e15 }, 'expires_in_seconds'],
    ['a settle timeout of 70 s', '/__control/webhook-deliveries/settle', { timeout_ms: 70_000 }, 'timeout_ms'],
  ])('answers %s with 422 naming the field, and later writes still work', async (_name, url, body, field) => {
    const response = await post(url, body);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: [{ loc: ['body', field], msg: expect.any(String), type: 'value_error' }] });
    expect((await post('/__control/orders', {})).statusCode).toBe(201);
  });
});

describe('the clock advanced to an instant or by a duration', () => {
  it.each<[string, Record<string, string>, string]>([
    ['by a day', { by: 'P1D' }, '2026-06-02T12:00:00.000000Z'],
    ['by a calendar month', { by: '+P1M' }, '2026-07-01T12:00:00.000000Z'],
    ['by hours and minutes', { by: 'PT1H30M' }, '2026-06-01T13:30:00.000000Z'],
    ['to an instant with an offset', { to: '2026-06-10T09:00:00+02:00' }, '2026-06-10T07:00:00.000000Z'],
  ])('%s', async (_name, body, now) => {
    const response = await post('/__control/clock/advance', body);
    expect([response.statusCode, response.json()]).toEqual([200, { now }]);
  });

  it('renews what falls due, as an advance in ms does', () => {
    const started = server.control.createClockSubscription({ customer_id: server.fixtures.customer_id! });
    if (!started.ok) throw new Error(started.error.message);
    expect(server.control.advanceClockTo({ by: 'P1M' })).toEqual({ ok: true, value: { now: '2026-07-01T12:00:00.000000Z' } });
    expect(server.store.subscriptions.get(started.value.id as string)).toMatchObject({ current_period_start: '2026-07-01T12:00:00.000000Z' });
  });
});

describe('GET /__control/overview', () => {
  it('gives the records by kind, newest first, with the newest events and delivery attempts', async () => {
    server.control.createCustomer({ email: 'newest@example.com' });
    const response = await server.app.inject({ method: 'GET', url: '/__control/overview?limit=5' });
    expect(response.statusCode).toBe(200);
    const overview = response.json();
    expect(overview.customers).toHaveLength(5);
    expect(overview.customers[0]).toMatchObject({ email: 'newest@example.com' });
    expect(overview.counts.customers).toBe(server.store.customers.size);
    expect(overview.events).toEqual([]);
    expect((await server.app.inject({ method: 'GET', url: '/__control/overview?limit=0' })).statusCode).toBe(422);
  });
});

describe('webhook URLs that point at the reference itself', () => {
  it.each<[string, number, boolean]>([
    ['http://127.0.0.1:4010/__control/orders', 4010, true],
    ['http://localhost:4010/x', 4010, true],
    ['http://[::1]:4010/x', 4010, true],
    ['http://0.0.0.0:4010/x', 4010, true],
    ['http://127.0.0.1:4011/x', 4010, false],
    ['http://127.0.0.1/x', 80, true],
    ['http://example.com:4010/x', 4010, false],
    ['http://127.0.0.1:4010/x', Number.NaN, false],
    ...Object.values(networkInterfaces()).flatMap((addresses) => addresses ?? []).filter((a) => a.family === 'IPv4').slice(0, 1).map((a): [string, number, boolean] => [`http://${a.address}:4010/x`, 4010, true]),
  ])('pointsAtItself(%s, port %i) is %s', (url, port, expected) => {
    expect(pointsAtItself(new URL(url), Number.isNaN(port) ? undefined : port)).toBe(expected);
  });

  it('a listening server refuses such an endpoint with 422 and never delivers to itself', async () => {
    const running = await startReferenceServer({ rateLimit: false, webhooks: { retryDelayMs: 1 } });
    try {
      const self = `${running.url}/__control/orders`;
      const refused = await fetch(`${running.url}/__control/webhook-endpoints`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: self, events: ['order.created'] }) });
      expect(refused.status).toBe(422);
      expect(((await refused.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(['body', 'url']);
      // In-process registration has no request to refuse: the dispatcher refuses the delivery.
      const endpoint = running.control.createWebhookEndpoint({ url: self, events: ['order.created'] });
      if (!endpoint.ok) throw new Error(endpoint.error.message);
      const before = running.control.events('order.created').length;
      expect(running.control.createOrder().ok).toBe(true);
      await running.control.settleDeliveries(5000);
      const attempts = running.control.listDeliveries({ endpoint_id: endpoint.value.id as string });
      expect(attempts.map((a) => [a.status, a.error])).toEqual([['failed', 'not sent: the URL points at the reference server itself']]);
      expect(running.control.events('order.created').length).toBe(before + 1);
    } finally {
      await running.close();
    }
  });
});
