/**
 * The order state machine: an order is created pending (a transitive state) and becomes paid when
 * its processing completes. A refund, partial or full, leaves the status as it is (the API
 * description does not state another value) and emits order.updated as an event, not a
 * transition. The table is declarative, so that stateful suites can import it.
 * @see spec/rules.yaml orders.created_pending, orders.paid_transition_events, orders.refund_emits_updated
 */
import { emitEvent, type MachineContext } from '../../events.js';
import { planTransition, type TransitionRefused } from '../../machine.js';
import type { OrderRecord, OrderStatus } from '../../records.js';
import { fail, ok, type Result } from '../../result.js';
import { nowTimestamp } from '../../store.js';
import { serializeOrderCheckout } from '../checkouts/serializer.js';
import { orderEventData } from './serializer.js';
import { ORDER_REFUND_EVENTS, ORDER_TRANSITIONS, type OrderTransition } from './transitions.js';

export { ORDER_REFUND_EVENTS, ORDER_TRANSITIONS, type OrderTransition };

/** Events of an order's creation: order.created, while the order may still be pending. @see spec/rules.yaml events.order_created */
export const ORDER_CREATION_EVENTS = ['order.created'] as const;

/** The event of the checkout an order comes from, emitted before the order's own. @see spec/rules.yaml events.checkout_created */
export const CHECKOUT_CREATION_EVENTS = ['checkout.created'] as const;

/**
 * Inserts a new pending order and emits its creation events (checkout.created first when it comes
 * from a checkout, then order.created).
 * @param order a record from `draftOrder`, status pending
 */
export function createOrder(ctx: MachineContext, order: OrderRecord): OrderRecord {
  ctx.store.orders.insert(order);
  if (order.checkout_id !== null) {
    for (const type of CHECKOUT_CREATION_EVENTS) {
      emitEvent(ctx.store, type, serializeOrderCheckout(ctx, order)!);
    }
  }
  const data = orderEventData(ctx, order);
  for (const type of ORDER_CREATION_EVENTS) emitEvent(ctx.store, type, data);
  return order;
}

/**
 * Fires an order transition: sets the status and modified_at, then emits the transition's events
 * with the order as it now is.
 * @param faults `event_skipped` leaves out order.paid
 * @returns the order, or the refusal when its status does not allow the transition
 */
export function fireOrderTransition(ctx: MachineContext, order: OrderRecord, name: OrderTransition): Result<OrderRecord, TransitionRefused<OrderStatus>> {
  const planned = planTransition<OrderStatus, OrderTransition>(ORDER_TRANSITIONS, name, order.status);
  if (!planned.ok) return fail(planned.error);
  ctx.store.orders.update(order, { status: planned.value.to, modified_at: nowTimestamp(ctx.store) });
  const data = orderEventData(ctx, order);
  for (const type of planned.value.events) {
    if (type === 'order.paid' && ctx.faults.has('event_skipped')) continue;
    emitEvent(ctx.store, type, data);
  }
  return ok(order);
}

/**
 * Records a refund of a paid order: adds `amount` and `taxAmount` to its refunded amounts, sets
 * modified_at, then emits {@link ORDER_REFUND_EVENTS} with the order as it now is. The caller has
 * checked the amounts (refunds/create.ts).
 * @param amount cents refunded, added to refunded_amount
 * @param taxAmount cents of tax refunded, added to refunded_tax_amount
 * @param faults `refund_event_skipped` leaves out order.updated
 * @returns the order, or the refusal when it is not paid (only a paid order has a payment to refund)
 */
export function recordOrderRefund(ctx: MachineContext, order: OrderRecord, amount: number, taxAmount: number): Result<OrderRecord, TransitionRefused<OrderStatus>> {
  if (order.status !== 'paid') return fail({ code: 'TRANSITION_NOT_ALLOWED', transition: 'refund', from: order.status, allowed: ['paid'] });
  ctx.store.orders.update(order, {
    refunded_amount: order.refunded_amount + amount,
    refunded_tax_amount: order.refunded_tax_amount + taxAmount,
    modified_at: nowTimestamp(ctx.store),
  });
  const data = orderEventData(ctx, order);
  for (const type of ORDER_REFUND_EVENTS) {
    if (type === 'order.updated' && ctx.faults.has('refund_event_skipped')) continue;
    emitEvent(ctx.store, type, data);
  }
  return ok(order);
}
