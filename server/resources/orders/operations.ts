/**
 * What the order operations answer once the order is found, shared by the organization
 * operations (`orders:*`) and their customer portal twins (`customer_portal:orders:*`), which
 * differ only in how the order is found.
 * Choices where the API description is silent: a receipt exists only for a paid order (404 before);
 * generating an invoice answers 202 with the order and is idempotent, and a pending order cannot be
 * invoiced (422); the invoice is 404 until generated; billing details change until the invoice is
 * generated, then 422.
 * @see shared/api-description.md, Endpoints (receipt; invoices and order update, from the change history)
 */
import type { HandlerContext } from '../../handler-types.js';
import { errorReply, validationReply, type Reply } from '../../replies.js';
import type { OrderRecord } from '../../store.js';
import { addressFields, documentUrl, generateInvoice, updateBilling, type BillingUpdate } from './invoices.js';
import { serializeOrder } from './serializer.js';

/** 200 `{url}` of the receipt PDF; 404 while the order is not paid. */
export function receiptReply(ctx: HandlerContext, order: OrderRecord): Reply {
  const url = documentUrl(ctx, order, 'receipt');
  if (!url.ok) return errorReply(404, `Order ${order.id} has no receipt: it is not paid yet.`);
  return { status: 200, body: { url: url.value } };
}

/** 202 with the order (is_invoice_generated true); 422 for a pending order. */
export function generateInvoiceReply(ctx: HandlerContext, order: OrderRecord): Reply {
  const generated = generateInvoice(ctx, order);
  if (!generated.ok) {
    return validationReply([{ loc: ['path', 'id'], msg: 'The order is not paid yet; only a paid order can be invoiced.', type: 'order_not_paid', input: order.id }]);
  }
  return { status: 202, body: serializeOrder(ctx, generated.value) };
}

/** 200 `{url}` of the invoice PDF; 404 until the invoice is generated. */
export function invoiceReply(ctx: HandlerContext, order: OrderRecord, generatePath: string): Reply {
  const url = documentUrl(ctx, order, 'invoice');
  if (!url.ok) return errorReply(404, `Order ${order.id} has no invoice yet: generate it first with POST ${generatePath}.`);
  return { status: 200, body: { url: url.value } };
}

/** 200 with the order after changing its billing name and address; 422 once the invoice is generated. */
export function updateBillingReply(ctx: HandlerContext, order: OrderRecord): Reply {
  const update = ctx.body as BillingUpdate;
  const updated = updateBilling(ctx, order, update);
  if (!updated.ok) {
    const input = { billing_name: update.billing_name, billing_address: addressFields(update.billing_address) };
    return validationReply([{ loc: ['body'], msg: 'The invoice of this order is already generated; its billing details can no longer change.', type: 'invoice_already_generated', input }]);
  }
  return { status: 200, body: serializeOrder(ctx, updated.value) };
}
