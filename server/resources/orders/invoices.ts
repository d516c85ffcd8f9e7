/**
 * Receipts and invoices of orders. A receipt exists once an order is paid; an invoice exists only
 * once it has been generated explicitly (never when the order is created), and only for a paid
 * order. Billing name and address can change until the invoice is generated. Both documents are
 * PDFs the reference serves itself behind presigned URLs valid for an hour.
 * @see operationIds orders:get_receipt, orders:generate_invoice, orders:get_invoice (change history, 2025-06-02)
 * @see spec/rules.yaml orders.invoice_generated_explicitly, orders.billing_details_before_invoice, orders.receipt_presigned_url
 */
import type { MachineContext } from '../../events.js';
import type { FaultSet } from '../../faults.js';
import type { ServerKeys } from '../../keys.js';
import type { AddressRecord, OrderRecord } from '../../records.js';
import { fail, ok, type Result } from '../../result.js';
import { presignUrl } from '../../signed-urls.js';
import { nowTimestamp } from '../../store.js';
import { renderPdf } from './pdf.js';

/** How long a receipt or invoice URL works, in milliseconds. */
export const DOCUMENT_URL_TTL_MS = 60 * 60 * 1000;

/** The two documents of an order the reference serves. */
export type OrderDocument = 'receipt' | 'invoice';

/** The path of an order's document (`/__receipts/<id>.pdf`, `/__invoices/<id>.pdf`). */
export function documentPath(kind: OrderDocument, orderId: string): string {
  return `/__${kind}s/${orderId}.pdf`;
}

/**
 * Whether the order's invoice has been generated.
 * @param faults `invoice_generated_implicitly` says every order has one
 */
export function hasInvoice(order: OrderRecord, faults: FaultSet): boolean {
  return order.invoice_generated_at !== null || faults.has('invoice_generated_implicitly');
}

/** Why an order has no document, or cannot get one now. */
export type InvoiceRefusal = { code: 'ORDER_NOT_PAID' } | { code: 'INVOICE_NOT_GENERATED' } | { code: 'INVOICE_ALREADY_GENERATED' };

/**
 * Generates the order's invoice; idempotent (a generated invoice stays as it is).
 * @returns the order, or ORDER_NOT_PAID for a pending order
 */
export function generateInvoice(ctx: MachineContext, order: OrderRecord): Result<OrderRecord, InvoiceRefusal> {
  if (order.status !== 'paid') return fail({ code: 'ORDER_NOT_PAID' });
  if (order.invoice_generated_at === null) ctx.store.orders.update(order, { invoice_generated_at: nowTimestamp(ctx.store) });
  return ok(order);
}

/**
 * A presigned URL of an order's receipt or invoice.
 * @returns the URL, or ORDER_NOT_PAID (receipt of a pending order) / INVOICE_NOT_GENERATED
 */
export function documentUrl(ctx: MachineContext & { keys: ServerKeys; baseUrl: string }, order: OrderRecord, kind: OrderDocument): Result<string, InvoiceRefusal> {
  if (kind === 'receipt' && order.status !== 'paid') return fail({ code: 'ORDER_NOT_PAID' });
  if (kind === 'invoice' && !hasInvoice(order, ctx.faults)) return fail({ code: 'INVOICE_NOT_GENERATED' });
  const expiresAtMs = ctx.store.clock().getTime() + DOCUMENT_URL_TTL_MS;
  return ok(presignUrl(ctx.keys.urlSigning, ctx.baseUrl, 'GET', documentPath(kind, order.id), expiresAtMs));
}

/**
 * The billing fields an order update may change; an absent field stays as it is.
 * @see operationId orders:update; spec/openapi.yaml, schema OrderBillingUpdate
 */
export interface BillingUpdate {
  billing_name?: string | null;
  billing_address?: Partial<AddressRecord> | null;
}

/**
 * The address fields of a billing address as the body gave it; unknown fields, however large or
 * deeply nested, are dropped before anything walks or echoes them.
 * @returns undefined when absent, null when null
 */
export function addressFields(address: BillingUpdate['billing_address']): Partial<AddressRecord> | null | undefined {
  if (!address) return address;
  const fields = ['country', 'line1', 'line2', 'postal_code', 'city', 'state'] as const;
  return Object.fromEntries(fields.filter((field) => address[field] !== undefined).map((field) => [field, address[field]]));
}

/**
 * Changes the billing name and address of an order whose invoice is not generated yet.
 * @returns the order, or INVOICE_ALREADY_GENERATED
 */
export function updateBilling(ctx: MachineContext, order: OrderRecord, update: BillingUpdate): Result<OrderRecord, InvoiceRefusal> {
  if (hasInvoice(order, ctx.faults)) return fail({ code: 'INVOICE_ALREADY_GENERATED' });
  const billingAddress = addressFields(update.billing_address);
  const changed =
    (update.billing_name !== undefined && update.billing_name !== order.billing_name) ||
    (billingAddress !== undefined && JSON.stringify(billingAddress) !== JSON.stringify(order.billing_address));
  if (!changed) return ok(order);
  // modified_at_not_stored keeps the old modified_at (the answer shows a new one); billing_address_ignored keeps the old address.
  const patch: Partial<OrderRecord> = ctx.faults.has('modified_at_not_stored') ? {} : { modified_at: nowTimestamp(ctx.store) };
  if (update.billing_name !== undefined) patch.billing_name = update.billing_name;
  if (billingAddress !== undefined && !ctx.faults.has('billing_address_ignored')) patch.billing_address = billingAddress;
  return ok(ctx.store.orders.update(order, patch));
}

function money(cents: number, currency: string): string {
  return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
}

/** The PDF of an order's receipt or invoice. */
export function renderOrderDocument(order: OrderRecord, kind: OrderDocument): Buffer {
  const address = order.billing_address;
  const lines = [
    `Order ${order.id}`,
    kind === 'invoice' ? `Invoice number ${order.invoice_number}` : `Receipt of ${order.created_at}`,
    `Billed to: ${order.billing_name ?? '-'}`,
    ...(address ? [[address.line1, address.line2, address.postal_code, address.city, address.state, address.country].filter(Boolean).join(', ')] : []),
    '',
    ...order.items.map((item) => `${item.label}: ${money(item.amount, order.currency)}`),
    `Subtotal: ${money(order.subtotal_amount, order.currency)}`,
    `Discount: ${money(order.discount_amount, order.currency)}`,
    `Net: ${money(order.net_amount, order.currency)}`,
    `Tax: ${money(order.tax_amount, order.currency)}`,
    `Total: ${money(order.total_amount, order.currency)}`,
  ];
  return renderPdf(kind === 'invoice' ? 'Invoice' : 'Receipt', lines);
}
