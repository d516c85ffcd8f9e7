/**
 * Signing webhook deliveries as the platform signs them: the Standard Webhooks algorithm keyed
 * with the UTF-8 bytes of the endpoint's secret (core/webhook-signature.ts). `webhook-id` is the
 * event id (the same on every retry), `webhook-timestamp` the wall-clock second of each send
 * (never a test clock's time: the body's `timestamp` carries the clock's instant of the event).
 * @see https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md
 * @see spec/rules.yaml webhooks.standard_webhooks_signature; docs/server-behaviour.md (Webhooks); docs/lifecycle.md (Which time goes where)
 */
import { createHash } from 'node:crypto';
import { decodedKeyWebhook, platformWebhook, SECRET_PREFIX } from '../../core/webhook-signature.js';
import type { FaultSet } from '../faults.js';

export { isSigningSecret, MAX_SECRET_LENGTH, SECRET_PREFIX } from '../../core/webhook-signature.js';

/** Headers of one signed delivery (lower-case names). */
export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  /** Absent with the `webhook_unsigned` fault. */
  'webhook-signature'?: string;
}

/** A secret that is not `secret` (the `webhook_wrong_signature` fault signs with it). */
function otherSecret(secret: string): string {
  return `${SECRET_PREFIX}${createHash('sha256').update(`not-the-endpoint-secret:${secret}`).digest('base64url')}`;
}

/** The instants one attempt is stamped with. */
export interface SendInstants {
  /** The wall clock when the attempt is sent: its whole seconds are `webhook-timestamp`. */
  sentAt: Date;
  /** The server's (test) clock at that moment: only the `webhook_test_clock_timestamp` fault signs with it. */
  clockAt: Date;
}

/**
 * The headers that sign one delivery attempt.
 * @param secret the endpoint's secret, keyed by its UTF-8 bytes ({@link platformWebhook})
 * @param messageId the event id: the same on every attempt, so that receivers can de-duplicate
 * @param at the wall-clock and test-clock instants of the attempt
 * @param body the exact request body
 * @param faults `webhook_unsigned` leaves out the signature; `webhook_wrong_signature` signs with
 *   another secret; `webhook_decoded_key` keys with the base64-decoded secret; `webhook_test_clock_timestamp`
 *   stamps and signs the test clock's second instead of the wall clock's
 */
export function signDelivery(secret: string, messageId: string, at: SendInstants, body: string, faults: FaultSet): SignatureHeaders {
  const stamped = faults.has('webhook_test_clock_timestamp') ? at.clockAt : at.sentAt;
  const headers: SignatureHeaders = { 'webhook-id': messageId, 'webhook-timestamp': String(Math.floor(stamped.getTime() / 1000)) };
  if (faults.has('webhook_unsigned')) return headers;
  const signer = faults.has('webhook_wrong_signature')
    ? platformWebhook(otherSecret(secret))
    : faults.has('webhook_decoded_key')
      ? (decodedKeyWebhook(secret) ?? platformWebhook(otherSecret(secret)))
      : platformWebhook(secret);
  headers['webhook-signature'] = signer.sign(messageId, stamped, body);
  return headers;
}
