// The test clock: subscriptions started on the target's clock through the adapter
// (createClockSubscription), the clock advanced past their period end (advanceClock), and what the
// API then shows: the renewed subscription's next period, a trial ended into active, a subscription
// set to cancel at period end canceled then, the renewal's order (orders:get) and the order of its
// events in the target's log (listEvents); last, a subscription whose charges fail becomes past_due
// and, as the clock moves on, leaves it for canceled or unpaid. Every scenario records the
// transitions it saw (transition coverage). @see docs/lifecycle.md
import { cancelAtPeriodEndFindings, orderEventOrderFindings, periodFindings, renewalOrderFindings, renewalOrderIds } from '../../checks/stateful/lifecycle.js';
import { AdapterError, type ApiObject, type TargetEvent } from '../../core/adapter.js';
import { answerText, bodyOf, defineScenario, sharedObservation, statefulSuite, statusOf, succeeded, type ScenarioRun } from '../../engine/stateful/scenario.js';

const suite = await statefulSuite();

const DAY_MS = 86_400_000;
/** How long past the period end the clock is moved, in milliseconds: the subscriptions are started a few milliseconds apart. */
const MARGIN_MS = 5000;
/** How far the clock may be moved, day by day, for a failed charge's dunning to end, in days. */
const DUNNING_HORIZON_DAYS = 60;

/** The subscriptions the scenarios start and what the clock did to them, shared by the scenarios of this file. */
interface Observation {
  active: ApiObject;
  /** Its charges fail, then (when the adapter can say so) succeed again. */
  recovering: ApiObject;
  trial: ApiObject;
  canceling: ApiObject;
  failing: ApiObject;
  /** The events appended while the clock passed the period end. */
  events: TargetEvent[];
  steps: string[];
}

function idOf(subscription: ApiObject, what: string): string {
  if (typeof subscription.id !== 'string') throw new AdapterError('createClockSubscription', `adapter "${suite.adapter?.name}": createClockSubscription returned a ${what} subscription without an id`);
  return subscription.id;
}

async function observe(s: ScenarioRun): Promise<Observation> {
  const customerId = s.fixtures.customer_id!;
  const start = s.adapter('createClockSubscription');
  const before = await s.adapter('listEvents')({});
  const active = await start({ customerId });
  const trial = await start({ customerId, trialDays: 1 });
  const canceling = await start({ customerId, cancelAtPeriodEnd: true });
  const failing = await start({ customerId, failPayments: true });
  const recovering = await start({ customerId, failPayments: true });
  for (const [subscription, what] of [[active, 'active'], [trial, 'trial'], [canceling, 'canceling'], [failing, 'failing'], [recovering, 'recovering']] as const) idOf(subscription, what);
  const periodMs = Date.parse(String(active.current_period_end)) - Date.parse(String(active.current_period_start));
  if (!Number.isFinite(periodMs) || periodMs <= 0) throw new AdapterError('createClockSubscription', `adapter "${suite.adapter?.name}": the subscription it started has no period (${String(active.current_period_start)} to ${String(active.current_period_end)})`);
  await s.adapter('advanceClock')(Math.max(periodMs, DAY_MS) + MARGIN_MS);
  const after = await s.adapter('listEvents')({});
  const known = new Set(before.map((event) => event.id));
  return { active, recovering, trial, canceling, failing, events: after.filter((event) => event.id === undefined || !known.has(event.id)), steps: [...s.steps] };
}

/** The shared observation: made by whichever scenario runs first (engine/stateful/scenario.ts). */
const observed = sharedObservation(observe);

/** A subscription as the API shows it now (subscriptions:get), or a failure when it cannot be read. */
async function read(s: ScenarioRun, id: string): Promise<Record<string, unknown> | undefined> {
  const exchange = await s.send('subscriptions:get', { role: 'admin', pathParams: { id } });
  if (!succeeded(exchange)) {
    s.fail({ kind: 'subscription_unreadable', title: 'A subscription the clock drives cannot be read', message: `subscriptions:get answered ${answerText(exchange)} for subscription ${id}.`, expected: 200, actual: statusOf(exchange) }, exchange);
    return undefined;
  }
  return bodyOf(exchange);
}

defineScenario(suite, 'subscription_period_renews', async (s) => {
  const { active, trial } = await observed(s);
  const renewed = await read(s, String(active.id));
  if (renewed) {
    const findings = periodFindings(active, renewed);
    for (const finding of findings) s.fail(finding);
    if (findings.length === 0) s.transition('subscription', 'active', 'active');
  }
  const started = await read(s, String(trial.id));
  if (!started) return;
  if (trial.status === 'trialing' && started.status === 'active') s.transition('subscription', 'trialing', 'active');
  s.check(trial.status === 'trialing' && (started.status === 'active' || started.status === 'past_due'), {
    kind: 'trial_not_ended',
    title: 'A trial that ended did not make the subscription active',
    message: `Subscription ${String(trial.id)} was ${JSON.stringify(trial.status)} with trial_end ${String(trial.trial_end)}; after the clock passed it, it is ${JSON.stringify(started.status)}.`,
    expected: { before: 'trialing', after: 'active' },
    actual: { before: trial.status, after: started.status },
  });
});

