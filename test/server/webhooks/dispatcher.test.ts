import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validateEvent } from 'polar-sdk-0/webhooks.js';
import { startWebhookReceiver as startCoreReceiver } from '../../../core/webhook-receiver.js';
import { deliveryBody, isLoopbackUrl, KEPT_ANSWER_BYTES } from '../../../server/webhooks/dispatcher.js';
import { expectSchema, testServer, type TestServer } from '../support.js';
import { startWebhookReceiver, type WebhookReceiver } from '../webhook-receiver.js';

let server: TestServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  server = await testServer({ webhooks: { retryDelayMs: 5, timeoutMs: 2000 } });
});

afterAll(async () => {
  await server.app.close();
});

afterEach(async () => {
  await receiver?.close();
  server.control.reset();
});

/** Registers an endpoint for the receiver and returns its id and secret. */
function subscribe(events: string[], options: { enabled?: boolean; url?: string } = {}): { id: string; secret: string } {
  const created = server.control.createWebhookEndpoint({ url: options.url ?? receiver.url, events, ...(options.enabled === undefined ? {} : { enabled: options.enabled }) });
  if (!created.ok) throw new Error(created.error.message);
  return { id: created.value.id as string, secret: created.value.secret as string };
}

/** Creates an order of the portal customer and completes it; returns its id. */
function orderAndPay(): string {
  const created = server.control.createOrder({ checkout: false });
  if (!created.ok) throw new Error(created.error.message);
  const id = created.value.id as string;
  const completed = server.control.completeOrder(id);
  if (!completed.ok) throw new Error(completed.error.message);
  return id;
}

async function settled(): Promise<void> {
  expect(await server.control.settleDeliveries(5000)).toEqual({ pending: 0 });
}

