/**
 * Judges what a customer deletion did to the subscriptions, seats and license keys the customer
 * had, from what the public API showed before and after it (the subscription list, the customer
 * portal) and from the target's event log, and tells which state-machine edges were seen.
 * Only the API description's own words fail a target: "Cancels active subscriptions immediately
 * and revokes active benefits". What it does not state (subscriptions in other statuses, seats) is
 * observed for the transition coverage and never judged.
 * @see spec/rules.yaml customers.delete_external.cancels_subscriptions, customers.delete_external.revokes_benefits;
 *   operation customers:delete_external (DELETE /v1/customers/external/{external_id})
 */
import type { TargetEvent } from '../../core/adapter.js';
import type { Finding } from '../../core/types.js';

type Item = Record<string, unknown>;

/** A state change a scenario saw: the record, its state before and after. */
export interface SeenChange {
  id: string;
  from: string;
  to: string;
}

/** What the subscription list showed of a customer's subscriptions around its deletion. */
export interface SubscriptionCascade {
  findings: Finding[];
  /** Subscriptions whose status changed, with the status before and after (canceled and ended: `to` is `canceled`). */
  changes: SeenChange[];
}

/**
 * Judges the customer's subscriptions after its deletion: each that was `active` must be canceled
 * at once (status canceled, ended_at set); any whose status changed is reported as a change. A
 * subscription the list no longer shows after the deletion cannot be judged.
 * @param ids the subscriptions to judge (those the scenario created)
 * @param before the subscription list items of the customer before the deletion
 * @param after the same list after it
 */
export function subscriptionCascade(ids: readonly string[], before: readonly Item[], after: readonly Item[]): SubscriptionCascade {
  const findings: Finding[] = [];
  const changes: SeenChange[] = [];
  for (const id of ids) {
    const was = before.find((item) => item.id === id);
    const now = after.find((item) => item.id === id);
    if (!was || !now || typeof was.status !== 'string' || typeof now.status !== 'string') continue;
    const ended = now.status === 'canceled' && now.ended_at != null;
    if (was.status === 'active' && !ended) {
      findings.push({
        kind: 'subscription_not_canceled',
        title: "A deleted customer's active subscription is not canceled immediately",
        message: `Subscription ${id} was active; after its customer was deleted it has status ${JSON.stringify(now.status)} and ended_at ${JSON.stringify(now.ended_at)} (cancel_at_period_end ${JSON.stringify(now.cancel_at_period_end)}).`,
        expected: { status: 'canceled', ended_at: 'a date-time' },
        actual: { status: now.status, ended_at: now.ended_at, cancel_at_period_end: now.cancel_at_period_end },
      });
    }
    if (now.status !== was.status && (now.status !== 'canceled' || ended)) changes.push({ id, from: was.status, to: now.status });
  }
  return { findings, changes };
}

/**
 * The event of the log that shows record `id` revoked: one whose data is the record (`data.id`)
 * with status `revoked`, or one of a kind ending in `.revoked` that names it as `data.<field>` or
 * `data.properties.<field>` (the platform's benefit grant event names its license key in the
 * grant's properties: `properties.license_key_id`).
 * @param field the field that names the record in events about another resource (`license_key_id`)
 * @returns the first such event, or undefined
 * @see the platform's public OpenAPI document (Polar API 2026-10), schema BenefitGrantLicenseKeysWebhook
 */
export function revocationEvent(events: readonly TargetEvent[], id: string, field?: string): TargetEvent | undefined {
  return events.find((event) => {
    const data = event.data ?? {};
    if (data.id === id && data.status === 'revoked') return true;
    if (field === undefined || !event.type.endsWith('.revoked')) return false;
    const properties = data.properties;
    return data[field] === id || (properties !== null && typeof properties === 'object' && (properties as Record<string, unknown>)[field] === id);
  });
}

/**
 * Judges a license key the customer portal still lists after its customer was deleted: a granted
 * key is an active benefit, which the deletion revokes.
 * @param key the key as listed after the deletion, or undefined when the portal no longer shows it (nothing to judge)
 */
export function licenseKeyFindings(key: Item | undefined): Finding[] {
  if (!key || key.status !== 'granted') return [];
  return [{
    kind: 'license_key_still_granted',
    title: "A deleted customer's license key is still granted",
    message: `After its customer was deleted, the customer portal lists license key ${String(key.id)} with status "granted"; deleting a customer revokes its active benefits.`,
    expected: 'not granted (revoked)',
    actual: key.status,
  }];
}
