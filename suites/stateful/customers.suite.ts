// Customers: deleting one by external id cancels its active subscriptions immediately, leaves it
// gone for a second deletion, and with anonymize=true replaces its personal data. Everything is
// observed through public operations: the subscription list shows the subscriptions and the
// customer they embed. The fixture customer_external_id is deleted for good: give a fresh one to
// every run against a lasting target.
import { anonymizationFindings, PERSONAL_FIELDS } from '../../checks/stateful/customer-deletion.js';
import type { Exchange } from '../../harness/types.js';
import { answerText, bodyOf, defineScenario, statefulSuite, statusOf, succeeded, type ScenarioRun } from './scenario.js';

const suite = await statefulSuite();

type Item = Record<string, unknown>;

/** What the deletion scenario saw, for the anonymization scenario after it. */
let deletion: { customerId: string; before: Item; after: Item | undefined; shown: Exchange | undefined } | undefined;

/** The subscriptions of a customer, listed by the admin (first 100). */
async function subscriptionsOf(s: ScenarioRun, query: Record<string, string>): Promise<Item[]> {
  const listed = s.require(await s.send('subscriptions:list', { role: 'admin', query: { ...query, limit: '100' } }), 'GET /v1/subscriptions/');
  return Array.isArray(listed.items) ? (listed.items as Item[]) : [];
}

const customerOf = (subscription: Item | undefined): Item | undefined =>
  subscription && typeof subscription.customer === 'object' && subscription.customer !== null ? (subscription.customer as Item) : undefined;

defineScenario(suite, 'customer_deletion_cascades', async (s) => {
  const externalId = s.fixtures.customer_external_id!;
  const before = await subscriptionsOf(s, { external_customer_id: externalId });
  const customerId = before.map((item) => item.customer_id).find((id): id is string => typeof id === 'string');
  if (!customerId) return s.skip(`no subscription lists customer_external_id ${externalId}: the cascade cannot be observed`);
  const embedded = customerOf(before[0]);
  if (embedded?.deleted_at != null) return s.skip(`the customer of customer_external_id ${externalId} is already deleted (an earlier run?): give a fresh one`);
  const active = before.filter((item) => item.status === 'active');
  if (active.length === 0) return s.skip(`customer_external_id ${externalId} has no active subscription: the cascade cannot be observed`);

  const deleted = await s.send('customers:delete_external', { role: 'admin', pathParams: { external_id: externalId }, query: { anonymize: 'true' } });
  if (!succeeded(deleted)) {
    return s.stop({ kind: 'deletion_refused', title: 'Deleting a customer by external id was refused', message: `DELETE /v1/customers/external/${externalId} answered ${answerText(deleted)} for a customer that exists.`, expected: '200 or 204', actual: statusOf(deleted) }, deleted);
  }
  const after = await subscriptionsOf(s, { customer_id: customerId });
  deletion = { customerId, before: embedded ?? {}, after: customerOf(after[0]), shown: s.exchanges.at(-1) };
  for (const subscription of active) {
    const now = after.find((item) => item.id === subscription.id);
    // A subscription the list no longer shows cannot be judged; one it shows must be canceled and ended.
    if (!now) continue;
    if (s.check(now.status === 'canceled' && now.ended_at != null, {
      kind: 'subscription_not_canceled',
      title: "A deleted customer's active subscription is not canceled immediately",
      message: `Subscription ${String(subscription.id)} was active; after its customer was deleted it has status ${JSON.stringify(now.status)} and ended_at ${JSON.stringify(now.ended_at)} (cancel_at_period_end ${JSON.stringify(now.cancel_at_period_end)}).`,
      expected: { status: 'canceled', ended_at: 'a date-time' },
      actual: { status: now.status, ended_at: now.ended_at, cancel_at_period_end: now.cancel_at_period_end },
    })) s.transition('subscription', 'active', 'canceled');
  }

  const again = await s.send('customers:delete_external', { role: 'admin', pathParams: { external_id: externalId } });
  if (s.check(statusOf(again) === 404 && bodyOf(again)?.error === 'ResourceNotFound', {
    kind: 'deleted_customer_found',
    title: 'A deleted customer can be deleted again',
    message: `A second DELETE /v1/customers/external/${externalId} answered ${answerText(again)}; the customer is gone and must be answered 404 ResourceNotFound.`,
    expected: '404 ResourceNotFound',
    actual: statusOf(again),
  }, again)) s.transition('customer', 'active', 'deleted');

  const unknown = await s.send('customers:delete_external', { role: 'admin', pathParams: { external_id: `cnf_unknown_${s.suite.run.seed}` } });
  s.check(statusOf(unknown) === 404, {
    kind: 'unknown_customer_deleted',
    title: 'Deleting an unknown external id is not 404',
    message: `DELETE of an external id no customer has answered ${answerText(unknown)}.`,
    expected: 404,
    actual: statusOf(unknown),
  }, unknown);
});

defineScenario(suite, 'customer_deletion_anonymizes', async (s) => {
  if (!deletion) return s.skip('customer_deletion_cascades did not delete the customer (skipped, refused, or not selected)');
  if (!deletion.after) return s.skip('the subscription list no longer shows the deleted customer: its personal data cannot be observed');
  s.steps.push(`customer ${deletion.customerId} deleted with anonymize=true (customer_deletion_cascades)`);
  for (const finding of anonymizationFindings(deletion.before, deletion.after, PERSONAL_FIELDS)) s.fail(finding, deletion.shown);
});
