/**
 * Judges the webhook deliveries a local receiver got for endpoints the scenario registered: each
 * delivery a `{type, timestamp, data}` envelope that the platform's verifiers accept (Standard
 * Webhooks keyed with the UTF-8 bytes of its endpoint's secret, stamped with the wall clock); events only at enabled endpoints subscribed to their kind, and there each
 * event the scenario caused; order.created before order.paid.
 * @see spec/rules.yaml events.delivery_to_subscribed_endpoints, webhooks.standard_webhooks_signature, events.order_created;
 *   spec/openapi.yaml, schema WebhookEndpoint
 * @see https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md
 */
import { timingSafeEqual } from 'node:crypto';
import type { Webhook } from 'standardwebhooks';
import type { Finding } from '../../core/types.js';
import type { ReceivedRequest } from '../../core/webhook-receiver.js';
import { decodedKeyWebhook, isSigningSecret, platformWebhook } from '../../core/webhook-signature.js';

/** An endpoint the scenario registered, with what its receiver path got. */
export interface EndpointDeliveries {
  /** A name for messages (`subscribed`, `disabled`). */
  name: string;
  /** Its signing secret (`whsec_…`), whose UTF-8 bytes key the signatures. */
  secret: string;
  /** The event kinds it subscribes to. */
  events: string[];
  enabled: boolean;
  /** What arrived at its URL, in arrival order. */
  received: ReceivedRequest[];
}

/** A delivery's envelope, when its body is one: `{type, timestamp, data}`. */
export interface Envelope {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** The envelope of a delivery body, or undefined when the body is not a JSON `{type: string, timestamp: date-time string, data: object}`. */
export function envelopeOf(body: string): Envelope | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const { type, timestamp, data } = parsed as Record<string, unknown>;
  if (typeof type !== 'string' || typeof timestamp !== 'string' || Number.isNaN(Date.parse(timestamp))) return undefined;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
  return { type, timestamp, data: data as Record<string, unknown> };
}

/** How far a delivery's `webhook-timestamp` may be from the wall clock at receipt, in seconds (the Standard Webhooks libraries' and the platform's SDKs' tolerance: 5 minutes). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** What a verifier of the platform's says of one delivery: its finding kind and why. */
export interface SignatureProblem {
  /**
   * `webhook_signature_invalid`: headers missing, or no `v1` signature made with the endpoint's
   * secret; `webhook_signed_with_decoded_key`: the signature was made with the base64-decoded part
   * of the secret after `whsec_`, which only the fallback of `@polar-sh/sdk` 1.x accepts;
   * `webhook_timestamp_not_current`: `webhook-timestamp` is not an integer within the tolerance
   * of the wall clock at receipt (a test clock's time, a stale retry).
   */
  kind: 'webhook_signature_invalid' | 'webhook_signed_with_decoded_key' | 'webhook_timestamp_not_current';
  reason: string;
}

/** Whether one of the space-separated `v1,` signatures equals the one `signer` makes of `id.timestamp.body`. */
function signedBy(signer: Webhook | undefined, id: string, signedAt: number, body: string, signatures: string): boolean {
  if (!signer) return false;
  const expected = Buffer.from(signer.sign(id, new Date(signedAt * 1000), body).slice('v1,'.length));
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || signature === undefined) return false;
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * Verifies one delivery as the platform's verifiers do (`validateEvent` of `@polar-sh/sdk`): the
 * three headers present, `webhook-timestamp` an integer within {@link SIGNATURE_TOLERANCE_SECONDS}
 * of the wall clock when the delivery arrived (`delivery.receivedAt`; a target's test clock is no
 * excuse: the platform stamps the second of the send), and one of the `v1,` signatures the
 * Standard Webhooks HMAC of `id.timestamp.body` keyed with the UTF-8 bytes of the endpoint's
 * secret string. A signature keyed with the secret's base64-decoded part is told apart: the 1.x
 * SDK's fallback accepts it, the 0.x SDK, the framework adapters built on it and the platform's
 * other SDKs reject it.
 * @returns every problem found (the first is the one a verifier stops at), empty when it verifies
 * @see https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md (Verifying webhook authenticity);
 *   spec/rules.yaml webhooks.standard_webhooks_signature, webhooks.signature_timestamp_wall_clock
 */
