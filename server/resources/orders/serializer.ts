/**
 * Orders as the API answers them: the fields the change history names (status, paid, items,
 * net_amount, subtotal_amount, discount_amount, total_amount), the deprecated ones they replace
 * (amount = net_amount, product_price_id, product_price), and, where the description says "Order
 * record fields beyond the ones named above: not shown", every field of the platform's `Order`
 * (organization API) and `CustomerOrder` (customer portal) schemas.
 * @see spec/openapi.yaml, schema Order; docs/platform.md (orders)
 * @see spec/rules.yaml orders.paid_flag, deprecations.order_items, deprecations.order_net_amount (2025-03-14, 2025-03-20)
 */
import type { OrderRecord, OrganizationRecord, SubscriptionRecord } from '../../records.js';
import { renderNullableTimestamp as nullableTs, renderTimestamp as ts, type RenderContext } from '../../render.js';
import { serializeCustomer } from '../customers/serializer.js';
import { serializePrice, serializeProduct, type Json } from '../products/serializer.js';
import { serializeDiscount, serializeSubscription } from '../subscriptions/serializer.js';
import { hasInvoice } from './invoices.js';

/** The receipt number of a paid order (`<invoice number>-R`); null while it is pending (the platform numbers receipts once paid). */
export function receiptNumber(order: OrderRecord): string | null {
  return order.status === 'paid' ? `${order.invoice_number}-R` : null;
}

/** The fields of an order that the organization API and the customer portal both show. */
function orderFields(ctx: RenderContext, order: OrderRecord): Json {
  const { store } = ctx;
  const firstPrice = order.items[0] && store.prices.get(order.items[0].product_price_id);
  const paid = order.status === 'paid';
  const product = store.products.get(order.product_id);
  return {
    id: order.id,
    created_at: ts(ctx, order.created_at),
    modified_at: nullableTs(ctx, order.modified_at),
    status: order.status,
    paid,
    subtotal_amount: order.subtotal_amount,
    discount_amount: order.discount_amount,
    net_amount: order.net_amount,
    amount: order.net_amount,
    tax_amount: order.tax_amount,
    total_amount: order.total_amount,
    // No customer balance is kept: nothing is applied, and a pending order owes its total.
    applied_balance_amount: 0,
    due_amount: paid ? 0 : order.total_amount,
    refunded_amount: order.refunded_amount,
    refunded_tax_amount: order.refunded_tax_amount,
    currency: order.currency,
    billing_reason: order.billing_reason,
    billing_name: order.billing_name,
    billing_address: order.billing_address && { ...order.billing_address },
    invoice_number: order.invoice_number,
    is_invoice_generated: hasInvoice(order, ctx.faults ?? new Set()),
    receipt_number: receiptNumber(order),
    seats: order.items.some((item) => store.prices.get(item.product_price_id)?.amount_type === 'seat_based') ? seatsOf(order) : null,
    customer_id: order.customer_id,
    product_id: order.product_id,
    product_price_id: firstPrice?.id ?? null,
    discount_id: order.discount_id,
    subscription_id: order.subscription_id,
    checkout_id: order.checkout_id,
    next_payment_attempt_at: null,
    items: order.items.map((item) => ({
      id: item.id,
      created_at: ts(ctx, item.created_at),
      modified_at: nullableTs(ctx, item.modified_at),
      label: item.label,
      amount: item.amount,
      tax_amount: item.tax_amount,
      // The platform's item says whether the charge is due to a proration: only a subscription update is.
      proration: order.billing_reason === 'subscription_update',
      product_price_id: item.product_price_id,
    })),
    description: order.items[0]?.label ?? product?.name ?? 'Order',
    // Only what was paid can be refunded, less what already was.
    refundable_amount: paid ? Math.max(0, order.net_amount - order.refunded_amount) : 0,
    refundable_tax_amount: paid ? Math.max(0, order.tax_amount - order.refunded_tax_amount) : 0,
    product_price: firstPrice ? serializePrice(ctx, firstPrice) : null,
  };
}

