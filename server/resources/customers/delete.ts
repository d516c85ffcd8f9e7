/**
 * Deleting a customer: its subscriptions that have not ended are canceled immediately, their seats
 * revoked, its granted license keys revoked, its personal data replaced when asked, and the
 * customer marked deleted (deleted_at). The record stays so that the subscriptions, orders and
 * refunds it made remain readable and embed it (deleted, anonymized when asked); it is gone for
 * every operation that looks a customer up (payment methods, deletion, portal sessions: 404 / 401).
 * Orders keep their billing name and address: they are financial records.
 * @see operationId customers:delete_external; spec/rules.yaml customers.delete_external.cancels_subscriptions,
 *   customers.delete_external.revokes_benefits, customers.delete_external.anonymize
 */
import { createHash } from 'node:crypto';
import type { MachineContext } from '../../events.js';
import type { TransitionRefused } from '../../machine.js';
import type { CustomerRecord } from '../../records.js';
import type { Result } from '../../result.js';
import { fireSeatTransition, SEAT_TRANSITIONS } from '../customer-seats/machine.js';
import { fireLicenseKeyTransition, LICENSE_KEY_TRANSITIONS } from '../license-keys/machine.js';
import { fireSubscriptionTransition, SUBSCRIPTION_TRANSITIONS } from '../subscriptions/machine.js';
import { fireCustomerTransition, type CustomerState } from './machine.js';

/** The domain of anonymized email addresses (RFC 2606: never delivered). */
export const ANONYMIZED_EMAIL_DOMAIN = 'anonymized.invalid';

/** An anonymized email address that keeps the customer distinct without naming anyone. */
export function anonymizedEmail(customerId: string, email: string): string {
  return `${createHash('sha256').update(`${customerId}:${email}`).digest('hex').slice(0, 16)}@${ANONYMIZED_EMAIL_DOMAIN}`;
}

/**
 * Replaces a customer's personal data (email, name, billing name and address, tax id, avatar) and
 * that of its members and seat invitations; metadata and external_id stay.
 */
export function anonymizeCustomer(ctx: MachineContext, customer: CustomerRecord): void {
  ctx.store.customers.update(customer, {
    email: anonymizedEmail(customer.id, customer.email),
    name: null,
    billing_name: null,
    billing_address: null,
    tax_id: null,
    avatar_url: null,
  } satisfies Partial<CustomerRecord>);
  for (const member of [...ctx.store.members.lookup('customer_id', customer.id)]) {
    ctx.store.members.update(member, { email: anonymizedEmail(member.id, member.email), name: null });
  }
  for (const subscription of ctx.store.subscriptions.lookup('customer_id', customer.id)) {
    for (const seat of [...ctx.store.seats.lookup('subscription_id', subscription.id)]) {
      if (seat.email !== null) ctx.store.seats.update(seat, { email: anonymizedEmail(seat.id, seat.email) });
    }
  }
}

/**
 * Deletes a customer with the cascade of the API description.
 * @param options.anonymize also replace personal data
 * @param ctx.faults `no_cascade_on_delete` deletes the customer but leaves subscriptions, seats and license keys as they were
 * @returns the deleted customer, or the refusal when it was already deleted
 */
export function deleteCustomer(ctx: MachineContext, customer: CustomerRecord, options: { anonymize: boolean }): Result<CustomerRecord, TransitionRefused<CustomerState>> {
  if (customer.deleted_at === null && !ctx.faults.has('no_cascade_on_delete')) {
    for (const subscription of ctx.store.subscriptions.lookup('customer_id', customer.id)) {
      if ((SUBSCRIPTION_TRANSITIONS.cancel_now.from as readonly string[]).includes(subscription.status)) fireSubscriptionTransition(ctx, subscription, 'cancel_now');
      for (const seat of ctx.store.seats.lookup('subscription_id', subscription.id)) {
        if ((SEAT_TRANSITIONS.revoke.from as readonly string[]).includes(seat.status)) fireSeatTransition(ctx, seat, 'revoke');
      }
    }
    for (const licenseKey of ctx.store.licenseKeys.lookup('customer_id', customer.id)) {
      if ((LICENSE_KEY_TRANSITIONS.revoke.from as readonly string[]).includes(licenseKey.status)) fireLicenseKeyTransition(ctx, licenseKey, 'revoke');
    }
  }
  if (options.anonymize && customer.deleted_at === null) anonymizeCustomer(ctx, customer);
  return fireCustomerTransition(ctx, customer, 'delete');
}
