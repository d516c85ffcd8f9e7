import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FaultSet } from '../../../server/faults.js';
import { isSigningSecret, signDelivery } from '../../../server/webhooks/signature.js';
import { newSigningSecret } from '../../../server/webhooks/endpoints.js';

/**
 * The Standard Webhooks specification's published example (its secret, message id, timestamp and
 * body): https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md.
 * Its signature is keyed with the base64-decoded secret; the platform keys with the secret's UTF-8
 * bytes, so the reference's signature of the same message is another one, computed here with
 * node:crypto independently of the library.
 */
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  decodedKeySignature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const faults = (...ids: string[]) => new Set(ids) as unknown as FaultSet;
const NO_FAULTS = faults();
const hmac = (key: Buffer, timestamp = VECTOR.timestamp) => `v1,${createHmac('sha256', key).update(`${VECTOR.id}.${timestamp}.${VECTOR.body}`).digest('base64')}`;
const UTF8_KEY = Buffer.from(VECTOR.secret, 'utf8');
const DECODED_KEY = Buffer.from(VECTOR.secret.slice('whsec_'.length), 'base64');

describe('signDelivery: keyed as the platform keys, stamped with the wall clock', () => {
  const at = { sentAt: new Date(VECTOR.timestamp * 1000 + 999), clockAt: new Date((VECTOR.timestamp + 400 * 86_400) * 1000) };

  it('the published vector is the HMAC of id.timestamp.body with the base64-decoded secret (node:crypto)', () => {
    expect(hmac(DECODED_KEY)).toBe(VECTOR.decodedKeySignature);
  });

  it('the reference signs with the UTF-8 bytes of the secret, stamped with the wall-clock second of the send, never the test clock', () => {
    const headers = signDelivery(VECTOR.secret, VECTOR.id, at, VECTOR.body, NO_FAULTS);
    expect(headers).toEqual({ 'webhook-id': VECTOR.id, 'webhook-timestamp': String(VECTOR.timestamp), 'webhook-signature': hmac(UTF8_KEY) });
    expect(headers['webhook-signature']).not.toBe(VECTOR.decodedKeySignature);
  });

  it('a changed byte of the body, id or timestamp gives another signature', () => {
    const signed = signDelivery(VECTOR.secret, VECTOR.id, at, VECTOR.body, NO_FAULTS)['webhook-signature'];
    expect(signDelivery(VECTOR.secret, VECTOR.id, at, '{"test": 2432232315}', NO_FAULTS)['webhook-signature']).not.toBe(signed);
    expect(signDelivery(VECTOR.secret, 'msg_other', at, VECTOR.body, NO_FAULTS)['webhook-signature']).not.toBe(signed);
    expect(signDelivery(VECTOR.secret, VECTOR.id, { ...at, sentAt: new Date(at.sentAt.getTime() + 1000) }, VECTOR.body, NO_FAULTS)['webhook-signature']).not.toBe(signed);
  });

  it.each<[string, string, (headers: ReturnType<typeof signDelivery>) => void]>([
    ['webhook_unsigned leaves out the signature', 'webhook_unsigned', (h) => expect(h['webhook-signature']).toBeUndefined()],
    ['webhook_wrong_signature signs with another key', 'webhook_wrong_signature', (h) => expect([hmac(UTF8_KEY), hmac(DECODED_KEY)]).not.toContain(h['webhook-signature'])],
    ['webhook_decoded_key signs with the decoded key (the published vector)', 'webhook_decoded_key', (h) => expect(h['webhook-signature']).toBe(VECTOR.decodedKeySignature)],
    ['webhook_test_clock_timestamp stamps and signs the test clock\'s second', 'webhook_test_clock_timestamp', (h) => {
      const clock = VECTOR.timestamp + 400 * 86_400;
      expect(h['webhook-timestamp']).toBe(String(clock));
      expect(h['webhook-signature']).toBe(hmac(UTF8_KEY, clock));
    }],
  ])('%s', (_name, fault, expectation) => {
    expectation(signDelivery(VECTOR.secret, VECTOR.id, at, VECTOR.body, faults(fault)));
  });
});

describe('signing secrets', () => {
  it('a new secret is shaped as the platform\'s: whsec_ and a 43-character URL-safe token', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newSigningSecret()).not.toBe(secret);
  });

  it.each<[string, unknown, boolean]>([
    ['the platform\'s example', 'whsec_ovyN6cPrTv56AApvzCaJno08SSmGJmgbWilb33N2JuK', true],
    ['the Standard Webhooks example', VECTOR.secret, true],
    ['any token an app is configured with', 'my-app-secret', true],
    ['empty', '', false],
    ['with a space', 'whsec_ abc', false],
    ['with a newline', 'whsec_abc\n', false],
    ['257 characters', 'x'.repeat(257), false],
    ['not a string', 42, false],
  ])('%s: %s', (_name, secret, usable) => {
    expect(isSigningSecret(secret)).toBe(usable);
  });
});
