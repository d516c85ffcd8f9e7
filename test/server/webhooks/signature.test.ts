import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FaultSet } from '../../../server/faults.js';
import { isSigningSecret, signDelivery } from '../../../server/webhooks/signature.js';

/**
 * The Standard Webhooks specification's published example (its secret, message id, timestamp and
 * body give its signature): https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md
 */
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const NO_FAULTS = new Set() as unknown as FaultSet;

describe('signDelivery: the Standard Webhooks known-answer vector', () => {
  it('the vector is what HMAC-SHA256 of id.timestamp.body with the base64-decoded secret gives (node:crypto, independently of the library)', () => {
    const key = Buffer.from(VECTOR.secret.slice('whsec_'.length), 'base64');
    const mac = createHmac('sha256', key).update(`${VECTOR.id}.${VECTOR.timestamp}.${VECTOR.body}`).digest('base64');
    expect(`v1,${mac}`).toBe(VECTOR.signature);
  });

  it('the reference signs the example exactly as the specification shows', () => {
    const headers = signDelivery(VECTOR.secret, VECTOR.id, new Date(VECTOR.timestamp * 1000 + 999), VECTOR.body, NO_FAULTS);
    expect(headers).toEqual({ 'webhook-id': VECTOR.id, 'webhook-timestamp': String(VECTOR.timestamp), 'webhook-signature': VECTOR.signature });
  });

  it('a changed byte of the body, id or timestamp gives another signature', () => {
    const at = new Date(VECTOR.timestamp * 1000);
    expect(signDelivery(VECTOR.secret, VECTOR.id, at, '{"test": 2432232315}', NO_FAULTS)['webhook-signature']).not.toBe(VECTOR.signature);
    expect(signDelivery(VECTOR.secret, 'msg_other', at, VECTOR.body, NO_FAULTS)['webhook-signature']).not.toBe(VECTOR.signature);
    expect(signDelivery(VECTOR.secret, VECTOR.id, new Date(at.getTime() + 1000), VECTOR.body, NO_FAULTS)['webhook-signature']).not.toBe(VECTOR.signature);
  });

  it('the example secret is a usable signing secret', () => {
    expect(isSigningSecret(VECTOR.secret)).toBe(true);
  });
});
