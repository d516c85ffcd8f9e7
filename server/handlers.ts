/**
 * The one registry of operation handlers, keyed by operationId; routes come from the spec and
 * are bound here, and a unit test fails when an operation of the spec has no handler.
 * @see docs/design.md (Reference server)
 */
import type { LoadedSpec } from '../core/spec/load.js';
import type { OperationHandler } from './handler-types.js';
import { generatePortalInvoiceHandler, getPortalInvoiceHandler, getPortalOrderHandler, getPortalReceiptHandler, listPortalLicenseKeysHandler, updatePortalOrderHandler } from './resources/customer-portal/handlers.js';
import { claimSeatHandler } from './resources/customer-seats/handlers.js';
import { deleteExternalCustomerHandler, getCustomerHandler, listPaymentMethodsHandler } from './resources/customers/handlers.js';
import { createFileHandler, listFilesHandler } from './resources/files/handlers.js';
import { introspectHandler, tokenHandler } from './resources/oauth2/handlers.js';
import { generateInvoiceHandler, getInvoiceHandler, getOrderHandler, getReceiptHandler, updateOrderHandler } from './resources/orders/handlers.js';
import { getProductHandler, listProductsHandler, updateProductBenefitsHandler } from './resources/products/handlers.js';
import { listRefundsHandler } from './resources/refunds/handlers.js';
import { getSubscriptionHandler, listSubscriptionsHandler } from './resources/subscriptions/handlers.js';
import { listWebhookEndpointsHandler } from './resources/webhooks/handlers.js';

/** Handlers by operationId. */
export const HANDLERS: Readonly<Record<string, OperationHandler>> = {
  'products:list': listProductsHandler,
  'products:update_benefits': updateProductBenefitsHandler,
  'subscriptions:list': listSubscriptionsHandler,
  'oauth2:token': tokenHandler,
  'oauth2:introspect': introspectHandler,
  'files:create': createFileHandler,
  'files:list': listFilesHandler,
  'customer_portal:license_keys:list': listPortalLicenseKeysHandler,
  'customer_portal:orders:update': updatePortalOrderHandler,
  'customer_portal:orders:generate_invoice': generatePortalInvoiceHandler,
  'customer_portal:orders:get_invoice': getPortalInvoiceHandler,
  'customers:list_payment_methods': listPaymentMethodsHandler,
  'customers:delete_external': deleteExternalCustomerHandler,
  'customer_seats:claim': claimSeatHandler,
  'refunds:list': listRefundsHandler,
  'orders:update': updateOrderHandler,
  'orders:get_receipt': getReceiptHandler,
  'orders:generate_invoice': generateInvoiceHandler,
  'orders:get_invoice': getInvoiceHandler,
  'webhooks:list_endpoints': listWebhookEndpointsHandler,
  // Read-back operations the platform's clients call around the twenty (docs/platform.md).
  'products:get': getProductHandler,
  'customers:get': getCustomerHandler,
  'subscriptions:get': getSubscriptionHandler,
  'orders:get': getOrderHandler,
  'customer_portal:orders:get': getPortalOrderHandler,
  'customer_portal:orders:get_receipt': getPortalReceiptHandler,
};

/** The operationIds of a spec that have no handler in {@link HANDLERS} (empty when the registry covers the spec). */
export function unhandledOperations(spec: LoadedSpec): string[] {
  return spec.operations.map((operation) => operation.operationId).filter((id) => !Object.hasOwn(HANDLERS, id));
}
