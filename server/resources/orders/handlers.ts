/**
 * Handlers of the order operations of an organization's token.
 * @see operationIds orders:get_receipt, orders:generate_invoice, orders:get_invoice, orders:update
 */
import type { OperationHandler } from '../../handler-types.js';
import { findOwned, notFound } from '../../tenancy.js';
import { generateInvoiceReply, invoiceReply, orderReply, receiptReply, updateBillingReply } from './operations.js';

/** `orders:get`: 200 with the order (the platform's `Order`); 404 for an unknown or foreign order. @see docs/platform.md (read-back operations) */
export const getOrderHandler: OperationHandler = (ctx) => {
  const id = ctx.pathParams.id!;
  const order = findOwned(ctx.store.orders, id, ctx.principal, ctx.faults);
  return order ? orderReply(ctx, order, 'organization') : notFound('Order', id);
};

/** `orders:get_receipt`: 200 `{url}` (presigned receipt PDF) for a paid order; 404 for an unknown, foreign or unpaid order. */
export const getReceiptHandler: OperationHandler = (ctx) => {
  const id = ctx.pathParams.id!;
  const order = findOwned(ctx.store.orders, id, ctx.principal, ctx.faults);
  if (!order) return notFound('Order', id);
  if (ctx.faults.has('receipt_5xx')) throw new Error(`receipt of order ${id} failed to render`);
  return receiptReply(ctx, order);
};

/** `orders:generate_invoice`: 202 with the order; 404 unknown or foreign; 409 not paid; 422 no billing details. */
export const generateInvoiceHandler: OperationHandler = (ctx) => {
  const id = ctx.pathParams.id!;
  const order = findOwned(ctx.store.orders, id, ctx.principal, ctx.faults);
  return order ? generateInvoiceReply(ctx, order) : notFound('Order', id);
};

/** `orders:get_invoice`: 200 `{url}` (presigned invoice PDF) once generated; 404 before, or for an unknown or foreign order. */
export const getInvoiceHandler: OperationHandler = (ctx) => {
  const id = ctx.pathParams.id!;
  const order = findOwned(ctx.store.orders, id, ctx.principal, ctx.faults);
  return order ? invoiceReply(ctx, order, `/v1/orders/${id}/invoice`) : notFound('Order', id);
};

/** `orders:update`: 200 with the order after changing billing_name / billing_address; 404; 422 once invoiced. */
export const updateOrderHandler: OperationHandler = (ctx) => {
  const id = ctx.pathParams.id!;
  const order = findOwned(ctx.store.orders, id, ctx.principal, ctx.faults);
  return order ? updateBillingReply(ctx, order) : notFound('Order', id);
};
