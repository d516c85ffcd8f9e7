/**
 * The subscription list: filters, sort keys and default order.
 * @see operationId subscriptions:list; spec/rules.yaml lists.filters.subscriptions, lists.filters.subscriptions.dates, lists.sorting
 */
import type { FaultSet } from '../../faults.js';
import { listRecords, matchesMetadata, visibleOrganizations, type IndexCondition, type ListParams, type RecordPage, type SortCriterion, type SortKeys } from '../../listing.js';
import type { CancellationReason, SubscriptionRecord, SubscriptionStatus } from '../../records.js';
import type { Store } from '../../store.js';
import { parseTimestamp } from '../../timestamps.js';

/** Filters of the subscription list; an absent field does not filter. Lists match any of their values; date bounds are inclusive. */
export interface SubscriptionFilter {
  organization_id?: string[];
  product_id?: string[];
  customer_id?: string[];
  /** Matches the customer's external_id. */
  external_customer_id?: string[];
  discount_id?: string[];
  /** true: status active or trialing; false: any other status. */
  active?: boolean;
  status?: SubscriptionStatus[];
  cancel_at_period_end?: boolean;
  customer_cancellation_reason?: CancellationReason[];
  /** RFC 3339 date-times; canceled_at (or started_at) on or after / on or before; a null date never matches. */
  canceled_at_after?: string;
  canceled_at_before?: string;
  started_after?: string;
  started_before?: string;
  /** `metadata[key]=value` filters: keys AND, values OR. */
  metadata: Record<string, string[]>;
}

/** Statuses for which the `active` filter counts a subscription as active. */
export const ACTIVE_STATUSES: readonly SubscriptionStatus[] = ['active', 'trialing'];

/** Default order of the subscription list: most recently started first (never-started ones last). */
export const SUBSCRIPTION_DEFAULT_SORTING: readonly SortCriterion[] = [{ key: 'started_at', descending: true }];

/**
 * Sort keys of subscriptions: timestamps and amount by their field; customer by the customer's
 * email, product by the product's name, discount by the discount's name (none last), status
 * alphabetically. Strings compare by UTF-16 code units; nulls sort last in both directions.
 */
export function subscriptionSortKeys(store: Store): SortKeys<SubscriptionRecord> {
  return {
    customer: (s) => store.customers.get(s.customer_id)?.email ?? null,
    status: (s) => s.status,
    started_at: (s) => s.started_at,
    current_period_end: (s) => s.current_period_end,
    ended_at: (s) => s.ended_at,
    ends_at: (s) => s.ends_at,
    amount: (s) => s.amount,
    product: (s) => store.products.get(s.product_id)?.name ?? null,
    discount: (s) => (s.discount_id === null ? null : (store.discounts.get(s.discount_id)?.name ?? null)),
  };
}

function bound(value: string | null, text: string | undefined, direction: 'gte' | 'lte'): boolean {
  if (text === undefined) return true;
  const limit = parseTimestamp(text);
  const actual = value === null ? undefined : parseTimestamp(value);
  if (limit === undefined || actual === undefined) return false;
  return direction === 'gte' ? actual >= limit : actual <= limit;
}

/** Sort keys of subscriptions that read other records (customer, product, discount). */
export const SUBSCRIPTION_FOREIGN_SORT_KEYS: readonly string[] = ['customer', 'product', 'discount'];

/** The ids of the customers with one of these external ids (the `external_customer_id` filter). */
function customersWithExternalIds(store: Store, externalIds: readonly string[]): string[] {
  return externalIds.flatMap((externalId) => store.customers.lookup('external_id', externalId).map((customer) => customer.id));
}

/**
 * The filters the subscription collection's indexes answer (see createStore): product, customer
 * (and external customer id, through the customers' index), discount, status and `active`,
 * cancel_at_period_end and the cancellation reason.
 */
function subscriptionConditions(store: Store, organizationIds: readonly string[], filter: SubscriptionFilter, faults: FaultSet): IndexCondition[] {
  const { product_id, customer_id, external_customer_id, discount_id, active, status, cancel_at_period_end, customer_cancellation_reason } = filter;
  const conditions: IndexCondition[] = [];
  if (product_id) conditions.push({ index: 'product_id', values: product_id });
  if (customer_id) conditions.push({ index: 'customer_id', values: customer_id });
  if (external_customer_id) conditions.push({ index: 'customer_id', values: customersWithExternalIds(store, external_customer_id) });
  if (discount_id) conditions.push({ index: 'discount_id', values: discount_id });
  if (active !== undefined) {
    const present = new Set(organizationIds.flatMap((id) => store.subscriptions.valuesInOrganization('status', id)));
    conditions.push({ index: 'status', values: [...present].filter((value) => ACTIVE_STATUSES.includes(value as SubscriptionStatus) === active) });
  }
  if (status && !faults.has('filter_ignored')) conditions.push({ index: 'status', values: status });
  if (cancel_at_period_end !== undefined) conditions.push({ index: 'cancel_at_period_end', values: [cancel_at_period_end] });
  if (customer_cancellation_reason) conditions.push({ index: 'customer_cancellation_reason', values: customer_cancellation_reason });
  return conditions;
}

/** The filters tested subscription by subscription: the date bounds and metadata. */
function subscriptionPredicate(filter: SubscriptionFilter): ((s: SubscriptionRecord) => boolean) | undefined {
  const tests: ((s: SubscriptionRecord) => boolean)[] = [];
  if (filter.canceled_at_after !== undefined) tests.push((s) => bound(s.canceled_at, filter.canceled_at_after, 'gte'));
  if (filter.canceled_at_before !== undefined) tests.push((s) => bound(s.canceled_at, filter.canceled_at_before, 'lte'));
  if (filter.started_after !== undefined) tests.push((s) => bound(s.started_at, filter.started_after, 'gte'));
  if (filter.started_before !== undefined) tests.push((s) => bound(s.started_at, filter.started_before, 'lte'));
  if (Object.keys(filter.metadata).length > 0) tests.push((s) => matchesMetadata(s.metadata, filter.metadata));
  return tests.length === 0 ? undefined : (s) => tests.every((test) => test(s));
}

/**
 * One page of the caller's subscriptions.
 * @param callerOrganizations the organizations of the token; no other organization's subscription is ever listed
 * @param faults `filter_ignored` ignores the status filter; see also {@link listRecords}
 */
export function listSubscriptions(
  store: Store,
  callerOrganizations: readonly string[],
  filter: SubscriptionFilter,
  params: ListParams,
  faults: FaultSet,
  requestNumber: number,
): RecordPage<SubscriptionRecord> {
  const organizationIds = visibleOrganizations(callerOrganizations, filter.organization_id);
  return listRecords(
    {
      collection: store.subscriptions,
      organizationIds,
      keys: subscriptionSortKeys(store),
      foreignKeys: SUBSCRIPTION_FOREIGN_SORT_KEYS,
      defaultSorting: SUBSCRIPTION_DEFAULT_SORTING,
      conditions: subscriptionConditions(store, organizationIds, filter, faults),
      filter: subscriptionPredicate(filter),
    },
    params,
    faults,
    requestNumber,
  );
}
