/**
 * Judges the events of one order around its pending to paid transition, as the target's event log
 * shows them before and after the completion: order.created from the start, order.paid only once
 * the order is paid, order.updated and order.paid after the completion.
 * @see spec/rules.yaml orders.created_pending, orders.paid_transition_events, events.order_created, events.order_paid
 */
import type { TargetEvent } from '../../core/adapter.js';
import type { Finding } from '../../core/types.js';

/** The events of the log that are about the order `orderId` (their data's id), in log order. */
export function eventsOfOrder(events: readonly TargetEvent[], orderId: string): TargetEvent[] {
  return events.filter((event) => typeof event.data === 'object' && event.data !== null && event.data.id === orderId);
}

/** The events of `after` that `before` did not have: by id when events carry one, else by position in the append-only log. */
export function newEvents(before: readonly TargetEvent[], after: readonly TargetEvent[]): TargetEvent[] {
  if (after.every((event) => typeof event.id === 'string')) {
    const seen = new Set(before.map((event) => event.id));
    return after.filter((event) => !seen.has(event.id));
  }
  return after.slice(before.length);
}

/**
 * Findings about an order's events.
 * @param before the event log after the order was created, before it was completed
 * @param after the event log after the completion
 * @returns empty when order.created was emitted at creation, order.paid not before the completion,
 *   and order.updated and order.paid (with the order paid) at the completion, order.created first
 */
export function orderEventFindings(orderId: string, before: readonly TargetEvent[], after: readonly TargetEvent[]): Finding[] {
  const findings: Finding[] = [];
  const created = eventsOfOrder(before, orderId);
  const types = (events: readonly TargetEvent[]) => events.map((event) => event.type);
  if (!types(created).includes('order.created')) {
    findings.push({ kind: 'order_created_not_emitted', title: 'No order.created for a new order', message: `The event log has no order.created for order ${orderId} after it was created (its events: ${JSON.stringify(types(created))}).`, expected: 'order.created', actual: types(created) });
  }
  if (types(created).includes('order.paid')) {
    findings.push({ kind: 'order_paid_before_paid', title: 'order.paid emitted for an order not yet paid', message: `order.paid was emitted for order ${orderId} before its processing completed: order.paid must mean the order is paid.`, expected: 'no order.paid while pending', actual: types(created) });
  }
  const completion = eventsOfOrder(newEvents(before, after), orderId);
  for (const type of ['order.updated', 'order.paid']) {
    if (!types(completion).includes(type)) {
      findings.push({ kind: `${type.replace('.', '_')}_not_emitted`, title: `No ${type} when the order became paid`, message: `Order ${orderId} went from pending to paid, and no ${type} was emitted (events of the completion: ${JSON.stringify(types(completion))}).`, expected: type, actual: types(completion) });
    }
  }
  for (const paid of completion.filter((event) => event.type === 'order.paid')) {
    const { status, paid: flag } = paid.data;
    if ((status !== undefined && status !== 'paid') || (flag !== undefined && flag !== true)) {
      findings.push({ kind: 'order_paid_data_not_paid', title: 'order.paid carries an order that is not paid', message: `The order in order.paid has status ${JSON.stringify(status)} and paid ${JSON.stringify(flag)}.`, expected: { status: 'paid', paid: true }, actual: { status, paid: flag } });
    }
  }
  const log = eventsOfOrder(after, orderId);
  const firstCreated = log.findIndex((event) => event.type === 'order.created');
  const firstPaid = log.findIndex((event) => event.type === 'order.paid');
  if (firstCreated >= 0 && firstPaid >= 0 && firstPaid < firstCreated) {
    findings.push({ kind: 'order_paid_before_created', title: 'order.paid before order.created', message: `The event log of order ${orderId} has order.paid before order.created.`, expected: 'order.created first', actual: types(log) });
  }
  return findings;
}

/**
 * The amounts an order carries in place of the deprecated `amount`, integers in cents.
 * @see spec/rules.yaml deprecations.order_net_amount
 */
export const ORDER_AMOUNT_FIELDS: readonly string[] = ['net_amount', 'subtotal_amount', 'discount_amount', 'total_amount'];

/**
 * Findings about an order as the target shows it (the adapter answers orders "as the API shows
 * them"): `items` is an array, net_amount, subtotal_amount, discount_amount and total_amount are
 * integers, and the deprecated `amount`, where still present, equals net_amount. The deprecated
 * product_price_id and product_price may be absent, so they are not judged.
 * @param where how the message names the order (`the order the adapter created`)
 */
export function orderShapeFindings(order: Record<string, unknown>, where: string): Finding[] {
  const findings: Finding[] = [];
  if (!Array.isArray(order.items)) {
    findings.push({ kind: 'order_items_missing', title: 'An order carries no items', message: `${where} has items ${JSON.stringify(order.items)}; items replaces the deprecated product_price_id and product_price.`, expected: 'an array', actual: order.items });
  }
  const notIntegers = ORDER_AMOUNT_FIELDS.filter((field) => !Number.isInteger(order[field]));
  if (notIntegers.length > 0) {
    findings.push({ kind: 'order_amounts_missing', title: 'An order lacks an amount that replaces the deprecated amount', message: `${where} has no integer ${notIntegers.join(', ')}.`, expected: 'integers in cents', actual: Object.fromEntries(notIntegers.map((field) => [field, order[field]])) });
  }
  if (order.amount !== undefined && order.amount !== order.net_amount) {
    findings.push({ kind: 'order_amount_not_net', title: "An order's deprecated amount differs from its net_amount", message: `${where} has amount ${JSON.stringify(order.amount)} and net_amount ${JSON.stringify(order.net_amount)}; net_amount replaces amount with the same value.`, expected: order.net_amount, actual: order.amount });
  }
  return findings;
}
