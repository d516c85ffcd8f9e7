/**
 * Handlers of the product operations.
 * @see operationIds products:list, products:update_benefits
 */
import type { OperationHandler } from '../../handler-types.js';
import { listParamsOf, serializedListReply } from '../../listing.js';
import type { ProductRecord, ProductVisibility } from '../../records.js';
import { validationReply } from '../../replies.js';
import { findOwned, notFound } from '../../tenancy.js';
import { replaceBenefits } from './benefits.js';
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
  const serialize = (product: ProductRecord) => serializeProduct(ctx, product, { omitIsArchived });
  return serializedListReply(ctx.store, page.items, page.totalCount, params.limit, ctx.faults, serialize, `products ${ctx.apiVersion}${omitIsArchived ? ' missing_field' : ''}`);
};

/** `products:get`: 200 with the product; 404 for an unknown or foreign product. @see docs/platform.md (read-back operations) */
export const getProductHandler: OperationHandler = (ctx) => {
  const id = ctx.pathParams.id!;
  const product = findOwned(ctx.store.products, id, ctx.principal, ctx.faults);
  return product ? { status: 200, body: serializeProduct(ctx, product, { omitIsArchived: ctx.faults.has('missing_field') }) } : notFound('Product', id);
};

/**
 * `products:update_benefits`: 200 with the product and its new benefits; 404 for an unknown or
 * foreign product; 422 at `["body", "benefits", i]` for each benefit it cannot grant (nothing changes).
 */
export const updateProductBenefitsHandler: OperationHandler = (ctx) => {
  const id = ctx.pathParams.id!;
  const product = findOwned(ctx.store.products, id, ctx.principal, ctx.faults);
  if (!product) return notFound('Product', id);
  const { benefits } = ctx.body as { benefits: string[] };
  const replaced = replaceBenefits(ctx, product, benefits);
  if (!replaced.ok) {
    return validationReply(replaced.error.map(({ index, id: benefitId }) => ({
      loc: ['body', 'benefits', index],
      msg: 'Benefit does not exist in the product\'s organization.',
      type: 'value_error',
      input: benefitId,
    })));
  }
  return { status: 200, body: serializeProduct(ctx, replaced.value) };
};
