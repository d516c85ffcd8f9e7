/**
 * Judges what the test clock did to subscriptions a scenario started on it (pure functions over
 * the API's answers and the target's event log): a renewal's period, a renewal's order, a
 * cancellation at period end, and the order of a renewal order's events.
 * @see docs/lifecycle.md; spec/rules.yaml lifecycle.renewal_order, lifecycle.period_moves,
 *   lifecycle.trial_end, lifecycle.cancel_at_period_end, lifecycle.failed_payment, events.order_created_before_paid
 */
import type { TargetEvent } from '../../core/adapter.js';
import type { Finding } from '../../core/types.js';

/** The instant of an API timestamp in epoch milliseconds, or undefined when it is none. */
function instant(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Findings of `subscription_period_renews` for one renewal: the subscription is active, its new
 * period starts where the old one ended (to the second) and ends later.
 * @param before the subscription as started (its `current_period_start`, `current_period_end`)
 * @param after the subscription as the API shows it after the clock passed the period end
 */
export function periodFindings(before: Record<string, unknown>, after: Record<string, unknown>): Finding[] {
  const oldEnd = instant(before.current_period_end);
  const newStart = instant(after.current_period_start);
  const newEnd = instant(after.current_period_end);
  const moved = oldEnd !== undefined && newStart !== undefined && newEnd !== undefined && Math.abs(newStart - oldEnd) < 1000 && newEnd > newStart;
  if (after.status === 'active' && moved) return [];
  return [{
    kind: 'renewal_period_not_moved',
    title: 'A renewal did not move the subscription to its next period',
    message: `After the clock passed the period end ${String(before.current_period_end)}, subscription ${String(after.id)} is ${JSON.stringify(after.status)} with period ${String(after.current_period_start)} to ${String(after.current_period_end)}: a renewal starts the next period where the last one ended, and it stays active.`,
    expected: { status: 'active', current_period_start: before.current_period_end, current_period_end: 'later than current_period_start' },
    actual: { status: after.status, current_period_start: after.current_period_start, current_period_end: after.current_period_end },
  }];
}

/** The renewal orders of a subscription in an event log: the ids of orders announced with its id and billing_reason subscription_cycle, in log order. */
export function renewalOrderIds(events: readonly TargetEvent[], subscriptionId: string): string[] {
  const ids: string[] = [];
  for (const event of events) {
    const data = event.data;
    if (!event.type.startsWith('order.') || data.subscription_id !== subscriptionId || data.billing_reason !== 'subscription_cycle' || typeof data.id !== 'string') continue;
    if (!ids.includes(data.id)) ids.push(data.id);
  }
  return ids;
}

/**
 * Findings of `subscription_renewal_order` for one renewal's order as the API shows it (orders:get):
 * billing_reason subscription_cycle, the subscription's id, at least one item, and paid.
 */
export function renewalOrderFindings(subscriptionId: string, order: Record<string, unknown>): Finding[] {
  const items = Array.isArray(order.items) ? order.items.length : 0;
  if (order.billing_reason === 'subscription_cycle' && order.subscription_id === subscriptionId && items > 0 && order.status === 'paid') return [];
  return [{
    kind: 'renewal_order_malformed',
    title: 'The order of a renewal is not a paid subscription_cycle order with items',
    message: `The renewal order ${String(order.id)} of subscription ${subscriptionId} has billing_reason ${JSON.stringify(order.billing_reason)}, subscription_id ${JSON.stringify(order.subscription_id)}, ${items} items and status ${JSON.stringify(order.status)}.`,
    expected: { billing_reason: 'subscription_cycle', subscription_id: subscriptionId, items: 'at least one', status: 'paid' },
    actual: { billing_reason: order.billing_reason, subscription_id: order.subscription_id, items, status: order.status },
  }];
}

/**
 * Findings of `subscription_cancel_at_period_end`: the subscription set to cancel at its period end
 * is canceled, ended at that period end (to the second), and the clock made no renewal order for it.
 */
export function cancelAtPeriodEndFindings(before: Record<string, unknown>, after: Record<string, unknown> | undefined, renewalOrders: number): Finding[] {
  const end = instant(before.current_period_end);
  const ended = instant(after?.ended_at);
  if (after && after.status === 'canceled' && end !== undefined && ended !== undefined && Math.abs(ended - end) < 1000 && renewalOrders === 0) return [];
  return [{
    kind: 'cancel_at_period_end_not_applied',
    title: 'A subscription set to cancel at period end was not canceled then',
    message: `Subscription ${String(before.id)} had cancel_at_period_end true and a period ending ${String(before.current_period_end)}; after the clock passed it, it is ${JSON.stringify(after?.status)} with ended_at ${String(after?.ended_at)}, and ${renewalOrders} renewal orders were made for it.`,
    expected: { status: 'canceled', ended_at: before.current_period_end, renewal_orders: 0 },
    actual: { status: after?.status, ended_at: after?.ended_at, renewal_orders: renewalOrders },
  }];
}

/** Findings of `renewal_order_events_ordered` for one order: the log holds its order.created and its order.paid, the creation first. */
export function orderEventOrderFindings(events: readonly TargetEvent[], orderId: string): Finding[] {
  const types = events.filter((event) => event.data.id === orderId).map((event) => event.type);
  const created = types.indexOf('order.created');
  const paid = types.indexOf('order.paid');
  if (created >= 0 && paid > created) return [];
  return [{
    kind: 'order_paid_before_created',
    title: 'A renewal order was not announced order.created before order.paid',
    message: `The events of renewal order ${orderId}, in log order: ${types.join(', ') || '(none)'}; order.created comes first, order.paid once it is paid.`,
    expected: ['order.created', '...', 'order.paid'],
    actual: types,
  }];
}