export function signatureProblems(secret: string, delivery: ReceivedRequest): SignatureProblem[] {
  const headers = Object.fromEntries(Object.entries(delivery.headers).map(([name, value]) => [name.toLowerCase(), value]));
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  const missing = (['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const).filter((name) => !headers[name]);
  if (!id || !timestamp || !signatures) return [{ kind: 'webhook_signature_invalid', reason: `Missing required headers (${missing.join(', ')})` }];
  if (!/^\d+$/.test(timestamp)) return [{ kind: 'webhook_timestamp_not_current', reason: `Invalid webhook-timestamp ${JSON.stringify(timestamp.slice(0, 40))}` }];
  const problems: SignatureProblem[] = [];
  const signedAt = Number(timestamp);
  const now = Math.floor(delivery.receivedAt / 1000);
  if (now - signedAt > SIGNATURE_TOLERANCE_SECONDS) problems.push({ kind: 'webhook_timestamp_not_current', reason: `Message timestamp too old (${now - signedAt} s before the wall clock at receipt)` });
  if (signedAt - now > SIGNATURE_TOLERANCE_SECONDS) problems.push({ kind: 'webhook_timestamp_not_current', reason: `Message timestamp too new (${signedAt - now} s after the wall clock at receipt)` });
  if (!isSigningSecret(secret)) return [...problems, { kind: 'webhook_signature_invalid', reason: 'the endpoint\'s secret cannot sign (empty, too long or with whitespace)' }];
  if (signedBy(platformWebhook(secret), id, signedAt, delivery.body, signatures)) return problems;
  if (signedBy(decodedKeyWebhook(secret), id, signedAt, delivery.body, signatures)) {
    return [...problems, { kind: 'webhook_signed_with_decoded_key', reason: 'the signature is keyed with the base64-decoded part of the secret after whsec_, not with the UTF-8 bytes of the secret: only the fallback of @polar-sh/sdk 1.x accepts it (and only for a standard base64 token); the 0.x SDK and the framework adapters built on it answer "No matching signature found"' }];
  }
  return [...problems, { kind: 'webhook_signature_invalid', reason: 'No matching signature found' }];
}

const SIGNATURE_TITLES: Record<SignatureProblem['kind'], string> = {
  webhook_signature_invalid: "A webhook delivery does not verify with its endpoint's secret",
  webhook_signed_with_decoded_key: "A webhook delivery is signed with the secret's decoded key, not its UTF-8 bytes",
  webhook_timestamp_not_current: 'A webhook delivery is not stamped with the wall-clock time of its send',
};

/**
 * Findings of `webhook_signed`: every delivery to every endpoint is a `{type, timestamp, data}`
 * envelope that the platform's verifiers accept ({@link signatureProblems}).
 */
export function signatureFindings(endpoints: readonly EndpointDeliveries[]): Finding[] {
  const findings: Finding[] = [];
  for (const endpoint of endpoints) {
    for (const [index, delivery] of endpoint.received.entries()) {
      const where = `delivery ${index + 1} to the ${endpoint.name} endpoint`;
      if (!envelopeOf(delivery.body)) {
        findings.push({ kind: 'webhook_envelope_malformed', title: 'A webhook body is not a {type, timestamp, data} envelope', message: `The body of ${where} is not a JSON object with a string type, a date-time timestamp and a data object: ${delivery.body.slice(0, 200)}`, expected: '{type, timestamp, data}', actual: delivery.body.slice(0, 200) });
      }
      const actual = { 'webhook-id': delivery.headers['webhook-id'], 'webhook-timestamp': delivery.headers['webhook-timestamp'], 'webhook-signature': delivery.headers['webhook-signature'], received_at: Math.floor(delivery.receivedAt / 1000) };
      for (const problem of signatureProblems(endpoint.secret, delivery)) {
        findings.push({
          kind: problem.kind,
          title: SIGNATURE_TITLES[problem.kind],
          message: `${where} is rejected by the platform's verifiers (Standard Webhooks keyed with the UTF-8 bytes of the endpoint's secret, ${SIGNATURE_TOLERANCE_SECONDS} s of the wall clock): ${problem.reason}.`,
          expected: problem.kind === 'webhook_timestamp_not_current' ? `webhook-timestamp within ${SIGNATURE_TOLERANCE_SECONDS} s of the wall clock at receipt` : "a v1 signature keyed with the UTF-8 bytes of the endpoint's secret",
          actual,
        });
      }
    }
  }
  return findings;
}

/**
 * Findings of `webhook_subscribed_only`.
 * @param caused the event kinds the scenario caused for `orderId`; each must reach every enabled endpoint subscribed to it
 * @returns findings for events at a disabled endpoint, at an endpoint not subscribed to their kind,
 *   missing at a subscribed enabled endpoint, and order.paid stamped before order.created
 */
export function subscriptionFindings(endpoints: readonly EndpointDeliveries[], orderId: string, caused: readonly string[]): Finding[] {
  const findings: Finding[] = [];
  for (const endpoint of endpoints) {
    const envelopes = endpoint.received.map((delivery) => envelopeOf(delivery.body)).filter((e): e is Envelope => e !== undefined);
    if (!endpoint.enabled && endpoint.received.length > 0) {
      findings.push({ kind: 'disabled_endpoint_delivered', title: 'A disabled webhook endpoint received events', message: `The ${endpoint.name} endpoint is disabled and received ${endpoint.received.length} delivery(ies): ${JSON.stringify(envelopes.map((e) => e.type))}.`, expected: 'no delivery', actual: envelopes.map((e) => e.type) });
    }
    const unsubscribed = envelopes.filter((e) => !endpoint.events.includes(e.type));
    if (unsubscribed.length > 0) {
      findings.push({ kind: 'unsubscribed_event_delivered', title: 'A webhook endpoint received an event kind it does not subscribe to', message: `The ${endpoint.name} endpoint subscribes to ${JSON.stringify(endpoint.events)} and received ${JSON.stringify([...new Set(unsubscribed.map((e) => e.type))])}.`, expected: endpoint.events, actual: unsubscribed.map((e) => e.type) });
    }
    if (!endpoint.enabled) continue;
    const ofOrder = envelopes.filter((e) => e.data.id === orderId);
    for (const type of caused.filter((t) => endpoint.events.includes(t))) {
      if (!ofOrder.some((e) => e.type === type)) {
        findings.push({ kind: 'subscribed_event_not_delivered', title: 'A subscribed, enabled webhook endpoint did not receive an event', message: `The ${endpoint.name} endpoint subscribes to ${type} and received none for order ${orderId} (it received ${JSON.stringify(ofOrder.map((e) => e.type))}).`, expected: type, actual: ofOrder.map((e) => e.type) });
      }
    }
    const created = ofOrder.find((e) => e.type === 'order.created');
    const paid = ofOrder.find((e) => e.type === 'order.paid');
    if (created && paid && Date.parse(paid.timestamp) < Date.parse(created.timestamp)) {
      findings.push({ kind: 'order_paid_before_created', title: 'order.paid is stamped before order.created', message: `At the ${endpoint.name} endpoint, order.paid of order ${orderId} has timestamp ${paid.timestamp}, before order.created's ${created.timestamp}.`, expected: 'order.created first', actual: { created: created.timestamp, paid: paid.timestamp } });
    }
  }
  return findings;
}