defineScenario(suite, 'subscription_cancel_at_period_end', async (s) => {
  const { canceling, events } = await observed(s);
  const id = String(canceling.id);
  const exchange = await s.send('subscriptions:list', { role: 'admin', query: { customer_id: s.fixtures.customer_id!, status: 'canceled', limit: '100' } });
  const items = bodyOf(exchange)?.items;
  const found = Array.isArray(items) ? (items as Record<string, unknown>[]).find((item) => item.id === id) : undefined;
  const findings = cancelAtPeriodEndFindings(canceling, found ?? (await read(s, id)), renewalOrderIds(events, id).length);
  for (const finding of findings) s.fail(finding, exchange);
  if (findings.length === 0 && canceling.status === 'active') s.transition('subscription', 'active', 'canceled');
});

defineScenario(suite, 'renewal_order_events_ordered', async (s) => {
  const { active, events } = await observed(s);
  const orderId = renewalOrderIds(events, String(active.id))[0];
  if (orderId === undefined) return s.skip(`the target's log shows no renewal order of subscription ${String(active.id)} (subscription_renewal_order reports that): there is no order whose events could be ordered`, 'make the clock renew subscriptions with an order (docs/lifecycle.md)');
  for (const finding of orderEventOrderFindings(events, orderId)) s.fail(finding);
});

defineScenario(suite, 'subscription_renewal_order', async (s) => {
  const { active, failing, recovering, events } = await observed(s);
  const id = String(active.id);
  const [orderId] = renewalOrderIds(events, id);
  if (!s.check(orderId !== undefined, {
    kind: 'renewal_without_order',
    title: 'A renewal created no order',
    message: `The clock passed the period end ${String(active.current_period_end)} of subscription ${id}, and the target's log shows no order with billing_reason subscription_cycle for it.`,
    expected: 'order.created of an order with billing_reason subscription_cycle',
    actual: events.filter((event) => event.data.id === id || event.data.subscription_id === id).map((event) => event.type),
  })) return;
  const exchange = await s.send('orders:get', { role: 'admin', pathParams: { id: orderId! } });
  const order = bodyOf(exchange);
  if (!succeeded(exchange) || !order) {
    s.fail({ kind: 'renewal_order_unreadable', title: 'The order of a renewal cannot be read', message: `orders:get answered ${answerText(exchange)} for renewal order ${orderId}.`, expected: 200, actual: statusOf(exchange) }, exchange);
    return;
  }
  for (const finding of renewalOrderFindings(id, order)) s.fail(finding, exchange);
  if (order.status === 'paid') s.transition('order', 'pending', 'paid');

  // A failed charge: past_due at the period end, then, as the clock moves on, canceled or unpaid;
  // one whose payment method is fixed meanwhile (when the adapter can say so) recovers: active again.
  const recoveringId = String(recovering.id);
  const fix = suite.adapter?.setPaymentFailure;
  if (fix && (await read(s, recoveringId))?.status === 'past_due') await s.adapter('setPaymentFailure')(recoveringId, false);
  const failingId = String(failing.id);
  let state = await read(s, failingId);
  if (!state) return;
  if (s.check(state.status === 'past_due', {
    kind: 'failed_charge_not_past_due',
    title: 'A failed charge did not make the subscription past_due',
    message: `The charges of subscription ${failingId} fail; after its period end it is ${JSON.stringify(state.status)} with past_due_at ${String(state.past_due_at)}.`,
    expected: 'past_due',
    actual: state.status,
  })) s.transition('subscription', 'active', 'past_due');
  else return;
  for (let day = 0; day < DUNNING_HORIZON_DAYS && state?.status === 'past_due'; day++) {
    await s.adapter('advanceClock')(DAY_MS);
    state = await read(s, failingId);
  }
  if (!state) return;
  if (fix) {
    const recovered = await read(s, recoveringId);
    if (recovered && s.check(recovered.status === 'active', {
      kind: 'recovered_payment_not_active',
      title: 'A past_due subscription whose charges succeed again did not become active',
      message: `The charges of past_due subscription ${recoveringId} were made to succeed again; ${DUNNING_HORIZON_DAYS} days later at most it is ${JSON.stringify(recovered.status)}.`,
      expected: 'active',
      actual: recovered.status,
    })) s.transition('subscription', 'past_due', 'active');
  }
  s.check(state.status === 'canceled' || state.status === 'unpaid', {
    kind: 'dunning_never_ends',
    title: 'A subscription whose charges keep failing stays past_due',
    message: `Subscription ${failingId} is still ${JSON.stringify(state.status)} ${DUNNING_HORIZON_DAYS} days after its charge failed; once the retries are exhausted it is canceled or unpaid.`,
    expected: 'canceled or unpaid',
    actual: state.status,
  });
  if (state.status === 'canceled' || state.status === 'unpaid') s.transition('subscription', 'past_due', String(state.status));
});