describe('webhook delivery', () => {
  it('delivers order.created, order.updated and order.paid, in order, signed so that the platform\'s SDK (validateEvent of @polar-sh/sdk 0.49) verifies and parses them', async () => {
    receiver = await startWebhookReceiver();
    const endpoint = subscribe(['order.created', 'order.updated', 'order.paid']);
    const orderId = orderAndPay();
    await settled();
    expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(['order.created', 'order.updated', 'order.paid']);
    const events = server.control.events().filter((e) => e.data.id === orderId);
    for (const [i, request] of receiver.received.entries()) {
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['webhook-id']).toBe(events[i]!.id);
      expect(validateEvent(request.body, request.headers as Record<string, string>, endpoint.secret)).toMatchObject({ type: events[i]!.type, data: { id: orderId } });
      const payload = JSON.parse(request.body) as Record<string, unknown>;
      expect(payload).toMatchObject({ type: events[i]!.type, timestamp: events[i]!.timestamp, data: { id: orderId } });
      expectSchema(server, 'OrderEvent', payload);
    }
    expect(JSON.parse(receiver.received[2]!.body).data.status).toBe('paid');
    const log = server.control.listDeliveries({ endpoint_id: endpoint.id });
    expect(log.map((d) => [d.event_type, d.attempt, d.status, d.response_status, d.error])).toEqual([
      ['order.created', 1, 'succeeded', 200, null],
      ['order.updated', 1, 'succeeded', 200, null],
      ['order.paid', 1, 'succeeded', 200, null],
    ]);
    expect(log[0]).toMatchObject({ endpoint_id: endpoint.id, event_id: events[0]!.id, url: receiver.url, duration_ms: expect.any(Number), delivered_at: expect.any(String), created_at: expect.any(String) });
  });

  it('delivers to subscribed enabled endpoints only: a disabled or unsubscribed endpoint receives nothing', async () => {
    receiver = await startWebhookReceiver();
    const disabled = subscribe(['order.created', 'order.paid'], { enabled: false });
    const unsubscribed = subscribe(['checkout.created']);
    const paidOnly = subscribe(['order.paid']);
    const orderId = orderAndPay();
    await settled();
    expect(receiver.received.map((r) => JSON.parse(r.body))).toEqual([expect.objectContaining({ type: 'order.paid', data: expect.objectContaining({ id: orderId }) })]);
    expect(validateEvent(receiver.received[0]!.body, receiver.received[0]!.headers as Record<string, string>, paidOnly.secret)).toMatchObject({ type: 'order.paid' });
    expect(server.control.listDeliveries({ endpoint_id: disabled.id })).toEqual([]);
    expect(server.control.listDeliveries({ endpoint_id: unsubscribed.id })).toEqual([]);
  });

  it('retries a failing endpoint with backoff and logs every attempt: 500, 500, then 200 is three attempts', async () => {
    receiver = await startWebhookReceiver([500, 500]);
    const endpoint = subscribe(['order.created']);
    server.control.createOrder({ checkout: false });
    await settled();
    const log = server.control.listDeliveries({ endpoint_id: endpoint.id, event_type: 'order.created' });
    expect(log.map((d) => [d.attempt, d.status, d.response_status, d.error])).toEqual([
      [1, 'failed', 500, 'HTTP 500'],
      [2, 'failed', 500, 'HTTP 500'],
      [3, 'succeeded', 200, null],
    ]);
    expect(new Set(log.map((d) => d.event_id)).size).toBe(1);
    expect(new Set(log.map((d) => d.id)).size).toBe(3);
    // Every attempt carries the same webhook-id, so that a receiver can de-duplicate.
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('keeps each attempt\'s answer: its status and the first 2,048 bytes of its body', async () => {
    receiver = await startWebhookReceiver([500]);
    const endpoint = subscribe(['order.created']);
    server.control.createOrder({ checkout: false });
    await settled();
    expect(server.control.listDeliveries({ endpoint_id: endpoint.id }).map((d) => [d.response_status, d.response_body])).toEqual([[500, 'no'], [200, 'ok']]);
    const long = await startCoreReceiver(0, { answer: () => ({ status: 200, body: 'x'.repeat(5000) }) });
    try {
      const chatty = subscribe(['order.created'], { url: long.urlFor('chatty') });
      server.control.createOrder({ checkout: false });
      await settled();
      const [attempt] = server.control.listDeliveries({ endpoint_id: chatty.id });
      expect(attempt!.response_body).toBe(`${'x'.repeat(KEPT_ANSWER_BYTES)}…`);
    } finally {
      await long.close();
    }
  });

  it('resends a logged attempt as one more attempt, numbered after the last, with no retry of its own', async () => {
    receiver = await startWebhookReceiver();
    const endpoint = subscribe(['order.created']);
    server.control.createOrder({ checkout: false });
    await settled();
    const [first] = server.control.listDeliveries({ endpoint_id: endpoint.id });
    expect(server.control.resendDelivery(first!.id)).toEqual({ ok: true, value: { event_id: first!.event_id, endpoint_id: endpoint.id, attempt: 2 } });
    receiver.answers.push(500);
    await settled();
    // Over HTTP: 202, the attempt it will be; a failed resend is not retried.
    const resent = await server.app.inject({ method: 'POST', url: `/__control/webhook-deliveries/${first!.id}/resend` });
    expect([resent.statusCode, resent.json()]).toEqual([202, { event_id: first!.event_id, endpoint_id: endpoint.id, attempt: 3 }]);
    await settled();
    // The resent attempt 2 met a 500 and was not retried; attempt 3 is the second resend.
    expect(server.control.listDeliveries({ endpoint_id: endpoint.id }).map((d) => [d.attempt, d.response_status])).toEqual([[1, 200], [2, 500], [3, 200]]);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([first!.event_id, first!.event_id, first!.event_id]);
    server.control.setWebhookEndpointEnabled(endpoint.id, false);
    expect(server.control.resendDelivery(first!.id)).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(server.control.resendDelivery('00000000-0000-4000-8000-000000000000')).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect((await server.app.inject({ method: 'POST', url: '/__control/webhook-deliveries/00000000-0000-4000-8000-000000000000/resend' })).statusCode).toBe(404);
  });

  it('gives up after the last attempt, and a later event still goes out', async () => {
    receiver = await startWebhookReceiver([503, 503, 503, 503, 503]);
    const endpoint = subscribe(['order.created']);
    server.control.createOrder({ checkout: false });
    server.control.createOrder({ checkout: false });
    await settled();
    const log = server.control.listDeliveries({ endpoint_id: endpoint.id });
    expect(log.map((d) => `${d.attempt}:${d.response_status}`)).toEqual(['1:503', '2:503', '3:503', '4:503', '5:503', '1:200']);
    expect(new Set(log.map((d) => d.event_id)).size).toBe(2);
  });

  it('logs a connection error, and delivers order.created before order.paid for the same order', async () => {
    receiver = await startWebhookReceiver();
    const closedPort = new URL(receiver.url);
    await receiver.close();
    const dead = subscribe(['order.created'], { url: closedPort.toString() });
    receiver = await startWebhookReceiver();
    subscribe(['order.paid', 'order.created']);
    const orderId = orderAndPay();
    await settled();
    const attempts = server.control.listDeliveries({ endpoint_id: dead.id });
    expect(attempts).toHaveLength(5);
    expect(attempts.every((d) => d.status === 'failed' && d.response_status === null && d.error === 'ECONNREFUSED')).toBe(true);
    const types = receiver.received.map((r) => JSON.parse(r.body)).filter((p) => p.data.id === orderId).map((p) => p.type);
    expect(types).toEqual(['order.created', 'order.paid']);
  });

  it('never blocks the request: the event is delivered after the control call returns', async () => {
    receiver = await startWebhookReceiver();
    subscribe(['order.created']);
    server.control.createOrder({ checkout: false });
    expect(receiver.received).toHaveLength(0);
    expect(server.webhooks.pending()).toBeGreaterThanOrEqual(1);
    await settled();
    expect(receiver.received).toHaveLength(1);
  });

  it('does not contact hosts off this machine: the demo endpoints get one failed attempt with the reason', async () => {
    receiver = await startWebhookReceiver();
    const remote = subscribe(['order.created'], { url: 'https://hooks.example.com/billing' });
    server.control.createOrder({ checkout: false });
    await settled();
    expect(server.control.listDeliveries({ endpoint_id: remote.id })).toEqual([
      expect.objectContaining({ attempt: 1, status: 'failed', response_status: null, error: expect.stringContaining('not an allowed host') }),
    ]);
  });

  it('drops pending deliveries on reset, and reset clears the delivery log', async () => {
    receiver = await startWebhookReceiver([500, 500, 500]);
    subscribe(['order.created']);
    server.control.createOrder({ checkout: false });
    await new Promise((resolve) => setTimeout(resolve, 20));
    server.control.reset();
    expect(server.control.listDeliveries()).toEqual([]);
    await settled();
    expect(server.control.listDeliveries()).toEqual([]);
  });

  it('stops cleanly on close: pending deliveries are dropped, nothing is sent afterwards', async () => {
    const closing = await testServer({ webhooks: { retryDelayMs: 60_000 } });
    receiver = await startWebhookReceiver([500]);
    const created = closing.control.createWebhookEndpoint({ url: receiver.url, events: ['order.created'] });
    if (!created.ok) throw new Error(created.error.message);
    closing.control.createOrder({ checkout: false });
    await expect.poll(() => receiver.received.length).toBe(1);
    expect(closing.webhooks.pending()).toBeGreaterThanOrEqual(1);
    const started = Date.now();
    await closing.app.close();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(closing.webhooks.pending()).toBe(0);
    await closing.webhooks.idle();
    expect(receiver.received).toHaveLength(1);
  });
});

describe('control API of webhooks', () => {
  const post = (url: string, json?: unknown) => server.app.inject({ method: 'POST', url, ...(json === undefined ? {} : { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(json) }) });

  it('registers an endpoint with a secret, switches it off and on, and serves the delivery log', async () => {
    receiver = await startWebhookReceiver();
    const created = await post('/__control/webhook-endpoints', { url: receiver.url, events: ['order.created'], name: 'harness' });
    expect(created.statusCode).toBe(201);
    const endpoint = created.json();
    expectSchema(server, 'WebhookEndpoint', endpoint);
    expect(endpoint).toMatchObject({ url: receiver.url, events: ['order.created'], enabled: true, format: 'raw', name: 'harness', organization_id: server.fixtures.organization_id, secret: expect.stringMatching(/^whsec_/) });
    const listed = await server.get('/v1/webhooks/endpoints', { limit: 100 });
    expect(listed.json().items.map((e: { id: string }) => e.id)).toContain(endpoint.id);

    const off = await post(`/__control/webhook-endpoints/${endpoint.id}/enabled`, { enabled: false });
    expect(off.json()).toMatchObject({ id: endpoint.id, enabled: false });
    server.control.createOrder({ checkout: false });
    await settled();
    expect(receiver.received).toHaveLength(0);
    expect((await post(`/__control/webhook-endpoints/${endpoint.id}/enabled`, { enabled: true })).json().enabled).toBe(true);
    server.control.createOrder({ checkout: false });
    expect((await post('/__control/webhook-deliveries/settle', { timeout_ms: 5000 })).json()).toEqual({ pending: 0 });
    expect(receiver.received).toHaveLength(1);

    const log = await server.app.inject({ url: `/__control/webhook-deliveries?endpoint_id=${endpoint.id}&event_type=order.created` });
    expect(log.statusCode).toBe(200);
    expect(log.json().items).toEqual([expect.objectContaining({ endpoint_id: endpoint.id, event_type: 'order.created', attempt: 1, status: 'succeeded', response_status: 200 })]);
    expect((await server.app.inject({ url: '/__control/webhook-deliveries?event_type=order.paid' })).json().items).toEqual([]);
  });

  it('accepts a given secret and organization', () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const created = server.control.createWebhookEndpoint({ url: 'http://127.0.0.1:9/x', events: [], secret, organization_id: server.fixtures.other_organization_id! });
    expect(created.ok && created.value).toMatchObject({ secret, organization_id: server.fixtures.other_organization_id });
  });

  it.each<[string, number, string, unknown]>([
    ['no url', 400, '/__control/webhook-endpoints', { events: ['order.paid'] }],
    ['a relative url', 400, '/__control/webhook-endpoints', { url: '/hook', events: ['order.paid'] }],
    ['an ftp url', 400, '/__control/webhook-endpoints', { url: 'ftp://127.0.0.1/x', events: ['order.paid'] }],
    ['events that are not a list', 400, '/__control/webhook-endpoints', { url: 'http://127.0.0.1/x', events: 'order.paid' }],
    ['events that are not strings', 400, '/__control/webhook-endpoints', { url: 'http://127.0.0.1/x', events: [1] }],
    ['an empty secret', 400, '/__control/webhook-endpoints', { url: 'http://127.0.0.1/x', events: [], secret: '' }],
    ['a secret with whitespace', 400, '/__control/webhook-endpoints', { url: 'http://127.0.0.1/x', events: [], secret: 'whsec_ YWJj' }],
    ['an unknown organization', 404, '/__control/webhook-endpoints', { url: 'http://127.0.0.1/x', events: [], organization_id: '00000000-0000-4000-8000-000000000000' }],
    ['an unknown endpoint', 404, '/__control/webhook-endpoints/00000000-0000-4000-8000-000000000000/enabled', { enabled: false }],
    ['a missing enabled', 400, `/__control/webhook-endpoints/00000000-0000-4000-8000-000000000000/enabled`, {}],
  ])('answers %s with %i and an error body', async (_name, status, url, body) => {
    const response = await post(url, body);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ error: expect.any(String), detail: expect.any(String) });
  });
});

describe('helpers', () => {
  it.each<[string, boolean]>([
    ['http://127.0.0.1:8080/x', true],
    ['http://127.1.2.3/x', true],
    ['http://localhost:3000/x', true],
    ['http://[::1]:3000/x', true],
    ['https://hooks.example.com/x', false],
    ['http://10.0.0.1/x', false],
    ['http://127.0.0.1.example.com/x', false],
  ])('isLoopbackUrl(%s) is %s', (url, want) => {
    expect(isLoopbackUrl(new URL(url))).toBe(want);
  });

  it('renders the envelope timestamp as the API version does', () => {
    const event = { id: 'e', type: 'order.paid', timestamp: '2026-03-01T10:00:00.123456Z', data: { id: 'o' } };
    expect(JSON.parse(deliveryBody({ store: server.store, apiVersion: '2026-10', faults: new Set() }, event)).timestamp).toBe('2026-03-01T10:00:00.123456Z');
    expect(JSON.parse(deliveryBody({ store: server.store, apiVersion: '2026-04', faults: new Set() }, event))).toEqual({ type: 'order.paid', timestamp: '2026-03-01T10:00:00Z', data: { id: 'o' } });
  });
});
