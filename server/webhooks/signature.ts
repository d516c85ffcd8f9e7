/**
 * Signing webhook deliveries with the Standard Webhooks scheme: `webhook-id` (the event id, the
 * same on every retry), `webhook-timestamp` (integer seconds since the epoch, from the server's clock,
 * which the test clock may have advanced: docs/lifecycle.md)
 * and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` keyed by the
 * endpoint's `whsec_` secret), computed by the `standardwebhooks` package.
 * @see https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md
 * @see spec/rules.yaml webhooks.standard_webhooks_signature; docs/server-behaviour.md (Webhooks)
 */
import { createHash } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { FaultSet } from '../faults.js';

/** Prefix of a Standard Webhooks signing secret; the rest is the base64 of the key. */
export const SECRET_PREFIX = 'whsec_';

/** Headers of one signed delivery (lower-case names). */
export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  /** Absent with the `webhook_unsigned` fault. */
  'webhook-signature'?: string;
}

/**
 * Whether `secret` is a usable signing secret: `whsec_` followed by the base64 of at least 24
 * bytes (the Standard Webhooks recommendation), and at most 64.
 */
export function isSigningSecret(secret: string): boolean {
  if (!secret.startsWith(SECRET_PREFIX)) return false;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return false;
  const bytes = Buffer.from(encoded, 'base64').length;
  return bytes >= 24 && bytes <= 64;
}

/** A secret that is not `secret` (the `webhook_wrong_signature` fault signs with it). */
function otherSecret(secret: string): string {
  return `${SECRET_PREFIX}${createHash('sha256').update(`not-the-endpoint-secret:${secret}`).digest('base64')}`;
}

/**
 * The headers that sign one delivery.
 * @param secret the endpoint's `whsec_` secret
 * @param messageId the event id: the same on every attempt, so that receivers can de-duplicate
 * @param at the time of the attempt (its whole seconds are signed)
 * @param body the exact request body
 * @param faults `webhook_unsigned` leaves out the signature; `webhook_wrong_signature` signs with another secret
 */
export function signDelivery(secret: string, messageId: string, at: Date, body: string, faults: FaultSet): SignatureHeaders {
  const headers: SignatureHeaders = { 'webhook-id': messageId, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)) };
  if (faults.has('webhook_unsigned')) return headers;
  const key = faults.has('webhook_wrong_signature') ? otherSecret(secret) : secret;
  headers['webhook-signature'] = new Webhook(key).sign(messageId, at, body);
  return headers;
}
