// Refunds: a paid order refunded in part (through the adapter: the API shows no operation that
// creates a refund) emits order.updated, and the refund is readable in the refund list with its
// order and amount. order.updated is read from the target's event log and, when a receiver on
// this machine can be reached from the target and the adapter registers webhook endpoints, from a
// webhook delivery to an endpoint subscribed to it. The order's status after a refund is not
// stated by the API description, so it is not judged.
import { newEvents } from '../../checks/stateful/order-events.js';
import { refundEventFindings, refundListingFindings } from '../../checks/stateful/refund-events.js';
import { envelopeOf } from '../../checks/stateful/webhook-deliveries.js';
import { AdapterError, type WebhookEndpoint } from '../../core/adapter.js';
import { isLoopback } from '../../core/target.js';
import { awaitDeliveries, startWebhookReceiver, type WebhookReceiver } from '../../core/webhook-receiver.js';
import { defineScenario, statefulSuite, type ScenarioRun } from '../../engine/stateful/scenario.js';

const suite = await statefulSuite();

/** Longest wait for the order.updated delivery, in milliseconds (the reference retries after 1 s, 2 s, ...). */
const DELIVERY_WAIT_MS = 10_000;

/** Whether order.updated of the order has arrived at the receiver. */
function updateDelivered(receiver: WebhookReceiver, orderId: string): boolean {
  return receiver.receivedBy('refunds').some((delivery) => {
    const envelope = envelopeOf(delivery.body);
    return envelope?.type === 'order.updated' && envelope.data.id === orderId;
  });
}

/** A receiver and an endpoint subscribed to order.updated, when the target can deliver to this machine and the adapter registers endpoints; else undefined (a step says why). */
async function webhookListener(s: ScenarioRun): Promise<{ receiver: WebhookReceiver; endpoint: WebhookEndpoint } | undefined> {
  const { adapter, target } = s.suite;
  if (!isLoopback(new URL(target.baseUrl)) || typeof adapter?.createWebhookEndpoint !== 'function' || typeof adapter.setWebhookEndpointEnabled !== 'function') {
    s.steps.push('no webhook delivery judged: the target is not on this machine or the adapter registers no webhook endpoint');
    return undefined;
  }
  const receiver = await startWebhookReceiver();
  try {
    const endpoint = await s.adapter('createWebhookEndpoint')({ url: receiver.urlFor('refunds'), events: ['order.updated'] });
    s.secret(endpoint.secret, 'WEBHOOK_SECRET_REFUNDS');
    return { receiver, endpoint };
  } catch (error) {
    await receiver.close();
    throw error;
  }
}

defineScenario(suite, 'refund_emits_order_updated', async (s) => {
  const order = await s.adapter('createOrder')({});
  if (typeof order.id !== 'string') throw new AdapterError('createOrder', `adapter "${suite.adapter?.name}": createOrder returned an order without an id`);
  const orderId = order.id;
  const completed = await s.adapter('completeOrder')(orderId);
  if (completed.status !== 'paid') return s.skip(`the completed order ${orderId} has status ${JSON.stringify(completed.status)}, not paid: order_paid_transition judges that; only a paid order can be refunded`);
  if (order.status === 'pending') s.transition('order', 'pending', 'paid');
  const net = typeof completed.net_amount === 'number' ? completed.net_amount : undefined;
  if (net === 0) return s.skip(`order ${orderId} charges nothing (net_amount 0): there is nothing to refund`);
  // A partial refund: half of the net amount (a full one when it is a single cent or not shown).
  const amount = net !== undefined && Number.isInteger(net) && net >= 2 ? Math.floor(net / 2) : undefined;

  const listener = await webhookListener(s);
  try {
    const before = await s.adapter('listEvents')({});
    const refund = await s.adapter('refundOrder')(orderId, amount === undefined ? {} : { amount });
    const after = await s.adapter('listEvents')({});
    for (const finding of refundEventFindings(orderId, newEvents(before, after))) s.fail(finding);

    const listed = s.require(await s.send('refunds:list', { role: 'admin', query: { order_id: orderId, limit: '100' } }), `GET /v1/refunds/?order_id=${orderId}`);
    const items = Array.isArray(listed.items) ? (listed.items as Record<string, unknown>[]) : [];
    for (const finding of refundListingFindings(items, refund, orderId, amount)) s.fail(finding);

    if (listener) {
      // Until the delivery arrives, or the target says its deliveries settled without it, or DELIVERY_WAIT_MS passes
      // (a target still retrying deliveries to another endpoint does not hold up this one).
      const settle = suite.adapter?.settleDeliveries?.bind(suite.adapter);
      const delivered = await awaitDeliveries(listener.receiver, () => updateDelivered(listener.receiver, orderId), DELIVERY_WAIT_MS, settle);
      s.check(delivered, {
        kind: 'order_updated_not_delivered_on_refund',
        title: 'A webhook endpoint subscribed to order.updated did not receive it when the order was refunded',
        message: `An enabled endpoint subscribed to order.updated, registered after order ${orderId} was paid, received no order.updated for it within ${DELIVERY_WAIT_MS} ms of its refund, or by the time the target said its deliveries had settled (it received ${listener.receiver.receivedBy('refunds').length} delivery(ies)).`,
        expected: 'order.updated',
        actual: listener.receiver.receivedBy('refunds').map((delivery) => envelopeOf(delivery.body)?.type ?? 'not an envelope'),
      });
    }
  } finally {
    // Leave nothing that would keep delivering to a receiver that is gone.
    if (listener) {
      await suite.adapter?.setWebhookEndpointEnabled?.(listener.endpoint.id, false).catch(() => undefined);
      await listener.receiver.close();
    }
  }
});
