/**
 * The refund list: filters, sort keys and default order.
 * `succeeded=true` keeps refunds whose status is `succeeded`, `false` every other status (pending,
 * failed, canceled): the API description names the filter without its semantics.
 * @see operationId refunds:list; spec/rules.yaml lists.filters.refunds, lists.filters.refunds.external_customer_and_succeeded
 */
import type { FaultSet } from '../../faults.js';
import { listRecords, visibleOrganizations, type IndexCondition, type ListParams, type RecordPage, type SortCriterion, type SortKeys } from '../../listing.js';
import type { RefundRecord } from '../../records.js';
import type { Store } from '../../store.js';

/** Filters of the refund list; an absent field does not filter; lists match any of their values. */
export interface RefundFilter {
  id?: string[];
  organization_id?: string[];
  order_id?: string[];
  subscription_id?: string[];
  customer_id?: string[];
  /** Matches the external_id of the refund's customer. */
  external_customer_id?: string[];
  /** true: status succeeded; false: any other status. */
  succeeded?: boolean;
}

/** The status the `succeeded` filter counts as succeeded. */
export const SUCCEEDED_STATUS = 'succeeded';

/** Default order of the refund list: newest first. */
export const REFUND_DEFAULT_SORTING: readonly SortCriterion[] = [{ key: 'created_at', descending: true }];

/** Sort keys of refunds: created_at and amount (cents). */
export const REFUND_SORT_KEYS: SortKeys<RefundRecord> = {
  created_at: (refund) => refund.created_at,
  amount: (refund) => refund.amount,
};

/**
 * Every filter of the refund list, answered by the refund collection's indexes (see createStore);
 * the external customer id through the customers' index.
 */
function refundConditions(store: Store, organizationIds: readonly string[], filter: RefundFilter): IndexCondition[] {
  const { id, order_id, subscription_id, customer_id, external_customer_id, succeeded } = filter;
  const conditions: IndexCondition[] = [];
  if (id) conditions.push({ index: 'id', values: id });
  if (order_id) conditions.push({ index: 'order_id', values: order_id });
  if (subscription_id) conditions.push({ index: 'subscription_id', values: subscription_id });
  if (customer_id) conditions.push({ index: 'customer_id', values: customer_id });
  if (external_customer_id) {
    const customerIds = external_customer_id.flatMap((externalId) => store.customers.lookup('external_id', externalId).map((customer) => customer.id));
    conditions.push({ index: 'customer_id', values: customerIds });
  }
  if (succeeded !== undefined) {
    const present = new Set(organizationIds.flatMap((id) => store.refunds.valuesInOrganization('status', id)));
    conditions.push({ index: 'status', values: [...present].filter((status) => (status === SUCCEEDED_STATUS) === succeeded) });
  }
  return conditions;
}

/** One page of the caller's refunds. @param callerOrganizations the organizations of the token */
export function listRefunds(store: Store, callerOrganizations: readonly string[], filter: RefundFilter, params: ListParams, faults: FaultSet, requestNumber: number): RecordPage<RefundRecord> {
  const organizationIds = visibleOrganizations(callerOrganizations, filter.organization_id);
  return listRecords(
    {
      collection: store.refunds,
      organizationIds,
      keys: REFUND_SORT_KEYS,
      defaultSorting: REFUND_DEFAULT_SORTING,
      conditions: refundConditions(store, organizationIds, filter),
      filter: undefined,
    },
    params,
    faults,
    requestNumber,
  );
}
