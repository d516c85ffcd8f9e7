/**
 * Judges the webhook deliveries a local receiver got for endpoints the scenario registered: each
 * delivery a Standard Webhooks signed `{type, timestamp, data}` envelope that verifies with its
 * endpoint's secret; events only at enabled endpoints subscribed to their kind, and there each
 * event the scenario caused; order.created before order.paid.
 * @see spec/rules.yaml events.delivery_to_subscribed_endpoints, webhooks.standard_webhooks_signature, events.order_created;
 *   spec/openapi.yaml, schema WebhookEndpoint
 * @see https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md
 */
import { timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Finding } from '../../core/types.js';
import type { ReceivedRequest } from '../../core/webhook-receiver.js';

/** An endpoint the scenario registered, with what its receiver path got. */
export interface EndpointDeliveries {
  /** A name for messages (`subscribed`, `disabled`). */
  name: string;
  /** Its `whsec_` signing secret. */
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

/** How far a delivery's `webhook-timestamp` may be from the signer's clock, in seconds (the Standard Webhooks libraries' default: 5 minutes). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * Verifies one delivery with the Standard Webhooks scheme: the three headers present, the
 * `webhook-timestamp` an integer within {@link SIGNATURE_TOLERANCE_SECONDS} of `signerNowMs` (the
 * clock of the target that signed, at receipt: a target whose test clock was advanced signs with
 * its own time, so the harness's wall clock is not the judge), and one of the space-separated `v1,`
 * signatures equal to the one the `standardwebhooks` library computes for `id.timestamp.body`.
 * @param signerNowMs epoch milliseconds of the signer's clock when the delivery arrived (default the wall clock at receipt)
 * @returns undefined when it verifies, else why not
 * @see https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md (Verifying webhook authenticity)
 */
export function signatureProblem(secret: string, delivery: ReceivedRequest, signerNowMs: number = delivery.receivedAt): string | undefined {
  const headers = Object.fromEntries(Object.entries(delivery.headers).map(([name, value]) => [name.toLowerCase(), value]));
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) return 'Missing required headers';
  if (!/^\d+$/.test(timestamp)) return `Invalid webhook-timestamp ${JSON.stringify(timestamp.slice(0, 40))}`;
  const signedAt = Number(timestamp);
  const now = Math.floor(signerNowMs / 1000);
  if (now - signedAt > SIGNATURE_TOLERANCE_SECONDS) return `Message timestamp too old (${now - signedAt} s before the signer's clock)`;
  if (signedAt - now > SIGNATURE_TOLERANCE_SECONDS) return `Message timestamp too new (${signedAt - now} s after the signer's clock)`;
  let expected: Buffer;
  try {
    expected = Buffer.from(new Webhook(secret).sign(id, new Date(signedAt * 1000), delivery.body).slice('v1,'.length));
  } catch (error) {
    return `the secret cannot sign (${(error as Error).message})`;
  }
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || signature === undefined) return false;
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? undefined : 'No matching signature found';
}

/**
 * Findings of `webhook_signed`: every delivery to every endpoint is a signed envelope verifying with that endpoint's secret.
 * @param signerOffsetMs how far the signing target's clock runs ahead of the harness's wall clock (0 when unknown): the timestamp tolerance is judged against the target's time at receipt
 */
export function signatureFindings(endpoints: readonly EndpointDeliveries[], signerOffsetMs = 0): Finding[] {
  const findings: Finding[] = [];
  for (const endpoint of endpoints) {
    for (const [index, delivery] of endpoint.received.entries()) {
      const where = `delivery ${index + 1} to the ${endpoint.name} endpoint`;
      if (!envelopeOf(delivery.body)) {
        findings.push({ kind: 'webhook_envelope_malformed', title: 'A webhook body is not a {type, timestamp, data} envelope', message: `The body of ${where} is not a JSON object with a string type, a date-time timestamp and a data object: ${delivery.body.slice(0, 200)}`, expected: '{type, timestamp, data}', actual: delivery.body.slice(0, 200) });
      }
      const missing = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].filter((header) => !delivery.headers[header]);
      const problem = missing.length > 0 ? `missing header ${missing.join(', ')}` : signatureProblem(endpoint.secret, delivery, delivery.receivedAt + signerOffsetMs);
      if (problem) {
        findings.push({ kind: 'webhook_signature_invalid', title: "A webhook delivery does not verify with its endpoint's secret", message: `${where} does not verify with the Standard Webhooks scheme and the endpoint's secret: ${problem}.`, expected: 'a webhook-signature that verifies', actual: { 'webhook-id': delivery.headers['webhook-id'], 'webhook-timestamp': delivery.headers['webhook-timestamp'], 'webhook-signature': delivery.headers['webhook-signature'] } });
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
