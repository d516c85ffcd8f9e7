// The platform's webhook key rule, against node:crypto and the platform's own verifiers.
import { createHmac } from 'node:crypto';
import { validateEvent } from 'polar-sdk-0/webhooks.js';
import { describe, expect, it } from 'vitest';
import { decodedKeyWebhook, isSigningSecret, platformWebhook } from '../../core/webhook-signature.js';

const SECRET = 'whsec_ovyN6cPrTv56AApvzCaJno08SSmGJmgbWilb33N2JuK';
const ID = 'msg_1';
const AT = new Date();
const BODY = JSON.stringify({ type: 'order.created', timestamp: AT.toISOString(), data: {} });
const hmac = (key: Buffer) => `v1,${createHmac('sha256', key).update(`${ID}.${Math.floor(AT.getTime() / 1000)}.${BODY}`).digest('base64')}`;

describe('core/webhook-signature', () => {
  it('platformWebhook keys with the UTF-8 bytes of the whole secret string', () => {
    expect(platformWebhook(SECRET).sign(ID, AT, BODY)).toBe(hmac(Buffer.from(SECRET, 'utf8')));
    expect(platformWebhook('clé-é').sign(ID, AT, BODY)).toBe(hmac(Buffer.from('clé-é', 'utf8')));
  });

  it('decodedKeyWebhook keys with the base64 decoding of the part after whsec_, either alphabet', () => {
    expect(decodedKeyWebhook(SECRET)!.sign(ID, AT, BODY)).toBe(hmac(Buffer.from(SECRET.slice(6), 'base64')));
    expect(decodedKeyWebhook('whsec_-_-_')!.sign(ID, AT, BODY)).toBe(hmac(Buffer.from('+/+/', 'base64')));
    expect(decodedKeyWebhook('whsec_')).toBeUndefined();
  });

  it('what platformWebhook signs, the platform\'s verifier accepts (validateEvent of @polar-sh/sdk 0.49.0 reaches the payload)', () => {
    const headers = { 'webhook-id': ID, 'webhook-timestamp': String(Math.floor(AT.getTime() / 1000)), 'webhook-signature': platformWebhook(SECRET).sign(ID, AT, BODY) };
    // The signature verifies; the empty order then fails the SDK's payload schema, a parse error, not a verification error.
    expect(() => validateEvent(BODY, headers, SECRET)).toThrow(/Failed to parse event/);
    expect(() => validateEvent(BODY, { ...headers, 'webhook-signature': decodedKeyWebhook(SECRET)!.sign(ID, AT, BODY) }, SECRET)).toThrow(/No matching signature found/);
  });

  it.each<[unknown, boolean]>([['whsec_abc', true], ['', false], ['a b', false], ['x'.repeat(256), true], ['x'.repeat(257), false], [null, false]])('isSigningSecret(%j) is %s', (secret, usable) => {
    expect(isSigningSecret(secret)).toBe(usable);
  });
});
