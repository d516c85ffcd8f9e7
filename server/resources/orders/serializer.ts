/**
 * Orders as the API answers them: the fields the change history names (status, paid, items,
 * net_amount, subtotal_amount, discount_amount, total_amount), the deprecated ones they replace
 * (amount = net_amount, product_price_id, product_price), billing details, the invoice flag and
 * the customer and product.
 * @see shared/api-description.md, Order; Versioning (2025-03-14, 2025-03-20)
 */
import type { MachineContext } from '../../events.js';
import { renderNullableTimestamp as nullableTs, renderTimestamp as ts } from '../../render.js';
import type { OrderRecord } from '../../store.js';
import { serializeCustomer } from '../customers/serializer.js';
import { serializePrice, serializeProduct, type Json } from '../products/serializer.js';
import { hasInvoice } from './invoices.js';

/** An order with its items, customer and product resolved. @see shared/api-description.md, Order */
export function serializeOrder(ctx: MachineContext, order: OrderRecord): Json {
  const { store } = ctx;
  const firstPrice = order.items[0] && store.prices.get(order.items[0].product_price_id);
  const customer = store.customers.get(order.customer_id);
  const product = store.products.get(order.product_id);
  return {
    id: order.id,
    created_at: ts(ctx, order.created_at),
    modified_at: nullableTs(ctx, order.modified_at),
    status: order.status,
    paid: order.status === 'paid',
    subtotal_amount: order.subtotal_amount,
    discount_amount: order.discount_amount,
    net_amount: order.net_amount,
    amount: order.net_amount,
    tax_amount: order.tax_amount,
    total_amount: order.total_amount,
    refunded_amount: order.refunded_amount,
    refunded_tax_amount: order.refunded_tax_amount,
    currency: order.currency,
    billing_reason: order.billing_reason,
    billing_name: order.billing_name,
    billing_address: order.billing_address && { ...order.billing_address },
    invoice_number: order.invoice_number,
    is_invoice_generated: hasInvoice(order, ctx.faults),
    organization_id: order.organization_id,
    customer_id: order.customer_id,
    product_id: order.product_id,
    product_price_id: firstPrice?.id ?? null,
    discount_id: order.discount_id,
    subscription_id: order.subscription_id,
    checkout_id: order.checkout_id,
    metadata: { ...order.metadata },
    items: order.items.map((item) => ({
      id: item.id,
      created_at: ts(ctx, item.created_at),
      modified_at: nullableTs(ctx, item.modified_at),
      label: item.label,
      amount: item.amount,
      tax_amount: item.tax_amount,
      proration_type: item.proration_type,
      product_price_id: item.product_price_id,
    })),
    product_price: firstPrice ? serializePrice(ctx, firstPrice) : null,
    customer: customer ? serializeCustomer(ctx, customer) : null,
    product: product ? serializeProduct(ctx, product) : null,
  };
}