/** The seat count of a seat-based order, from its seat item's label (`… (3 seats)`), else 1. */
function seatsOf(order: OrderRecord): number {
  const match = order.items.map((item) => /\((\d+) seats\)$/.exec(item.label)).find(Boolean);
  return match ? Number(match[1]) : 1;
}

/** A subscription as an order embeds it: its own fields, without what it embeds (the platform's `OrderSubscription`). */
function orderSubscription(ctx: RenderContext, subscription: SubscriptionRecord | undefined): Json | null {
  if (!subscription) return null;
  const { customer: _customer, product: _product, discount: _discount, prices: _prices, meters: _meters, pending_update: _pending, ...own } = serializeSubscription(ctx, subscription);
  return own;
}

/**
 * An order as the organization API answers it, with its items, customer, product, discount and
 * subscription resolved (the platform's `Order`); the organization it belongs to is shown too.
 * @see spec/openapi.yaml, schema Order; the platform's public OpenAPI document (Polar API 2026-10), schema Order
 *   (copy: spec/platform/2026-10.json)
 */
export function serializeOrder(ctx: RenderContext, order: OrderRecord): Json {
  const { store } = ctx;
  const customer = store.customers.get(order.customer_id);
  const product = store.products.get(order.product_id);
  const discount = order.discount_id === null ? undefined : store.discounts.get(order.discount_id);
  return {
    ...orderFields(ctx, order),
    organization_id: order.organization_id,
    metadata: { ...order.metadata },
    // The platform's share is not modelled: no fee is recorded on the reference's orders.
    platform_fee_amount: 0,
    platform_fee_currency: null,
    custom_field_data: {},
    customer: customer ? serializeCustomer(ctx, customer) : null,
    product: product ? serializeProduct(ctx, product) : null,
    discount: discount ? serializeDiscount(ctx, discount) : null,
    subscription: orderSubscription(ctx, order.subscription_id === null ? undefined : store.subscriptions.get(order.subscription_id)),
  };
}

/**
 * An order as its events (`order.created`, `order.updated`, `order.paid`, `order.refunded`) carry
 * it: the API's Order plus `user_id`, the deprecated alias of `customer_id` that the platform's
 * payloads carried and that `@polar-sh/sdk` 0.32 (the line `@polar-sh/express` 0.3.0 bundles)
 * requires to parse an order event. Unknown fields are allowed, so newer lines ignore it.
 * @see docs/platform.md (Webhook payloads)
 */
export function orderEventData(ctx: RenderContext, order: OrderRecord): Json {
  return { ...serializeOrder(ctx, order), user_id: order.customer_id };
}

/** The organization as the customer portal shows it with a product (the platform's `CustomerOrganization`). */
function customerOrganization(ctx: RenderContext, organization: OrganizationRecord): Json {
  return {
    created_at: ts(ctx, organization.created_at),
    modified_at: nullableTs(ctx, organization.modified_at),
    id: organization.id,
    name: organization.name,
    slug: organization.slug,
    avatar_url: null,
    proration_behavior: 'prorate',
    allow_customer_updates: true,
    customer_portal_settings: { usage: { show: true }, subscription: { update_seats: true, update_plan: true } },
  };
}

/**
 * An order as the customer portal answers it (the platform's `CustomerOrder`): the order's own
 * fields, its product with the organization, and its subscription; no customer, metadata or fees.
 * @see spec/openapi.yaml, schema Order; the customer_portal:orders:* operations
 * @see the platform's public OpenAPI document (Polar API 2026-10), schema CustomerOrder (copy: spec/platform/2026-10.json)
 */
export function serializeCustomerOrder(ctx: RenderContext, order: OrderRecord): Json {
  const { store } = ctx;
  const product = store.products.get(order.product_id);
  const organization = store.organizations.get(order.organization_id);
  return {
    ...orderFields(ctx, order),
    product: product ? { ...serializeProduct(ctx, product), ...(organization ? { organization: customerOrganization(ctx, organization) } : {}) } : null,
    subscription: orderSubscription(ctx, order.subscription_id === null ? undefined : store.subscriptions.get(order.subscription_id)),
  };
}
