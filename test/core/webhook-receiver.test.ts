// The local webhook receiver: records what arrives per endpoint path, wakes waiters, and closes.
import { describe, expect, test } from 'vitest';
import { startWebhookReceiver } from '../../core/webhook-receiver.js';

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
