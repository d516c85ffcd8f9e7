/**
 * The checkout an order comes from, as its `checkout.created` event carries it: the platform's
 * `Checkout` (the API description names the event and shows no payload; the platform's public
 * document, Polar API 2026-10, schema Checkout, gives the shape, so that the platform's SDKs parse
 * the event). The reference models no checkout session of its own: the checkout is derived from the
 * order it led to (its id is the order's `checkout_id`), confirmed, for the order's product,
 * customer, amounts and billing details.
 * @see spec/rules.yaml events.checkout_created; docs/platform.md (Webhook payloads)
 */
import { createHash } from 'node:crypto';
import { renderTimestamp as ts, type RenderContext } from '../../render.js';
import type { OrderRecord } from '../../records.js';
import { formatTimestamp, parseTimestamp } from '../../timestamps.js';
import { serializePrice, serializeProduct, type Json } from '../products/serializer.js';

/** How long a checkout session is open from its creation, in microseconds (one hour, the platform's default). */
const CHECKOUT_LIFETIME_MICROS = 3_600_000_000;

/**
 * Where the reference's checkout links point: a reserved name that resolves nowhere (RFC 2606
 * section 2), since the reference serves no checkout page.
 */
const CHECKOUT_ORIGIN = 'https://checkout.reference.invalid';

/**
 * The checkout of an order that came from one (`checkout_id` not null), confirmed.
 * @returns the platform's Checkout object, or undefined for an order without a checkout
 */
export function serializeOrderCheckout(ctx: RenderContext, order: OrderRecord): Json | undefined {
  if (order.checkout_id === null) return undefined;
  const { store } = ctx;
  const product = store.products.get(order.product_id);
  const customer = store.customers.get(order.customer_id);
  const checkoutProduct = product ? serializeProduct(ctx, product) : null;
  const prices = product ? product.price_ids.map((id) => store.prices.get(id)).filter((price) => price !== undefined).map((price) => serializePrice(ctx, price)) : [];
  const clientSecret = `polar_c_${createHash('sha256').update(`checkout:${order.checkout_id}`).digest('base64url').slice(0, 43)}`;
  const paying = order.total_amount > 0;
  const recurring = product?.recurring_interval != null;
  return {
    id: order.checkout_id,
    created_at: ts(ctx, order.created_at),
    modified_at: null,
    custom_field_data: {},
    payment_processor: 'stripe',
    status: 'confirmed',
    client_secret: clientSecret,
    url: `${CHECKOUT_ORIGIN}/${clientSecret}`,
    expires_at: ts(ctx, formatTimestamp((parseTimestamp(order.created_at) ?? 0) + CHECKOUT_LIFETIME_MICROS)),
    success_url: `${CHECKOUT_ORIGIN}/${clientSecret}/confirmation`,
    return_url: null,
    embed_origin: null,
    amount: order.subtotal_amount,
    seats: null,
    min_seats: null,
    max_seats: null,
    discount_amount: order.discount_amount,
    net_amount: order.net_amount,
    tax_amount: order.tax_amount,
    tax_behavior: null,
    total_amount: order.total_amount,
    currency: order.currency,
    allow_trial: null,
    active_trial_interval: null,
    active_trial_interval_count: null,
    trial_end: null,
    organization_id: order.organization_id,
    product_id: order.product_id,
    product_price_id: prices[0]?.id ?? null,
    discount_id: null,
    allow_discount_codes: true,
    require_billing_address: false,
    is_discount_applicable: true,
    is_free_product_price: !paying,
    is_payment_required: paying,
    is_payment_setup_required: recurring,
    is_payment_form_required: paying || recurring,
    customer_id: order.customer_id,
    is_business_customer: false,
    customer_name: customer?.name ?? null,
    customer_email: customer?.email ?? null,
    customer_ip_address: null,
    customer_billing_name: order.billing_name,
    customer_billing_address: order.billing_address ? { ...order.billing_address } : null,
    customer_tax_id: null,
    locale: null,
    payment_method_type: null,
    payment_processor_metadata: {},
    billing_address_fields: { country: 'required', state: 'optional', city: 'optional', postal_code: 'optional', line1: 'optional', line2: 'optional' },
    trial_interval: null,
    trial_interval_count: null,
    metadata: {},
    external_customer_id: customer?.external_id ?? null,
    products: checkoutProduct ? [checkoutProduct] : [],
    product: checkoutProduct,
    product_price: prices[0] ?? null,
    prices: product ? { [product.id]: prices } : null,
    discount: null,
    subscription_id: null,
    attached_custom_fields: [],
    customer_metadata: {},
  };
}
