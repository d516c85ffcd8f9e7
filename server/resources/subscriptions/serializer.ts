/**
 * Subscriptions and what they embed (customer, product, discount, prices, meters) as the API answers them.
 * @see spec/openapi.yaml, schemas Subscription, Customer; spec/rules.yaml references.embedded_consistent
 */
import type { DiscountRecord, MeterRecord, SubscriptionRecord } from '../../records.js';
import { renderNullableTimestamp as nullableTs, renderTimestamp as ts, type RenderContext } from '../../render.js';
import { serializeCustomer } from '../customers/serializer.js';
import { serializePrice, serializeProduct, type Json } from '../products/serializer.js';

/** A discount (its internal product restriction is not shown). @see spec/openapi.yaml, schema Discount */
export function serializeDiscount(ctx: RenderContext, discount: DiscountRecord): Json {
  return {
    duration: discount.duration,
    type: discount.type,
    ...(discount.amount !== undefined ? { amount: discount.amount, currency: discount.currency, amounts: { ...discount.amounts } } : {}),
    ...(discount.basis_points !== undefined ? { basis_points: discount.basis_points } : {}),
    created_at: ts(ctx, discount.created_at),
    modified_at: nullableTs(ctx, discount.modified_at),
    id: discount.id,
    metadata: { ...discount.metadata },
    name: discount.name,
    code: discount.code,
    starts_at: nullableTs(ctx, discount.starts_at),
    ends_at: nullableTs(ctx, discount.ends_at),
    max_redemptions: discount.max_redemptions,
    max_redemptions_per_customer: discount.max_redemptions_per_customer,
    redemptions_count: discount.redemptions_count,
    organization_id: discount.organization_id,
  };
}

/** A meter. @see spec/openapi.yaml, schema Meter */
export function serializeMeter(ctx: RenderContext, meter: MeterRecord): Json {
  return {
    metadata: { ...meter.metadata },
    created_at: ts(ctx, meter.created_at),
    modified_at: nullableTs(ctx, meter.modified_at),
    id: meter.id,
    name: meter.name,
    unit: meter.unit,
    filter: structuredClone(meter.filter),
    aggregation: { ...meter.aggregation },
    organization_id: meter.organization_id,
    custom_label: meter.custom_label,
    custom_multiplier: meter.custom_multiplier,
    archived_at: nullableTs(ctx, meter.archived_at),
  };
}

/** The id of the customer a subscription embeds: its own; under the `embedded_customer_mismatch` fault, its organization's first customer. */
function embeddedCustomerId(ctx: RenderContext, subscription: SubscriptionRecord): string {
  if (!ctx.faults?.has('embedded_customer_mismatch')) return subscription.customer_id;
  return ctx.store.customers.inOrganization(subscription.organization_id)[0]?.id ?? subscription.customer_id;
}

/** The product a subscription embeds; under the `subscription_product_one_time` fault, shown as a one-time purchase. */
function embeddedProduct(ctx: RenderContext, subscription: SubscriptionRecord): Json {
  const product = serializeProduct(ctx, ctx.store.products.get(subscription.product_id)!);
  if (!ctx.faults?.has('subscription_product_one_time')) return product;
  return { ...product, recurring_interval: null, recurring_interval_count: null, is_recurring: false };
}

/** A subscription with its customer, product, discount, prices and meters resolved. @see spec/openapi.yaml, schema Subscription */
export function serializeSubscription(ctx: RenderContext, subscription: SubscriptionRecord): Json {
  const { store } = ctx;
  const discount = subscription.discount_id === null ? undefined : store.discounts.get(subscription.discount_id);
  const pending = subscription.pending_update;
  return {
    id: subscription.id,
    created_at: ts(ctx, subscription.created_at),
    modified_at: nullableTs(ctx, subscription.modified_at),
    amount: subscription.amount,
    currency: subscription.currency,
    recurring_interval: subscription.recurring_interval,
    recurring_interval_count: subscription.recurring_interval_count,
    status: subscription.status,
    current_period_start: ts(ctx, subscription.current_period_start),
    current_period_end: nullableTs(ctx, subscription.current_period_end),
    current_meter_period_start: nullableTs(ctx, subscription.current_meter_period_start),
    current_meter_period_end: nullableTs(ctx, subscription.current_meter_period_end),
    trial_start: nullableTs(ctx, subscription.trial_start),
    trial_end: nullableTs(ctx, subscription.trial_end),
    cancel_at_period_end: subscription.cancel_at_period_end,
    canceled_at: nullableTs(ctx, subscription.canceled_at),
    started_at: nullableTs(ctx, subscription.started_at),
    ends_at: nullableTs(ctx, subscription.ends_at),
    ended_at: nullableTs(ctx, subscription.ended_at),
    pause_at_period_end: subscription.pause_at_period_end,
    paused_at: nullableTs(ctx, subscription.paused_at),
    resumes_at: nullableTs(ctx, subscription.resumes_at),
    past_due_at: nullableTs(ctx, subscription.past_due_at),
    customer_id: subscription.customer_id,
    product_id: subscription.product_id,
    discount_id: subscription.discount_id,
    checkout_id: subscription.checkout_id,
    customer_cancellation_reason: subscription.customer_cancellation_reason,
    customer_cancellation_comment: subscription.customer_cancellation_comment,
    metadata: { ...subscription.metadata },
    customer: serializeCustomer(ctx, store.customers.get(embeddedCustomerId(ctx, subscription))!),
    product: embeddedProduct(ctx, subscription),
    discount: discount ? serializeDiscount(ctx, discount) : null,
    prices: subscription.price_ids.map((id) => serializePrice(ctx, store.prices.get(id)!)),
    meters: subscription.meters.map((usage) => ({
      id: usage.id,
      created_at: ts(ctx, usage.created_at),
      modified_at: nullableTs(ctx, usage.modified_at),
      consumed_units: usage.consumed_units,
      credited_units: usage.credited_units,
      amount: usage.amount,
      meter_id: usage.meter_id,
      meter: serializeMeter(ctx, store.meters.get(usage.meter_id)!),
    })),
    pending_update: pending && {
      id: pending.id,
      created_at: ts(ctx, pending.created_at),
      modified_at: nullableTs(ctx, pending.modified_at),
      applies_at: ts(ctx, pending.applies_at),
      product_id: pending.product_id,
      seats: pending.seats,
    },
    seats: subscription.seats,
    custom_field_data: structuredClone(subscription.custom_field_data),
  };
}
