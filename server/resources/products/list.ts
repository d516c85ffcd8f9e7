/**
 * The product list: filters, sort keys and default order.
 * @see operationId products:list; spec/rules.yaml lists.filters.products, lists.filters.products.recurring, lists.sorting
 */
import type { FaultSet } from '../../faults.js';
import { listRecords, matchesMetadata, visibleOrganizations, type IndexCondition, type ListParams, type RecordPage, type SortCriterion, type SortKeys } from '../../listing.js';
import type { PriceRecord, ProductRecord, ProductVisibility } from '../../records.js';
import type { Store } from '../../store.js';

/** Filters of the product list; an absent field does not filter. Id and enum lists match any of their values. */
export interface ProductFilter {
  id?: string[];
  organization_id?: string[];
  /** Case-insensitive substring of the name. */
  query?: string;
  is_archived?: boolean;
  is_recurring?: boolean;
  /** Products granting any of these benefits. */
  benefit_id?: string[];
  visibility?: ProductVisibility[];
  /** `metadata[key]=value` filters: keys AND, values OR. */
  metadata: Record<string, string[]>;
}

/** Default order of the product list: newest first. */
export const PRODUCT_DEFAULT_SORTING: readonly SortCriterion[] = [{ key: 'created_at', descending: true }];

/**
 * The amount a price sorts by, in cents: fixed prices their price_amount, custom prices their
 * preset_amount or else minimum_amount; other amount types have none (null, sorted last).
 */
export function sortAmount(price: PriceRecord | undefined): number | null {
  if (!price) return null;
  if (price.amount_type === 'fixed') return price.price_amount ?? null;
  if (price.amount_type === 'custom') return price.preset_amount ?? price.minimum_amount ?? null;
  return null;
}

/**
 * Sort keys of products: created_at, name (UTF-16 code unit order), and, by the product's first
 * price (its `prices[0]`), price_amount_type (alphabetical) and price_amount ({@link sortAmount}).
 */
export function productSortKeys(store: Store): SortKeys<ProductRecord> {
  const firstPrice = (product: ProductRecord) => (product.price_ids[0] === undefined ? undefined : store.prices.get(product.price_ids[0]));
  return {
    created_at: (product) => product.created_at,
    name: (product) => product.name,
    price_amount_type: (product) => firstPrice(product)?.amount_type ?? null,
    price_amount: (product) => sortAmount(firstPrice(product)),
  };
}

/** Sort keys of products that read other records (the first price). */
export const PRODUCT_FOREIGN_SORT_KEYS: readonly string[] = ['price_amount_type', 'price_amount'];

/** The filters the product collection's indexes answer (see createStore): ids, archived, recurring, benefits, visibility. */
function productConditions(filter: ProductFilter, faults: FaultSet): IndexCondition[] {
  const { id, is_archived, is_recurring, benefit_id, visibility } = filter;
  const conditions: IndexCondition[] = [];
  if (id) conditions.push({ index: 'id', values: id });
  if (is_archived !== undefined) conditions.push({ index: 'is_archived', values: [is_archived] });
  if (is_recurring !== undefined) conditions.push({ index: 'is_recurring', values: [is_recurring] });
  if (benefit_id) conditions.push({ index: 'benefit_id', values: benefit_id });
  if (visibility && !faults.has('filter_ignored')) conditions.push({ index: 'visibility', values: visibility });
  return conditions;
}

/** The filters tested product by product: the name substring and metadata. */
function productPredicate(filter: ProductFilter): ((product: ProductRecord) => boolean) | undefined {
  const tests: ((product: ProductRecord) => boolean)[] = [];
  const { query, metadata } = filter;
  if (query !== undefined) {
    const needle = query.toLowerCase();
    tests.push((product) => product.name.toLowerCase().includes(needle));
  }
  if (Object.keys(metadata).length > 0) tests.push((product) => matchesMetadata(product.metadata, metadata));
  return tests.length === 0 ? undefined : (product) => tests.every((test) => test(product));
}

/**
 * One page of the caller's products.
 * @param callerOrganizations the organizations of the token; no other organization's product is ever listed
 * @param faults `filter_ignored` ignores the visibility filter; see also {@link listRecords}
 */
export function listProducts(
  store: Store,
  callerOrganizations: readonly string[],
  filter: ProductFilter,
  params: ListParams,
  faults: FaultSet,
  requestNumber: number,
): RecordPage<ProductRecord> {
  // The fault list_depends_on_page_size leaves archived products out of pages of 50 or more, unless the filter names them.
  const unarchivedOnly = faults.has('list_depends_on_page_size') && params.limit >= 50 && filter.is_archived === undefined;
  return listRecords(
    {
      collection: store.products,
      organizationIds: visibleOrganizations(callerOrganizations, filter.organization_id),
      keys: productSortKeys(store),
      foreignKeys: PRODUCT_FOREIGN_SORT_KEYS,
      defaultSorting: PRODUCT_DEFAULT_SORTING,
      conditions: productConditions(unarchivedOnly ? { ...filter, is_archived: false } : filter, faults),
      filter: productPredicate(filter),
    },
    params,
    faults,
    requestNumber,
  );
}
