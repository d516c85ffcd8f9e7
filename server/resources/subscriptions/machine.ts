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
import { planTransition, type TransitionRefused } from '../../machine.js';
import type { SubscriptionRecord, SubscriptionStatus } from '../../records.js';
import { fail, ok, type Result } from '../../result.js';
import { nowTimestamp } from '../../store.js';
import { serializeSubscription } from './serializer.js';
import { SUBSCRIPTION_TRANSITIONS, type SubscriptionTransition } from './transitions.js';

export { SUBSCRIPTION_TRANSITIONS, type SubscriptionTransition };

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
