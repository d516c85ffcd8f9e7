// The local webhook receiver: records what arrives per endpoint path, wakes waiters, and closes;
// awaitDeliveries stops waiting once the target says its deliveries settled.
import { describe, expect, test } from 'vitest';
import { awaitDeliveries, SETTLED_WAIT_MS, startWebhookReceiver, type WebhookReceiver } from '../../core/webhook-receiver.js';

describe('startWebhookReceiver', () => {
  test('listens on 127.0.0.1, answers 204 and records each request by path', async () => {
    const receiver = await startWebhookReceiver();
    try {
      expect(receiver.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const waiting = receiver.waitFor((received) => received.length === 2, 5000);
      const first = await fetch(receiver.urlFor('a'), { method: 'POST', headers: { 'webhook-id': 'msg_1', 'content-type': 'application/json' }, body: '{"type":"order.paid"}' });
      expect(first.status).toBe(204);
      await fetch(`${receiver.urlFor('b')}?x=1`, { method: 'POST', body: 'two' });
      expect(await waiting).toBe(true);
      expect(receiver.receivedBy('a')).toEqual([expect.objectContaining({ method: 'POST', path: '/hooks/a', body: '{"type":"order.paid"}', headers: expect.objectContaining({ 'webhook-id': 'msg_1' }) })]);
      expect(receiver.receivedBy('b').map((r) => r.body)).toEqual(['two']);
    } finally {
      await receiver.close();
    }
  });

  test('answers what its answer option makes of each request: JSON, text, or a status alone', async () => {
    const receiver = await startWebhookReceiver(0, {
      answer: (request) => (request.path === '/hooks/json' ? { status: 200, body: { received: JSON.parse(request.body).type } } : request.path === '/hooks/text' ? { status: 500, body: 'boom' } : { status: 202 }),
    });
    try {
      const json = await fetch(receiver.urlFor('json'), { method: 'POST', body: '{"type":"order.paid"}' });
      expect([json.status, json.headers.get('content-type'), await json.json()]).toEqual([200, 'application/json', { received: 'order.paid' }]);
      const text = await fetch(receiver.urlFor('text'), { method: 'POST', body: '{}' });
      expect([text.status, await text.text()]).toEqual([500, 'boom']);
      const bare = await fetch(receiver.urlFor('bare'), { method: 'POST', body: '{}' });
      expect([bare.status, await bare.text()]).toEqual([202, '']);
    } finally {
      await receiver.close();
    }
  });

  test('waitFor gives up after its timeout', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const started = Date.now();
      expect(await receiver.waitFor((received) => received.length > 0, 150)).toBe(false);
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    } finally {
      await receiver.close();
    }
  });
});

describe('awaitDeliveries', () => {
  const arrived = (received: readonly unknown[]) => received.length > 0;

  async function withReceiver(body: (receiver: WebhookReceiver) => Promise<void>): Promise<void> {
    const receiver = await startWebhookReceiver();
    try {
      await body(receiver);
    } finally {
      await receiver.close();
    }
  }

  test('a target that says nothing is pending is waited for SETTLED_WAIT_MS more, not until the deadline', () =>
    withReceiver(async (receiver) => {
      const asked: number[] = [];
      const started = Date.now();
      expect(await awaitDeliveries(receiver, arrived, 10_000, async (ms) => (asked.push(ms), { pending: 0 }))).toBe(false);
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(SETTLED_WAIT_MS - 10);
      expect(waited).toBeLessThan(5_000);
      expect(asked).toEqual([250]);
    }));

  test('a delivery that arrives while deliveries are still pending ends the wait', () =>
    withReceiver(async (receiver) => {
      let asked = 0;
      setTimeout(() => void fetch(receiver.urlFor('a'), { method: 'POST', body: 'late' }), 100);
      // A target still retrying another delivery, answering at once: asked again at most every 250 ms.
      expect(await awaitDeliveries(receiver, arrived, 10_000, async () => (asked++, { pending: 1 }))).toBe(true);
      expect(receiver.received.map((r) => r.body)).toEqual(['late']);
      expect(asked).toBe(1);
    }));

  test('a settle that answers nothing or fails leaves the wait to the deadline', () =>
    withReceiver(async (receiver) => {
      for (const settle of [async () => undefined, async () => Promise.reject(new Error('no control API'))]) {
        const started = Date.now();
        expect(await awaitDeliveries(receiver, arrived, 300, settle)).toBe(false);
        expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      }
    }));

  test('without settle it is waitFor', () =>
    withReceiver(async (receiver) => {
      setTimeout(() => void fetch(receiver.urlFor('a'), { method: 'POST', body: 'x' }), 50);
      expect(await awaitDeliveries(receiver, arrived, 5_000)).toBe(true);
    }));
});
