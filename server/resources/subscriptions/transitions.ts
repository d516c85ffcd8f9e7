/**
 * The transition table of a subscription (data only): read by the reference's state machine
 * (./machine.ts) and by the harness's stateful suites and transition coverage
 * (engine/stateful/transitions.ts), which must not load the server's runtime to read it.
 * @see docs/design.md (Reference server: explicit transition tables per resource)
 */
import type { TransitionTable } from '../../machine.js';
import type { SubscriptionStatus } from '../../records.js';

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
