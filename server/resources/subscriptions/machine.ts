/**
 * The subscription state machine, as far as the reference changes subscriptions: an immediate
 * cancellation (when its customer is deleted) ends every subscription that has not ended yet.
 * @see spec/openapi.yaml, schema Subscription; operationId customers:delete_external
 * @see spec/rules.yaml customers.delete_external.cancels_subscriptions (cancels active subscriptions immediately)
 */
import { emitEvent, type MachineContext } from '../../events.js';
import { planTransition, type TransitionRefused, type TransitionTable } from '../../machine.js';
import type { SubscriptionRecord, SubscriptionStatus } from '../../records.js';
import { fail, ok, type Result } from '../../result.js';
import { nowTimestamp } from '../../store.js';
import { serializeSubscription } from './serializer.js';

/** Transitions of a subscription. `cancel_now` starts from every status that has not ended. */
export const SUBSCRIPTION_TRANSITIONS = {
  cancel_now: { from: ['incomplete', 'trialing', 'active', 'past_due', 'unpaid', 'paused'], to: 'canceled', events: ['subscription.canceled', 'subscription.revoked'] },
} as const satisfies TransitionTable<SubscriptionStatus, 'cancel_now'>;

/** A transition name of {@link SUBSCRIPTION_TRANSITIONS}. */
export type SubscriptionTransition = keyof typeof SUBSCRIPTION_TRANSITIONS;

/**
 * Fires a subscription transition. `cancel_now` sets canceled_at, ends_at and ended_at to now and
 * clears the scheduled changes (cancel or pause at period end, resumption, pending update).
 * @returns the subscription, or the refusal when its status does not allow the transition
 */
export function fireSubscriptionTransition(ctx: MachineContext, subscription: SubscriptionRecord, name: SubscriptionTransition): Result<SubscriptionRecord, TransitionRefused<SubscriptionStatus>> {
  const planned = planTransition<SubscriptionStatus, SubscriptionTransition>(SUBSCRIPTION_TRANSITIONS, name, subscription.status);
  if (!planned.ok) return fail(planned.error);
  const at = nowTimestamp(ctx.store);
  ctx.store.subscriptions.update(subscription, {
    status: planned.value.to,
    modified_at: at,
    canceled_at: at,
    ends_at: at,
    ended_at: at,
    cancel_at_period_end: false,
    pause_at_period_end: false,
    resumes_at: null,
    pending_update: null,
  } satisfies Partial<SubscriptionRecord>);
  const data = serializeSubscription(ctx, subscription);
  for (const type of planned.value.events) emitEvent(ctx.store, type, data);
  return ok(subscription);
}
