/**
 * The customer portal's license key list: the session customer's keys, newest first.
 * @see operationId customer_portal:license_keys:list
 */
import type { FaultSet } from '../../faults.js';
import { listRecords, type IndexCondition, type ListParams, type RecordPage, type SortCriterion } from '../../listing.js';
import type { LicenseKeyRecord } from '../../records.js';
import type { Store } from '../../store.js';

/** Default order: newest first, ties by id. */
export const LICENSE_KEY_DEFAULT_SORTING: readonly SortCriterion[] = [{ key: 'created_at', descending: true }];

/**
 * One page of a customer's license keys.
 * @param customerId the session's customer; undefined lists every customer's keys (the `portal_isolation_broken` fault)
 * @param benefitId only keys of this benefit, when given
 */
export function listLicenseKeys(store: Store, organizationIds: readonly string[], customerId: string | undefined, benefitId: string | undefined, params: ListParams, faults: FaultSet, requestNumber: number): RecordPage<LicenseKeyRecord> {
  const conditions: IndexCondition[] = [];
  if (customerId !== undefined) conditions.push({ index: 'customer_id', values: [customerId] });
  if (benefitId !== undefined) conditions.push({ index: 'benefit_id', values: [benefitId] });
  return listRecords(
    {
      collection: store.licenseKeys,
      organizationIds,
      keys: { created_at: (key) => key.created_at },
      defaultSorting: LICENSE_KEY_DEFAULT_SORTING,
      conditions,
      filter: undefined,
    },
    params,
    faults,
    requestNumber,
  );
}
