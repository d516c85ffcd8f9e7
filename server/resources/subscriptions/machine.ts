/**
 * The subscription state machine, as far as the reference changes subscriptions: an immediate
 * cancellation (when its customer is deleted) ends every subscription that has not ended yet; the
 * test clock (server/clock/lifecycle.ts) drives the rest: a trial's end, a renewal at a period's
 * end, a failed charge (past_due), its recovery, the end of dunning and a cancellation at the
 * period's end. Events are those of the platform's webhook event kinds (the platform's public
 * OpenAPI document, version 2026-10, enum WebhookEventType).
 * @see docs/lifecycle.md
 * @see spec/openapi.yaml, schema Subscription; operationId customers:delete_external
 * @see spec/rules.yaml customers.delete_external.cancels_subscriptions (cancels active subscriptions immediately)
 */
import { emitEvent, type MachineContext } from '../../events.js';
import { planTransition, type TransitionRefused, type TransitionTable } from '../../machine.js';
import type { SubscriptionRecord, SubscriptionStatus } from '../../records.js';
import { fail, ok, type Result } from '../../result.js';
import { nowTimestamp } from '../../store.js';
import { serializeSubscription } from './serializer.js';

/**
 * Transitions of a subscription. `cancel_now` starts from every status that has not ended; the
 * others are fired by the test clock at the instant they fall due (docs/lifecycle.md):
 * `trial_end` (trialing -> active), `renew` (active -> active, a new period),
 * `payment_failed` (active -> past_due), `payment_recovered` (past_due -> active),
 * `dunning_exhausted` (past_due -> canceled) and `end_at_period_end` (a cancellation scheduled
 * with cancel_at_period_end taking effect).
 */
export const SUBSCRIPTION_TRANSITIONS = {
  cancel_now: { from: ['incomplete', 'trialing', 'active', 'past_due', 'unpaid', 'paused'], to: 'canceled', events: ['subscription.canceled', 'subscription.revoked'] },
  trial_end: { from: ['trialing'], to: 'active', events: ['subscription.updated', 'subscription.active'] },
  renew: { from: ['active'], to: 'active', events: ['subscription.updated', 'subscription.cycled'] },
  payment_failed: { from: ['active'], to: 'past_due', events: ['subscription.updated', 'subscription.past_due'] },
  payment_recovered: { from: ['past_due'], to: 'active', events: ['subscription.updated', 'subscription.active'] },
  dunning_exhausted: { from: ['past_due'], to: 'canceled', events: ['subscription.updated', 'subscription.revoked'] },
  end_at_period_end: { from: ['trialing', 'active'], to: 'canceled', events: ['subscription.updated', 'subscription.revoked'] },
} as const satisfies TransitionTable<
  SubscriptionStatus,
  'cancel_now' | 'trial_end' | 'renew' | 'payment_failed' | 'payment_recovered' | 'dunning_exhausted' | 'end_at_period_end'
>;

/** A transition name of {@link SUBSCRIPTION_TRANSITIONS}. */
export type SubscriptionTransition = keyof typeof SUBSCRIPTION_TRANSITIONS;

/**
 * Fires a subscription transition. `cancel_now` sets canceled_at, ends_at and ended_at to now and
 * clears the scheduled changes (cancel or pause at period end, resumption, pending update).
 * @returns the subscription, or the refusal when its status does not allow the transition
 */
export function fireSubscriptionTransition(ctx: MachineContext, subscription: SubscriptionRecord, name: 'cancel_now'): Result<SubscriptionRecord, TransitionRefused<SubscriptionStatus>> {
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

/**
 * Fires a transition of the test clock: sets the status, modified_at (now: the instant it fell
 * due, see store.ts atInstant) and the fields of `patch`, then emits the transition's events with
 * the subscription as it now is.
 * @param patch the fields the transition sets besides the status (periods, past_due_at, ended_at...)
 * @returns the subscription, or the refusal when its status does not allow the transition
 * @see docs/lifecycle.md
 */
export function fireClockTransition(
  ctx: MachineContext,
  subscription: SubscriptionRecord,
  name: Exclude<SubscriptionTransition, 'cancel_now'>,
  patch: Partial<SubscriptionRecord>,
): Result<SubscriptionRecord, TransitionRefused<SubscriptionStatus>> {
  const planned = planTransition<SubscriptionStatus, SubscriptionTransition>(SUBSCRIPTION_TRANSITIONS, name, subscription.status);
  if (!planned.ok) return fail(planned.error);
  ctx.store.subscriptions.update(subscription, { ...patch, status: planned.value.to, modified_at: nowTimestamp(ctx.store) });
  const data = serializeSubscription(ctx, subscription);
  for (const type of planned.value.events) emitEvent(ctx.store, type, data);
  return ok(subscription);
}
