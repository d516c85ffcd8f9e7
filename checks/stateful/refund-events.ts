/**
 * Judges a refund of an order: order.updated emitted for the order once it was refunded, and the
 * refund readable in the refund list with the order and the amount refunded. The order's status
 * after a refund is not stated, so it is never judged.
 * @see spec/rules.yaml refunds.readable, orders.refund_emits_updated, events.order_updated
 */
import type { TargetEvent } from '../../core/adapter.js';
import type { Finding } from '../../core/types.js';
import { eventsOfOrder } from './order-events.js';

type Item = Record<string, unknown>;

/**
 * Findings about the events of a refund.
 * @param events the events the target emitted from the refund on (its event log after minus before)
 * @returns empty when order.updated was emitted for the order
 */
export function refundEventFindings(orderId: string, events: readonly TargetEvent[]): Finding[] {
  const types = eventsOfOrder(events, orderId).map((event) => event.type);
  if (types.includes('order.updated')) return [];
  return [{
    kind: 'order_updated_not_emitted_on_refund',
    title: 'No order.updated when the order was refunded',
    message: `Order ${orderId} was partially refunded and no order.updated was emitted for it (its events since the refund: ${JSON.stringify(types)}).`,
    expected: 'order.updated',
    actual: types,
  }];
}

/**
 * The refund of the list that is the one issued: the item with its id when the adapter answered
 * one, else the first item of the order.
 */
export function listedRefund(items: readonly Item[], refund: Item, orderId: string): Item | undefined {
  return typeof refund.id === 'string' ? items.find((item) => item.id === refund.id) : items.find((item) => item.order_id === orderId);
}

/**
 * Findings about the refund list after a refund.
 * @param items the items of GET /v1/refunds/?order_id=<orderId>
 * @param refund the refund as the adapter answered it
 * @param amount the cents refunded, when the scenario asked for an amount
 * @returns empty when the list holds the refund, of the order, with that amount
 */
export function refundListingFindings(items: readonly Item[], refund: Item, orderId: string, amount: number | undefined): Finding[] {
  const listed = listedRefund(items, refund, orderId);
  if (!listed) {
    return [{
      kind: 'refund_not_listed',
      title: 'A refund is not in the refund list',
      message: `GET /v1/refunds/?order_id=${orderId} does not list refund ${typeof refund.id === 'string' ? refund.id : '(no id)'} of order ${orderId} after it was issued (it lists ${JSON.stringify(items.map((item) => item.id))}).`,
      expected: refund.id ?? `a refund of order ${orderId}`,
      actual: items.map((item) => item.id),
    }];
  }
  const wrong = listed.order_id !== orderId || (amount !== undefined && listed.amount !== amount);
  if (!wrong) return [];
  return [{
    kind: 'refund_listed_wrong',
    title: 'The listed refund does not show the order or the amount refunded',
    message: `Refund ${String(listed.id)} is listed with order_id ${JSON.stringify(listed.order_id)} and amount ${JSON.stringify(listed.amount)}; it refunded ${amount ?? 'the rest of'} cents of order ${orderId}.`,
    expected: { order_id: orderId, ...(amount !== undefined ? { amount } : {}) },
    actual: { order_id: listed.order_id, amount: listed.amount },
  }];
}
