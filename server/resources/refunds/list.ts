/**
 * The refund list: filters, sort keys and default order.
 * `succeeded=true` keeps refunds whose status is `succeeded`, `false` every other status (pending,
 * failed, canceled): the API description names the filter without its semantics.
 * @see shared/api-description.md, Endpoints (GET /v1/refunds/, List filters)
 */
import type { FaultSet } from '../../faults.js';
import { listRecords, visibleOrganizations, type ListParams, type RecordPage, type SortCriterion, type SortKeys } from '../../listing.js';
import type { RefundRecord, Store } from '../../store.js';

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

function refundPredicate(store: Store, filter: RefundFilter): ((refund: RefundRecord) => boolean) | undefined {
  const tests: ((refund: RefundRecord) => boolean)[] = [];
  const { id, order_id, subscription_id, customer_id, external_customer_id, succeeded } = filter;
  if (id) tests.push((refund) => id.includes(refund.id));
  if (order_id) tests.push((refund) => order_id.includes(refund.order_id));
  if (subscription_id) tests.push((refund) => refund.subscription_id !== null && subscription_id.includes(refund.subscription_id));
  if (customer_id) tests.push((refund) => customer_id.includes(refund.customer_id));
  if (external_customer_id) {
    tests.push((refund) => {
      const external = store.customers.get(refund.customer_id)?.external_id;
      return external != null && external_customer_id.includes(external);
    });
  }
  if (succeeded !== undefined) tests.push((refund) => (refund.status === SUCCEEDED_STATUS) === succeeded);
  return tests.length === 0 ? undefined : (refund) => tests.every((test) => test(refund));
}

/** One page of the caller's refunds. @param callerOrganizations the organizations of the token */
export function listRefunds(store: Store, callerOrganizations: readonly string[], filter: RefundFilter, params: ListParams, faults: FaultSet, requestNumber: number): RecordPage<RefundRecord> {
  return listRecords(
    {
      collection: store.refunds,
      organizationIds: visibleOrganizations(callerOrganizations, filter.organization_id),
      keys: REFUND_SORT_KEYS,
      defaultSorting: REFUND_DEFAULT_SORTING,
      filter: refundPredicate(store, filter),
    },
    params,
    faults,
    requestNumber,
  );
}
