/**
 * Handlers of the customer portal operations: a customer_session or member_session token sees and
 * changes only its own customer's license keys and orders; another customer's order is answered
 * like a missing one (404). A member session acts for the member's customer.
 * @see operationIds customer_portal:license_keys:list, customer_portal:orders:update, customer_portal:orders:generate_invoice,
 *   customer_portal:orders:get_invoice; spec/rules.yaml auth.customer_portal_sessions, orders.customer_portal_own_orders
 */
import type { HandlerContext, OperationHandler } from '../../handler-types.js';
import { listParamsOf, serializedListReply } from '../../listing.js';
import { findOwned, findPortalOwned, notFound } from '../../tenancy.js';
import { listLicenseKeys } from '../license-keys/list.js';
import { serializeLicenseKey } from '../license-keys/serializer.js';
import { generateInvoiceReply, invoiceReply, orderReply, receiptReply, updateBillingReply } from '../orders/operations.js';

/**
 * `customer_portal:license_keys:list`: a page of the session customer's license keys (200); a
 * benefit_id naming no benefit of the customer's organization is 404 ResourceNotFound.
 */
export const listPortalLicenseKeysHandler: OperationHandler = (ctx) => {
  const benefitId = ctx.query.values.benefit_id as string | null | undefined;
  if (benefitId != null && !findOwned(ctx.store.benefits, benefitId, ctx.principal, ctx.faults)) return notFound('Benefit', benefitId);
  const params = listParamsOf(ctx.query);
  const customerId = ctx.faults.has('portal_isolation_broken') ? undefined : ctx.principal!.customerId;
  const page = listLicenseKeys(ctx.store, ctx.principal!.organizationIds, customerId, benefitId ?? undefined, params, ctx.faults, ctx.requestNumber);
  return serializedListReply(ctx.store, page.items, page.totalCount, params.limit, ctx.faults, (key) => serializeLicenseKey(ctx, key), `portal license keys ${ctx.apiVersion}`);
};

function portalOrder(ctx: HandlerContext) {
  return findPortalOwned(ctx.store.orders, ctx.pathParams.id!, ctx.principal, ctx.faults);
}

/** `customer_portal:orders:update`: as orders:update, for the session customer's own orders. */
export const updatePortalOrderHandler: OperationHandler = (ctx) => {
  const order = portalOrder(ctx);
  return order ? updateBillingReply(ctx, order, 'portal') : notFound('Order', ctx.pathParams.id!);
};

/** `customer_portal:orders:generate_invoice`: as orders:generate_invoice, for the session customer's own orders. */
export const generatePortalInvoiceHandler: OperationHandler = (ctx) => {
  const order = portalOrder(ctx);
  return order ? generateInvoiceReply(ctx, order, 'portal') : notFound('Order', ctx.pathParams.id!);
};

/** `customer_portal:orders:get_invoice`: as orders:get_invoice, for the session customer's own orders. */
export const getPortalInvoiceHandler: OperationHandler = (ctx) => {
  const order = portalOrder(ctx);
  return order ? invoiceReply(ctx, order, `/v1/customer-portal/orders/${order.id}/invoice`) : notFound('Order', ctx.pathParams.id!);
};

/** `customer_portal:orders:get`: 200 with one of the session customer's orders (the platform's `CustomerOrder`); 404 otherwise. @see docs/platform.md (read-back operations) */
export const getPortalOrderHandler: OperationHandler = (ctx) => {
  const order = portalOrder(ctx);
  return order ? orderReply(ctx, order, 'portal') : notFound('Order', ctx.pathParams.id!);
};

/** `customer_portal:orders:get_receipt`: as orders:get_receipt, for the session customer's own orders. @see docs/platform.md (read-back operations) */
export const getPortalReceiptHandler: OperationHandler = (ctx) => {
  const order = portalOrder(ctx);
  return order ? receiptReply(ctx, order) : notFound('Order', ctx.pathParams.id!);
};
