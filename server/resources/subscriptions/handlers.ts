/**
 * Handlers of the subscription operations.
 * @see operationId subscriptions:list
 */
import type { OperationHandler } from '../../handler-types.js';
import { listParamsOf, serializedListReply } from '../../listing.js';
import type { CancellationReason, SubscriptionRecord, SubscriptionStatus } from '../../records.js';
import { findOwned, notFound } from '../../tenancy.js';
import { listSubscriptions, type SubscriptionFilter } from './list.js';
import { serializeSubscription } from './serializer.js';

/** `subscriptions:list`: a page of the caller's subscriptions (200 `{items, pagination}`). */
export const listSubscriptionsHandler: OperationHandler = (ctx) => {
  const { values, deepObjects } = ctx.query;
  const filter: SubscriptionFilter = {
    organization_id: values.organization_id as string[] | undefined,
    product_id: values.product_id as string[] | undefined,
    customer_id: values.customer_id as string[] | undefined,
    external_customer_id: values.external_customer_id as string[] | undefined,
    discount_id: values.discount_id as string[] | undefined,
    active: values.active as boolean | undefined,
    status: values.status as SubscriptionStatus[] | undefined,
    cancel_at_period_end: values.cancel_at_period_end as boolean | undefined,
    customer_cancellation_reason: values.customer_cancellation_reason as CancellationReason[] | undefined,
    canceled_at_after: values.canceled_at_after as string | undefined,
    canceled_at_before: values.canceled_at_before as string | undefined,
    started_after: values.started_after as string | undefined,
    started_before: values.started_before as string | undefined,
    metadata: deepObjects.metadata ?? {},
  };
  const params = listParamsOf(ctx.query);
  const page = listSubscriptions(ctx.store, ctx.principal?.organizationIds ?? [], filter, params, ctx.faults, ctx.requestNumber);
  const serialize = (subscription: SubscriptionRecord) => serializeSubscription(ctx, subscription);
  return serializedListReply(ctx.store, page.items, page.totalCount, params.limit, ctx.faults, serialize, `subscriptions ${ctx.apiVersion}`);
};

/** `subscriptions:get`: 200 with the subscription; 404 for an unknown or foreign subscription. @see docs/platform.md (read-back operations) */
export const getSubscriptionHandler: OperationHandler = (ctx) => {
  const id = ctx.pathParams.id!;
  const subscription = findOwned(ctx.store.subscriptions, id, ctx.principal, ctx.faults);
  return subscription ? { status: 200, body: serializeSubscription(ctx, subscription) } : notFound('Subscription', id);
};
