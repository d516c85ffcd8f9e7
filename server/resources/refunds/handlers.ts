/**
 * Handlers of the refund operations.
 * @see operationId refunds:list
 */
import type { OperationHandler } from '../../handler-types.js';
import { listParamsOf, serializedListReply } from '../../listing.js';
import { listRefunds, type RefundFilter } from './list.js';
import { serializeRefund } from './serializer.js';

/** `refunds:list`: a page of the caller's refunds (200 `{items, pagination}`). */
export const listRefundsHandler: OperationHandler = (ctx) => {
  const { values } = ctx.query;
  const filter: RefundFilter = {
    id: values.id as string[] | undefined,
    organization_id: values.organization_id as string[] | undefined,
    order_id: values.order_id as string[] | undefined,
    subscription_id: values.subscription_id as string[] | undefined,
    customer_id: values.customer_id as string[] | undefined,
    external_customer_id: values.external_customer_id as string[] | undefined,
    succeeded: values.succeeded as boolean | undefined,
  };
  const params = listParamsOf(ctx.query);
  const page = listRefunds(ctx.store, ctx.principal?.organizationIds ?? [], filter, params, ctx.faults, ctx.requestNumber);
  return serializedListReply(ctx.store, page.items, page.totalCount, params.limit, ctx.faults, (refund) => serializeRefund(ctx, refund), `refunds ${ctx.apiVersion}`);
};
