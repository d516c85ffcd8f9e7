/**
 * Handlers of the product operations.
 * @see shared/api-description.md, Endpoints (GET /v1/products/)
 */
import type { OperationHandler } from '../../handler-types.js';
import { listParamsOf, listReply } from '../../listing.js';
import type { ProductVisibility } from '../../store.js';
import { listProducts, type ProductFilter } from './list.js';
import { serializeProduct } from './serializer.js';

/** `products:list`: a page of the caller's products (200 `{items, pagination}`). */
export const listProductsHandler: OperationHandler = (ctx) => {
  const { values, deepObjects } = ctx.query;
  const filter: ProductFilter = {
    id: values.id as string[] | undefined,
    organization_id: values.organization_id as string[] | undefined,
    query: values.query as string | undefined,
    is_archived: values.is_archived as boolean | undefined,
    is_recurring: values.is_recurring as boolean | undefined,
    benefit_id: values.benefit_id as string[] | undefined,
    visibility: values.visibility as ProductVisibility[] | undefined,
    metadata: deepObjects.metadata ?? {},
  };
  const params = listParamsOf(ctx.query);
  const page = listProducts(ctx.store, ctx.principal?.organizationIds ?? [], filter, params, ctx.faults, ctx.requestNumber);
  const omitIsArchived = ctx.faults.has('missing_field');
  const items = page.items.map((product) => serializeProduct(ctx, product, { omitIsArchived }));
  return listReply(items, page.totalCount, params.limit, ctx.faults);
};
