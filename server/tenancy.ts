/**
 * Finding a record by id for a caller: a record of another organization, or of another customer
 * in the customer portal, is answered exactly like a missing one (404 ResourceNotFound), so that
 * its existence does not leak.
 * @see spec/rules.yaml auth.tenant_isolation, orders.customer_portal_own_orders, errors.not_found
 */
import type { Principal } from './auth.js';
import type { Collection } from './collection.js';
import type { FaultSet } from './faults.js';
import type { BaseRecord } from './records.js';
import { errorReply, type Reply } from './replies.js';

/**
 * The record with this id if it belongs to one of the caller's organizations.
 * @param faults `tenant_leak` finds records of any organization
 */
export function findOwned<T extends BaseRecord>(collection: Collection<T>, id: string, principal: Principal | undefined, faults: FaultSet): T | undefined {
  const record = collection.get(id);
  if (!record) return undefined;
  if (faults.has('tenant_leak')) return record;
  return principal?.organizationIds.includes(record.organization_id) ? record : undefined;
}

/**
 * The record with this id if it belongs to the customer of a portal session (and its organization).
 * @param faults `portal_isolation_broken` finds records of any customer of the organization
 */
export function findPortalOwned<T extends BaseRecord & { customer_id: string }>(collection: Collection<T>, id: string, principal: Principal | undefined, faults: FaultSet): T | undefined {
  const record = findOwned(collection, id, principal, faults);
  if (!record) return undefined;
  if (faults.has('portal_isolation_broken')) return record;
  return record.customer_id === principal?.customerId ? record : undefined;
}

/**
 * The 404 of a resource that does not exist for the caller; the same whether it is missing or
 * belongs to someone else.
 * @param resource the resource's name for people (`Order`)
 */
export function notFound(resource: string, id: string): Reply {
  return errorReply(404, `${resource} ${id} not found.`);
}

/**
 * The organizations whose records a list may hold: those given (the caller's, narrowed by an
 * organization_id filter).
 * @param faults `list_leaks_other_org` lists every organization that has records in the collection, whoever asks
 */
export function listedOrganizations<T extends BaseRecord>(collection: Collection<T>, organizationIds: readonly string[], faults: FaultSet): readonly string[] {
  if (!faults.has('list_leaks_other_org')) return organizationIds;
  return [...new Set(Array.from(collection.all(), (record) => record.organization_id))];
}

/**
 * A handler's answer as sent.
 * @param faults `not_found_error_value_wrong` names a 404 `{error: "NotFound"}` instead of the API's `ResourceNotFound`
 */
export function notFoundAsSent(reply: Reply, faults: FaultSet): Reply {
  if (reply.status !== 404 || !faults.has('not_found_error_value_wrong')) return reply;
  return { ...reply, body: { ...(reply.body as object), error: 'NotFound' } };
}
