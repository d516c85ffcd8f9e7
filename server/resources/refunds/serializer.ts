/**
 * Refunds, with the dispute they settle, as the API answers them.
 * @see spec/openapi.yaml, schemas Refund, Dispute
 */
import type { DisputeRecord, RefundRecord } from '../../records.js';
import { renderNullableTimestamp as nullableTs, renderTimestamp as ts, type RenderContext } from '../../render.js';
import type { Json } from '../products/serializer.js';

/** A dispute. @see spec/openapi.yaml, schema Dispute */
export function serializeDispute(ctx: RenderContext, dispute: DisputeRecord): Json {
  return {
    created_at: ts(ctx, dispute.created_at),
    modified_at: nullableTs(ctx, dispute.modified_at),
    id: dispute.id,
    status: dispute.status,
    resolved: dispute.resolved,
    closed: dispute.closed,
    amount: dispute.amount,
    tax_amount: dispute.tax_amount,
    currency: dispute.currency,
    reason: dispute.reason,
    evidence_due_by: nullableTs(ctx, dispute.evidence_due_by),
    past_due: dispute.past_due,
    order_id: dispute.order_id,
    payment_id: dispute.payment_id,
  };
}

/** A refund; `dispute` is null when it settles none. @see spec/openapi.yaml, schema Refund */
export function serializeRefund(ctx: RenderContext, refund: RefundRecord): Json {
  return {
    created_at: ts(ctx, refund.created_at),
    modified_at: nullableTs(ctx, refund.modified_at),
    id: refund.id,
    metadata: { ...refund.metadata },
    status: refund.status,
    reason: refund.reason,
    amount: refund.amount,
    tax_amount: refund.tax_amount,
    currency: refund.currency,
    organization_id: refund.organization_id,
    order_id: refund.order_id,
    subscription_id: refund.subscription_id,
    customer_id: refund.customer_id,
    revoke_benefits: refund.revoke_benefits,
    dispute: refund.dispute && serializeDispute(ctx, refund.dispute),
  };
}
