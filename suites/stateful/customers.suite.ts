// Customers: deleting one by external id cancels its active subscriptions immediately, leaves it
// gone for a second deletion, and with anonymize=true replaces its personal data. Everything is
// observed through public operations: the subscription list shows the subscriptions and the
// customer they embed. The fixture customer_external_id is deleted for good: give a fresh one to
// every run against a lasting target.
//
// customer_deletion_cascades_all_states owns what it deletes: through the adapter it creates a
// customer with a subscription in every status a cancellation starts from, two seats (one claimed,
// one pending) and a license key, then deletes the customer. An edge of the transition coverage is
// recorded only once the scenario has seen both of its states: subscriptions through the
// subscription list; the claimed seat through the claim's answer and the license key through the
// customer portal (with the claim's customer session) before the deletion. After it, a deleted
// customer's session may no longer be served and the API has no operation that reads a seat or a
// deleted customer's license keys, so their revocation is read from the target's event log (a
// customer_seat.revoked-like event carrying the seat with status revoked, a benefit grant event
// ending in .revoked that names the license key), or from the portal when it still lists the key.
import { licenseKeyFindings, revocationEvent, subscriptionCascade } from '../../checks/stateful/deletion-cascade.js';
import { anonymizationFindings, PERSONAL_FIELDS } from '../../checks/stateful/customer-deletion.js';
import { newEvents } from '../../checks/stateful/order-events.js';
import { edge, KNOWN_EDGES, statesLeadingTo } from '../../engine/stateful/transitions.js';
import { AdapterError, type ApiObject } from '../../core/adapter.js';
import type { Exchange } from '../../core/types.js';
import { answerText, bodyOf, defineScenario, statefulSuite, statusOf, succeeded, type ScenarioRun } from '../../engine/stateful/scenario.js';

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

/** The subscription status that seats are invited to: a live one, which a deletion must cancel. */
const SEATED_STATUS = 'active';

/** A string field of what the adapter answered, or an {@link AdapterError} naming the capability. */
function adapterString(capability: string, object: ApiObject, field: string): string {
  const value = object[field];
  if (typeof value !== 'string' || value === '') throw new AdapterError(capability, `adapter "${suite.adapter?.name}": ${capability} answered no ${field}`);
  return value;
}

/** The license keys a customer session lists, or undefined when the portal does not answer 200 with items. */
async function portalKeys(s: ScenarioRun, session: string): Promise<Item[] | undefined> {
  const listed = await s.send('customer_portal:license_keys:list', { bearer: session, query: { limit: '100' } });
  const items = bodyOf(listed)?.items;
  return statusOf(listed) === 200 && Array.isArray(items) ? (items as Item[]) : undefined;
}

defineScenario(suite, 'customer_deletion_cascades_all_states', async (s) => {
  // Everything the deletion cascades to, created through the adapter: a subscription in every status a cancellation starts from.
  const customer = await s.adapter('createCustomer')({});
  const customerId = adapterString('createCustomer', customer, 'id');
  const externalId = adapterString('createCustomer', customer, 'external_id');
  const statuses = statesLeadingTo('subscription', 'canceled');
  const subscriptions = new Map<string, string>();
  for (const status of statuses) {
    const created = await s.adapter('createSubscription')({ customerId, status, ...(status === SEATED_STATUS ? { seats: 2 } : {}) });
    subscriptions.set(status, adapterString('createSubscription', created, 'id'));
  }
  const seated = subscriptions.get(SEATED_STATUS);

  // Seats: one claimed through the API (its answer shows the seat claimed and opens a session of the customer), one left pending.
  const seats: { id: string; state: string }[] = [];
  let session: string | undefined;
  if (seated) {
    const claimedInvitation = await s.adapter('createSeatInvitation')({ subscriptionId: seated });
    s.secret(claimedInvitation.invitationToken, 'INVITATION_TOKEN');
    const claim = await s.send('customer_seats:claim', { json: { invitation_token: claimedInvitation.invitationToken } });
    const body = bodyOf(claim);
    const seat = (typeof body?.seat === 'object' && body.seat !== null ? body.seat : {}) as Item;
    if (statusOf(claim) === 200 && typeof seat.id === 'string' && (seat.status === 'claimed' || seat.claimed_at != null)) {
      seats.push({ id: seat.id, state: 'claimed' });
      if (claimedInvitation.seat.status === 'pending') s.transition('seat', 'pending', 'claimed');
    } else {
      s.steps.push(`the claim answered ${answerText(claim)}: no claimed seat to follow (seat_claim_single_use judges claims)`);
    }
    if (typeof body?.customer_session_token === 'string' && body.customer_session_token !== '') {
      session = body.customer_session_token;
      s.secret(session, 'CUSTOMER_SESSION_TOKEN');
    }
    const pendingInvitation = await s.adapter('createSeatInvitation')({ subscriptionId: seated });
    s.secret(pendingInvitation.invitationToken, 'PENDING_INVITATION_TOKEN');
    if (pendingInvitation.seat.status === 'pending' && typeof pendingInvitation.seat.id === 'string') seats.push({ id: pendingInvitation.seat.id, state: 'pending' });
  }

  // A license key, granted: as the customer portal shows it when the claim opened a session, else as the adapter answered.
  const key = await s.adapter('grantLicenseKey')({ customerId });
  const keyId = adapterString('grantLicenseKey', key, 'id');
  const listedKey = session ? (await portalKeys(s, session))?.find((item) => item.id === keyId) : undefined;
  const keyState = listedKey?.status ?? key.status;

  const before = await subscriptionsOf(s, { customer_id: customerId });
  if (!seated || before.find((item) => item.id === seated)?.status !== SEATED_STATUS) {
    return s.skip(`the subscription list does not show the ${SEATED_STATUS} subscription the adapter created for customer ${customerId}: the cascade cannot be observed`);
  }
  const eventsBefore = await s.adapter('listEvents')({});

  const deleted = await s.send('customers:delete_external', { role: 'admin', pathParams: { external_id: externalId } });
  if (!succeeded(deleted)) {
    return s.stop({ kind: 'deletion_refused', title: 'Deleting a customer by external id was refused', message: `DELETE /v1/customers/external/${externalId} answered ${answerText(deleted)} for a customer that exists.`, expected: '200 or 204', actual: statusOf(deleted) }, deleted);
  }

  // Subscriptions: every status the list showed before and after.
  const after = await subscriptionsOf(s, { customer_id: customerId });
  const cascade = subscriptionCascade([...subscriptions.values()], before, after);
  for (const finding of cascade.findings) s.fail(finding, s.exchanges.at(-1));
  for (const change of cascade.changes) if (KNOWN_EDGES.has(edge('subscription', change.from, change.to))) s.transition('subscription', change.from, change.to);

  // Seats and the license key: the portal, when it still serves the session, then the event log.
  const fresh = newEvents(eventsBefore, await s.adapter('listEvents')({}));
  for (const seat of seats) if (revocationEvent(fresh, seat.id)) s.transition('seat', seat.state, 'revoked');
  const keyAfter = session ? (await portalKeys(s, session))?.find((item) => item.id === keyId) : undefined;
  for (const finding of licenseKeyFindings(keyAfter)) s.fail(finding, s.exchanges.at(-1));
  const revoked = keyAfter ? keyAfter.status === 'revoked' : revocationEvent(fresh, keyId, 'license_key_id') !== undefined;
  if (keyState === 'granted' && revoked) s.transition('license_key', 'granted', 'revoked');
});
