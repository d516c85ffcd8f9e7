/**
 * The customer's lifecycle as a state machine: active until deleted (deleted_at set). Deleting
 * emits customer.deleted with the customer as it was left (anonymized when asked).
 * @see spec/openapi.yaml, schema Customer (deleted_at); operationId customers:delete_external
 */
import { emitEvent, type MachineContext } from '../../events.js';
import { planTransition, type TransitionRefused } from '../../machine.js';
import type { CustomerRecord } from '../../records.js';
import { fail, ok, type Result } from '../../result.js';
import { nowTimestamp } from '../../store.js';
import { serializeCustomer } from './serializer.js';
import { CUSTOMER_TRANSITIONS, type CustomerTransition, type CustomerState } from './transitions.js';

export { CUSTOMER_TRANSITIONS, type CustomerTransition, type CustomerState };

/** The state of a customer record. */
export function customerState(customer: CustomerRecord): CustomerState {
  return customer.deleted_at === null ? 'active' : 'deleted';
}

/**
 * Fires a customer transition (`delete` sets deleted_at and modified_at) and emits its events.
 * @returns the customer, or the refusal when it is already deleted
 */
export function fireCustomerTransition(ctx: MachineContext, customer: CustomerRecord, name: CustomerTransition): Result<CustomerRecord, TransitionRefused<CustomerState>> {
  const planned = planTransition<CustomerState, CustomerTransition>(CUSTOMER_TRANSITIONS, name, customerState(customer));
  if (!planned.ok) return fail(planned.error);
  const at = nowTimestamp(ctx.store);
  ctx.store.customers.update(customer, { deleted_at: at, modified_at: at });
  const data = serializeCustomer(ctx, customer);
  for (const type of planned.value.events) emitEvent(ctx.store, type, data);
  return ok(customer);
}
