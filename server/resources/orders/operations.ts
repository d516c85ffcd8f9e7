/**
 * What the order operations answer once the order is found, shared by the organization
 * operations (`orders:*`) and their customer portal twins (`customer_portal:orders:*`), which
 * differ only in how the order is found.
 * Choices where the API description is silent: a receipt exists only for a paid order (404 before);
 * generating an invoice answers 202 with the order and is idempotent; as the platform declares, a
 * pending order cannot be invoiced (409 OrderNotEligibleForInvoice) nor can an order without a
 * billing name and address (422 MissingInvoiceBillingDetails); the invoice is 404 until generated;
 * billing details change until the invoice is generated, then 422.
 * @see docs/platform.md (invoices)
 * @see operationIds orders:get_receipt, orders:update, orders:generate_invoice, orders:get_invoice (from the change history)
 *   and their customer_portal:orders:* twins
 */
import type { HandlerContext } from '../../handler-types.js';
import type { OrderRecord } from '../../records.js';
import { renderTimestamp } from '../../render.js';
import { nowTimestamp } from '../../store.js';
import { errorReply, validationReply, type Reply } from '../../replies.js';
import { addressFields, documentUrl, generateInvoice, hasInvoice, updateBilling, type BillingUpdate } from './invoices.js';
import { serializeCustomerOrder, serializeOrder } from './serializer.js';

/** Who asks: the organization API (`Order` bodies) or the customer portal (`CustomerOrder` bodies). */
export type OrderAudience = 'organization' | 'portal';

function orderBody(ctx: HandlerContext, order: OrderRecord, audience: OrderAudience): Record<string, unknown> {
  const body = audience === 'portal' ? serializeCustomerOrder(ctx, order) : serializeOrder(ctx, order);
  // The faults of the order operations' answers (the events and the control API show the order right).
  if (ctx.faults.has('order_paid_flag_stale') && order.status === 'paid') body.paid = false;
  if (ctx.faults.has('order_amount_not_net')) body.amount = order.total_amount;
  return body;
}

/** 200 with the order, as the organization API or the customer portal shows it. */
export function orderReply(ctx: HandlerContext, order: OrderRecord, audience: OrderAudience): Reply {
  return { status: 200, body: orderBody(ctx, order, audience) };
}

/** 200 `{url}` of the receipt PDF; 404 while the order is not paid. */
export function receiptReply(ctx: HandlerContext, order: OrderRecord): Reply {
  const url = documentUrl(ctx, order, 'receipt');
  if (!url.ok) return errorReply(404, `Order ${order.id} has no receipt: it is not paid yet.`);
  return { status: 200, body: { url: url.value } };
}

/**
 * 202 with the order (is_invoice_generated true); 409 `{error: "OrderNotEligibleForInvoice", detail}`
 * for a pending order; 422 `{error: "MissingInvoiceBillingDetails", detail}` for an order without a
 * billing name or address whose invoice is not generated yet.
 * @see docs/platform.md (invoices: the platform's status codes and error bodies)
 */
export function generateInvoiceReply(ctx: HandlerContext, order: OrderRecord, audience: OrderAudience = 'organization'): Reply {
  if (order.status !== 'paid') {
    return { status: 409, body: { error: 'OrderNotEligibleForInvoice', detail: `Order ${order.id} is not paid yet; only a paid order can be invoiced.` } };
  }
  if (!hasInvoice(order, ctx.faults) && (order.billing_name === null || order.billing_address === null)) {
    return { status: 422, body: { error: 'MissingInvoiceBillingDetails', detail: `Order ${order.id} has no billing ${order.billing_name === null ? 'name' : 'address'}; set it with PATCH before generating the invoice.` } };
  }
  const generated = generateInvoice(ctx, order);
  if (!generated.ok) return { status: 409, body: { error: 'OrderNotEligibleForInvoice', detail: `Order ${order.id} cannot be invoiced.` } };
  return { status: 202, body: orderBody(ctx, generated.value, audience) };
}

/** 200 `{url}` of the invoice PDF; 404 until the invoice is generated. */
export function invoiceReply(ctx: HandlerContext, order: OrderRecord, generatePath: string): Reply {
  const url = documentUrl(ctx, order, 'invoice');
  if (!url.ok) return errorReply(404, `Order ${order.id} has no invoice yet: generate it first with POST ${generatePath}.`);
  return { status: 200, body: { url: url.value } };
}

/** 200 with the order after changing its billing name and address; 422 once the invoice is generated. */
export function updateBillingReply(ctx: HandlerContext, order: OrderRecord, audience: OrderAudience = 'organization'): Reply {
  const update = ctx.body as BillingUpdate;
  const updated = updateBilling(ctx, order, update);
  if (!updated.ok) {
    const input = { billing_name: update.billing_name, billing_address: addressFields(update.billing_address) };
    return validationReply([{ loc: ['body'], msg: 'The invoice of this order is already generated; its billing details can no longer change.', type: 'invoice_already_generated', input }]);
  }
  const body = orderBody(ctx, updated.value, audience) as Record<string, unknown>;
  if (ctx.faults.has('modified_at_not_stored')) body.modified_at = renderTimestamp(ctx, nowTimestamp(ctx.store));
  return { status: 200, body };
}
