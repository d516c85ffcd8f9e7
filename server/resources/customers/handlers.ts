/**
 * Handlers of the customer operations. A deleted customer, like one of another organization, is
 * answered like a missing one (404 ResourceNotFound).
 * Deletion answers 200 with the deleted customer (deleted_at set, anonymized when asked); the API
 * description allows 200 or 204.
 * @see operationIds customers:list_payment_methods, customers:delete_external
 */
import type { OperationHandler } from '../../handler-types.js';
import { listParamsOf, listRecords, serializedListReply } from '../../listing.js';
import type { CustomerRecord, PaymentMethodRecord } from '../../records.js';
import { findOwned, notFound } from '../../tenancy.js';
import { deleteCustomer } from './delete.js';
import { serializeCustomer, serializePaymentMethod } from './serializer.js';

/** `customers:list_payment_methods`: a page of the customer's payment methods, newest first (200); 404 for an unknown, foreign or deleted customer. */
export const listPaymentMethodsHandler: OperationHandler = (ctx) => {
  const id = ctx.pathParams.id!;
  const customer = findOwned(ctx.store.customers, id, ctx.principal, ctx.faults);
  if (!customer || customer.deleted_at !== null) return notFound('Customer', id);
  const params = listParamsOf(ctx.query);
  const page = listRecords<PaymentMethodRecord>(
    {
      collection: ctx.store.paymentMethods,
      organizationIds: [customer.organization_id],
      keys: { created_at: (method) => method.created_at },
      defaultSorting: [{ key: 'created_at', descending: true }],
      // The `payment_methods_of_organization` fault lists the methods of every customer of the organization.
      filter: ctx.faults.has('payment_methods_of_organization') ? undefined : (method) => method.customer_id === customer.id,
    },
    params,
    ctx.faults,
    ctx.requestNumber,
  );
  return serializedListReply(ctx.store, page.items, page.totalCount, params.limit, ctx.faults, (method) => serializePaymentMethod(ctx, method), `payment methods ${ctx.apiVersion}`);
};

/**
 * `customers:delete_external`: 204 without a body, as the platform answers (the description's table
 * says 200 and, below it, that the success status code and body are not shown: docs/platform.md);
 * 404 when no live customer of the caller has this external id.
 */
export const deleteExternalCustomerHandler: OperationHandler = (ctx) => {
  const externalId = ctx.pathParams.external_id!;
  const customer = ctx.store.customers
    .lookup('external_id', externalId)
    .find((candidate: CustomerRecord) => candidate.deleted_at === null && findOwned(ctx.store.customers, candidate.id, ctx.principal, ctx.faults) !== undefined);
  if (!customer) return notFound('Customer with external id', externalId);
  const deleted = deleteCustomer(ctx, customer, { anonymize: ctx.query.values.anonymize === true });
  if (!deleted.ok) return notFound('Customer with external id', externalId);
  return { status: 204 };
};

/**
 * `customers:get`: 200 with the customer; 404 for an unknown or foreign customer, and for a deleted
 * one (a deletion removes the customer from the organization's API).
 * @see docs/platform.md (read-back operations)
 */
export const getCustomerHandler: OperationHandler = (ctx) => {
  const id = ctx.pathParams.id!;
  const customer = findOwned(ctx.store.customers, id, ctx.principal, ctx.faults);
  if (!customer || customer.deleted_at !== null) return notFound('Customer', id);
  const body = serializeCustomer(ctx, customer);
  if (ctx.faults.has('customer_read_flaps') && flapped(ctx.store, customer.id)) body.name = null;
  return { status: 200, body };
};

/** Reads of each customer so far, by store, for the fault customer_read_flaps (every second read is stale). */
const readsOf = new WeakMap<object, Map<string, number>>();

/** Whether this read of a customer is an even one (the second, fourth...). */
function flapped(store: object, id: string): boolean {
  let reads = readsOf.get(store);
  if (!reads) readsOf.set(store, (reads = new Map()));
  const n = (reads.get(id) ?? 0) + 1;
  reads.set(id, n);
  return n % 2 === 0;
}
