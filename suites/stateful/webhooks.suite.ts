// Webhooks: a local receiver (127.0.0.1, a free port) stands behind three endpoints registered
// through the adapter (the API shows no registration operation): one subscribed to order.created
// and order.paid, one to order.updated, and one subscribed to all three but disabled. An order is
// created and completed through the adapter, with the target's test clock first moved a day ahead
// when the adapter can move it; every delivery must verify as the platform's verifiers verify
// (Standard Webhooks keyed with the UTF-8 bytes of its endpoint's secret, stamped with the wall
// clock whatever the test clock says) and carry the {type, timestamp, data} envelope, and each
// event must reach the enabled endpoints subscribed to it and no other. Both scenarios judge the
// same deliveries.
import { signatureFindings, subscriptionFindings, type EndpointDeliveries } from '../../checks/stateful/webhook-deliveries.js';
import type { WebhookEndpoint } from '../../core/adapter.js';
import { awaitDeliveries, startWebhookReceiver, type ReceivedRequest } from '../../core/webhook-receiver.js';
import { defineScenario, sharedObservation, sleep, statefulSuite, type ScenarioRun } from '../../engine/stateful/scenario.js';

const suite = await statefulSuite();

/** The endpoints the scenarios register: name, subscribed kinds, enabled when the order happens. */
const ENDPOINTS = [
  { name: 'subscribed', events: ['order.created', 'order.paid'], enabled: true },
  { name: 'updates', events: ['order.updated'], enabled: true },
  { name: 'disabled', events: ['order.created', 'order.updated', 'order.paid'], enabled: false },
] as const;

/** The events an order's creation and completion cause, which the enabled subscribed endpoints must get. */
const CAUSED = ['order.created', 'order.updated', 'order.paid'];

/** Longest wait for the expected deliveries, in milliseconds (the reference retries after 1 s, 2 s, ...). */
const DELIVERY_WAIT_MS = 10_000;
/** Extra wait for deliveries that must not come (to a disabled or unsubscribed endpoint), in milliseconds. */
const SILENCE_WAIT_MS = 500;

/**
 * How far the scenario moves the target's test clock before the order, in milliseconds, when the
 * adapter can: far past the verifiers' 5-minute tolerance, so that a target stamping its
 * signatures with its test clock instead of the wall clock is seen (docs/lifecycle.md).
 */
const CLOCK_AHEAD_MS = 24 * 3600 * 1000;

/** What the deliveries of one order looked like, shared by both scenarios. */
interface Observation {
  orderId: string;
  endpoints: EndpointDeliveries[];
  steps: string[];
}

function ofOrder(received: readonly ReceivedRequest[], orderId: string, type: string): boolean {
  return received.some((r) => {
    try {
      const body = JSON.parse(r.body) as { type?: unknown; data?: { id?: unknown } };
      return body.type === type && body.data?.id === orderId;
    } catch {
      return false;
    }
  });
}

/** Registers the endpoints, causes an order's events, waits for the deliveries, then disables the endpoints and stops the receiver. */
async function observe(s: ScenarioRun): Promise<Observation> {
  const receiver = await startWebhookReceiver();
  const registered: { spec: (typeof ENDPOINTS)[number]; endpoint: WebhookEndpoint }[] = [];
  try {
    for (const spec of ENDPOINTS) {
      const endpoint = await s.adapter('createWebhookEndpoint')({ url: receiver.urlFor(spec.name), events: [...spec.events] });
      s.secret(endpoint.secret, `WEBHOOK_SECRET_${spec.name.toUpperCase()}`);
      registered.push({ spec, endpoint });
    }
    for (const { spec, endpoint } of registered) if (!spec.enabled) await s.adapter('setWebhookEndpointEnabled')(endpoint.id, false);
    if (suite.adapter?.advanceClock) await s.adapter('advanceClock')(CLOCK_AHEAD_MS);
    const order = await s.adapter('createOrder')({});
    const orderId = String(order.id);
    const completed = await s.adapter('completeOrder')(orderId);
    if (order.status === 'pending' && completed.status === 'paid') s.transition('order', 'pending', 'paid');
    // Until the expected deliveries arrive, or the target says its deliveries settled without them, or DELIVERY_WAIT_MS passes.
    const settle = suite.adapter?.settleDeliveries?.bind(suite.adapter);
    await awaitDeliveries(receiver, () => ofOrder(receiver.receivedBy('subscribed'), orderId, 'order.created') && ofOrder(receiver.receivedBy('subscribed'), orderId, 'order.paid') && ofOrder(receiver.receivedBy('updates'), orderId, 'order.updated'), DELIVERY_WAIT_MS, settle);
    // Settling is an optimisation: a target whose deliveries never settle is judged by what arrived.
    await suite.adapter?.settleDeliveries?.(SILENCE_WAIT_MS).catch(() => undefined);
    await sleep(SILENCE_WAIT_MS);
    return {
      orderId,
      endpoints: registered.map(({ spec, endpoint }) => ({ name: spec.name, secret: endpoint.secret, events: [...spec.events], enabled: spec.enabled, received: receiver.receivedBy(spec.name) })),
      steps: [...s.steps],
    };
  } finally {
    // Leave nothing that would keep delivering to a receiver that is gone.
    for (const { endpoint } of registered) await suite.adapter?.setWebhookEndpointEnabled?.(endpoint.id, false).catch(() => undefined);
    await receiver.close();
  }
}

/** The shared observation: made by whichever scenario runs first (engine/stateful/scenario.ts). */
const observed = sharedObservation(observe);

defineScenario(suite, 'webhook_signed', async (s) => {
  const { endpoints } = await observed(s);
  const deliveries = endpoints.reduce((sum, e) => sum + e.received.length, 0);
  s.check(deliveries > 0, { kind: 'no_webhook_delivered', title: 'No webhook delivery arrived', message: `No endpoint received anything within ${DELIVERY_WAIT_MS} ms of an order's creation and completion (or by the time the target said its deliveries had settled), so no signature could be verified.`, expected: 'deliveries', actual: 0 });
  for (const finding of signatureFindings(endpoints)) s.fail(finding);
});

defineScenario(suite, 'webhook_subscribed_only', async (s) => {
  const { endpoints, orderId } = await observed(s);
  for (const finding of subscriptionFindings(endpoints, orderId, CAUSED)) s.fail(finding);
});
