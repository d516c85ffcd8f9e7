/**
 * Refunding a paid order (the control API's "a refund being issued": the API description shows no
 * operation that creates a refund, only the list). A refund succeeds at once: the refund record is
 * inserted (status succeeded), refund.created is emitted with it, and the order's refunded amounts
 * grow, which emits order.updated and order.refunded through the order machine.
 * Amounts follow the demo data's refunds: `amount` is a part of the order's net amount, and
 * `tax_amount` the same share of its tax (the last refund takes what is left of both).
 * @see spec/openapi.yaml, schema Refund; spec/rules.yaml orders.refund_emits_updated, events.order_updated
 */
import { emitEvent, type MachineContext } from '../../events.js';
import type { OrderRecord, RefundRecord } from '../../records.js';
import { fail, ok, type Result } from '../../result.js';
import { newId, nowTimestamp } from '../../store.js';
import { recordOrderRefund } from '../orders/machine.js';
import { serializeRefund } from './serializer.js';

/** Events of a new refund, with the refund as data (before the order's own events). */
export const REFUND_CREATION_EVENTS = ['refund.created'] as const;

/** Reason of a refund when none is given (a value of the demo data's refunds). */
export const DEFAULT_REFUND_REASON = 'customer_request';

/** What a refund needs; every field has a default. */
export interface RefundInput {
  /** Cents of the order's net amount to refund, from 1 to what is left to refund; default all that is left (a full refund). */
  amount?: number;
  /** Default {@link DEFAULT_REFUND_REASON}. */
  reason?: string;
}

/** Why a refund is refused: the order is not paid or has nothing left to refund (CONFLICT), or the amount is not valid (INVALID). */
export interface RefundRefusal {
  code: 'CONFLICT' | 'INVALID';
  message: string;
}

/** Cents of an order's net amount not refunded yet. */
export function refundableAmount(order: OrderRecord): number {
  return Math.max(0, order.net_amount - order.refunded_amount);
}

/**
 * Refunds a paid order, partially or fully.
 * @returns the refund and the order after it, or why not (nothing changes on refusal)
 */
export function refundOrder(ctx: MachineContext, order: OrderRecord, input: RefundInput = {}): Result<{ refund: RefundRecord; order: OrderRecord }, RefundRefusal> {
  if (order.status !== 'paid') return fail({ code: 'CONFLICT', message: `Order ${order.id} is ${order.status}; only a paid order can be refunded.` });
  const left = refundableAmount(order);
  if (left === 0) return fail({ code: 'CONFLICT', message: `Order ${order.id} has nothing left to refund (net amount ${order.net_amount}, refunded ${order.refunded_amount}).` });
  const amount = input.amount ?? left;
  if (!Number.isInteger(amount) || amount < 1 || amount > left) return fail({ code: 'INVALID', message: `amount must be an integer from 1 to ${left} cents (what is left to refund of order ${order.id}).` });
  const taxLeft = Math.max(0, order.tax_amount - order.refunded_tax_amount);
  const taxAmount = amount === left ? taxLeft : Math.min(taxLeft, Math.round((order.tax_amount * amount) / order.net_amount));
  const refund = ctx.store.refunds.insert({
    id: newId(ctx.store),
    organization_id: order.organization_id,
    created_at: nowTimestamp(ctx.store),
    modified_at: null,
    metadata: {},
    status: 'succeeded',
    reason: input.reason ?? DEFAULT_REFUND_REASON,
    amount,
    tax_amount: taxAmount,
    currency: order.currency,
    order_id: order.id,
    subscription_id: order.subscription_id,
    customer_id: order.customer_id,
    revoke_benefits: false,
    dispute: null,
  });
  const data = serializeRefund(ctx, refund);
  for (const type of REFUND_CREATION_EVENTS) emitEvent(ctx.store, type, data);
  const recorded = recordOrderRefund(ctx, order, amount, taxAmount);
  // The order was checked to be paid above, so the order machine cannot refuse.
  if (!recorded.ok) throw new Error(`order ${order.id}: ${recorded.error.code}`);
  return ok({ refund, order: recorded.value });
}
