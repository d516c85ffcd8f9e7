import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWithLine } from '../webhooks/platform-verifiers.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../core/webhook-receiver.js';
import { DUNNING_RETRY_DAYS, placeSubscription, runLifecycle, type SubscriptionPlacement } from '../../../server/clock/lifecycle.js';
import { createCustomer, createOrganization, createPrice, createProduct } from '../../../server/control-records.js';
import type { MachineContext } from '../../../server/events.js';
import { resolveFaults } from '../../../server/faults.js';
import type { EventRecord, SubscriptionRecord } from '../../../server/records.js';
import { createStore } from '../../../server/store.js';
import { expectSchema, testServer, type TestServer } from '../support.js';

const DAY = 86_400_000;
/** The test clock starts on 31 January, so that monthly periods meet February. */
const START = '2027-01-31T09:00:00Z';

function value<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

async function fresh(): Promise<TestServer> {
  return testServer({ clock: () => new Date(START) });
}

/** The events about one subscription or its orders, oldest first, as `type` or `type:order-billing-reason`. */
function eventsOf(server: TestServer, subscriptionId: string): EventRecord[] {
  return server.control.events().filter((event) => event.data.id === subscriptionId || event.data.subscription_id === subscriptionId);
}

function kinds(events: EventRecord[]): string[] {
  return events.map((event) => event.type);
}

describe('test clock: the subscription lifecycle', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await fresh();
  });
  afterAll(async () => {
    await server.app.close();
  });

  it('renews an active subscription at each period end with a paid subscription_cycle order; calendar months clamp to the month end', async () => {
    server.control.reset();
    const subscription = value(server.control.createClockSubscription({ customer_id: server.fixtures.customer_id! }));
    expectSchema(server, 'Subscription', subscription);
    expect(subscription).toMatchObject({ status: 'active', current_period_start: expect.stringMatching(/^2027-01-31T09:00:00/), current_period_end: expect.stringMatching(/^2027-02-28T09:00:00/) });
    const id = subscription.id as string;
    const before = server.control.events().length;
    expect(value(server.control.advanceClock(28 * DAY)).now).toMatch(/^2027-02-28T09:00:00/);
    const renewed = server.store.subscriptions.get(id)!;
    expect(renewed).toMatchObject({ status: 'active', current_period_start: '2027-02-28T09:00:00.000000Z', current_period_end: '2027-03-31T09:00:00.000000Z' });
    const orders = [...server.store.orders.all()].filter((order) => order.subscription_id === id);
    expect(orders.map((order) => [order.billing_reason, order.status])).toEqual([['subscription_create', 'paid'], ['subscription_cycle', 'paid']]);
    const cycle = orders[1]!;
    expect(cycle.created_at).toBe('2027-02-28T09:00:00.000000Z');
    expect(cycle.items.length).toBeGreaterThan(0);
    expect(cycle.total_amount).toBe(cycle.net_amount + cycle.tax_amount);
    const renewal = server.control.events().slice(before);
    expect(kinds(renewal)).toEqual(['subscription.updated', 'subscription.cycled', 'order.created', 'order.updated', 'order.paid']);
    expect(renewal.every((event) => event.timestamp === '2027-02-28T09:00:00.000000Z')).toBe(true);
    expect(renewal[2]!.data).toMatchObject({ status: 'pending', billing_reason: 'subscription_cycle' });
    expect(renewal[4]!.data).toMatchObject({ status: 'paid', paid: true });
    const read = await server.get(`/v1/subscriptions/${id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ current_period_end: expect.stringMatching(/^2027-03-31T09:00:00/) });
    // The next month: 31 March again, counted from the anchor, not from 28 February.
    server.control.advanceClock(31 * DAY);
    expect(server.store.subscriptions.get(id)!.current_period_end).toBe('2027-04-30T09:00:00.000000Z');
  });

  it('ends a trial: active, with its first cycle order', () => {
    server.control.reset();
    const subscription = value(server.control.createClockSubscription({ customer_id: server.fixtures.customer_id!, trial_days: 14 }));
    expect(subscription).toMatchObject({ status: 'trialing', trial_end: expect.stringMatching(/^2027-02-14T09:00:00/) });
    const id = subscription.id as string;
    server.control.advanceClock(13 * DAY);
    expect(server.store.subscriptions.get(id)!.status).toBe('trialing');
    server.control.advanceClock(DAY);
    expect(server.store.subscriptions.get(id)).toMatchObject({ status: 'active', current_period_start: '2027-02-14T09:00:00.000000Z', current_period_end: '2027-03-14T09:00:00.000000Z' });
    expect(kinds(eventsOf(server, id))).toEqual(['subscription.created', 'subscription.updated', 'subscription.active', 'order.created', 'order.updated', 'order.paid']);
    expect([...server.store.orders.all()].filter((o) => o.subscription_id === id).map((o) => o.billing_reason)).toEqual(['subscription_cycle']);
  });

  it('cancels at period end: canceled, ended_at at the period end, no renewal, license keys of its benefits revoked', () => {
    server.control.reset();
    const subscription = value(server.control.createClockSubscription({ customer_id: server.fixtures.customer_id!, cancel_at_period_end: true }));
    const id = subscription.id as string;
    expect(subscription).toMatchObject({ cancel_at_period_end: true, ends_at: expect.stringMatching(/^2027-02-28T09:00:00/) });
    server.control.advanceClock(40 * DAY);
    expect(server.store.subscriptions.get(id)).toMatchObject({ status: 'canceled', ended_at: '2027-02-28T09:00:00.000000Z', ends_at: '2027-02-28T09:00:00.000000Z' });
    expect([...server.store.orders.all()].filter((o) => o.subscription_id === id).map((o) => o.billing_reason)).toEqual(['subscription_create']);
    expect(kinds(eventsOf(server, id)).slice(-2)).toEqual(['subscription.updated', 'subscription.revoked']);
  });

  it('a failed charge makes the subscription past_due, retried on the dunning schedule, then canceled', () => {
    server.control.reset();
    const subscription = value(server.control.createClockSubscription({ customer_id: server.fixtures.customer_id! }));
    const id = subscription.id as string;
    value(server.control.markPaymentsFail(id, true));
    server.control.advanceClock(28 * DAY);
    const due = server.store.subscriptions.get(id)!;
    expect(due).toMatchObject({ status: 'past_due', past_due_at: '2027-02-28T09:00:00.000000Z' });
    const unpaid = [...server.store.orders.all()].find((o) => o.subscription_id === id && o.billing_reason === 'subscription_cycle')!;
    expect(unpaid.status).toBe('pending');
    const total = DUNNING_RETRY_DAYS.reduce((sum, days) => sum + days, 0);
    server.control.advanceClock((total - 1) * DAY);
    expect(server.store.subscriptions.get(id)!.status).toBe('past_due');
    server.control.advanceClock(DAY);
    expect(server.store.subscriptions.get(id)).toMatchObject({ status: 'canceled', ended_at: '2027-03-14T09:00:00.000000Z' });
    expect(kinds(eventsOf(server, id)).filter((k) => k.startsWith('subscription.'))).toEqual(['subscription.created', 'subscription.active', 'subscription.updated', 'subscription.cycled', 'subscription.updated', 'subscription.past_due', 'subscription.updated', 'subscription.revoked']);
  });

  it('a payment that succeeds on retry pays the order and makes the subscription active again', () => {
    server.control.reset();
    const id = value(server.control.createClockSubscription({ customer_id: server.fixtures.customer_id!, fail_payments: true })).id as string;
    server.control.advanceClock(29 * DAY);
    expect(server.store.subscriptions.get(id)!.status).toBe('past_due');
    value(server.control.markPaymentsFail(id, false));
    server.control.advanceClock(DAY);
    expect(server.store.subscriptions.get(id)).toMatchObject({ status: 'active', past_due_at: null });
    expect([...server.store.orders.all()].filter((o) => o.subscription_id === id).map((o) => o.status)).toEqual(['paid', 'paid']);
  });

  it('follows recurring_interval_count: a product billed every 3 months or yearly', () => {
    server.control.reset();
    const yearly = [...server.store.products.all()].find((p) => p.organization_id === server.fixtures.organization_id && p.recurring_interval === 'year' && !p.is_archived && p.price_ids.length > 0);
    expect(yearly, 'the demo data has a yearly product').toBeDefined();
    const id = value(server.control.createClockSubscription({ customer_id: server.fixtures.customer_id!, product_id: yearly!.id })).id as string;
    expect(server.store.subscriptions.get(id)!.current_period_end).toBe(`${2027 + (yearly!.recurring_interval_count ?? 1)}-01-31T09:00:00.000000Z`);
  });

  it('advancing one year at once gives the same orders, periods, statuses and events as advancing day by day', async () => {
    const run = async (steps: number[]) => {
      const own = await fresh();
      try {
        const customer = own.fixtures.customer_id!;
        const ids = [
          value(own.control.createClockSubscription({ customer_id: customer })).id as string,
          value(own.control.createClockSubscription({ customer_id: customer, trial_days: 10 })).id as string,
          value(own.control.createClockSubscription({ customer_id: customer, cancel_at_period_end: true })).id as string,
          value(own.control.createClockSubscription({ customer_id: customer, fail_payments: true })).id as string,
        ];
        for (const ms of steps) value(own.control.advanceClock(ms));
        const index = new Map<string, string>();
        const name = (id: unknown) => (typeof id === 'string' ? (index.get(id) ?? (index.set(id, `#${index.size}`), index.get(id)!)) : id);
        ids.forEach(name);
        const subscriptions = ids.map((id) => {
          const s = own.store.subscriptions.get(id)!;
          return [s.status, s.current_period_start, s.current_period_end, s.ended_at, s.past_due_at];
        });
        const orders = [...own.store.orders.all()].filter((o) => ids.includes(o.subscription_id ?? '')).map((o) => [name(o.subscription_id), o.billing_reason, o.status, o.created_at, o.total_amount]);
        const events = own.control.events().map((e) => [e.type, e.timestamp, name(e.data.id), e.data.status]);
        return { subscriptions, orders, events };
      } finally {
        await own.app.close();
      }
    };
    const atOnce = await run([365 * DAY]);
    const dayByDay = await run(Array.from({ length: 365 }, () => DAY));
    expect(dayByDay).toEqual(atOnce);
    expect(atOnce.orders.filter((o) => o[1] === 'subscription_cycle').length).toBeGreaterThan(20);
  });

  it('refuses bad input clearly: unknown customer or subscription, a subscription not on the clock, bad numbers', async () => {
    server.control.reset();
    const code = (result: { ok: boolean; error?: { code: string } }) => (result.ok ? 'ok' : result.error!.code);
    expect(code(server.control.createClockSubscription({ customer_id: '00000000-0000-4000-8000-000000000000' }))).toBe('NOT_FOUND');
    expect(code(server.control.createClockSubscription({ customer_id: server.fixtures.customer_id!, trial_days: -1 }))).toBe('INVALID');
    expect(code(server.control.createClockSubscription({ customer_id: server.fixtures.customer_id!, product_id: server.fixtures.other_product_id! }))).not.toBe('ok');
    expect(code(server.control.markPaymentsFail('00000000-0000-4000-8000-000000000000', true))).toBe('NOT_FOUND');
    expect(code(server.control.markPaymentsFail(server.fixtures.subscription_id!, true))).toBe('INVALID');
    const post = (url: string, json: unknown) => server.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(json) });
    expect((await post('/__control/test-clock/subscriptions', {})).statusCode).toBe(400);
    expect((await post('/__control/test-clock/subscriptions', { customer_id: server.fixtures.customer_id, trial_days: 'x' })).statusCode).toBe(400);
    expect((await post('/__control/subscriptions/00000000-0000-4000-8000-000000000000/payment-failures', { fail: true })).statusCode).toBe(404);
    expect((await post(`/__control/subscriptions/${server.fixtures.subscription_id}/payment-failures`, {})).statusCode).toBe(400);
    const made = await post('/__control/test-clock/subscriptions', { customer_id: server.fixtures.customer_id });
    expect(made.statusCode).toBe(201);
    expect((await post(`/__control/subscriptions/${made.json().id}/payment-failures`, { fail: true })).statusCode).toBe(200);
    expect((await post('/__control/clock/advance', { ms: -1 })).statusCode).toBe(422);
  });
});

describe('test clock: signed webhook deliveries of a renewal', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    server = await fresh();
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await server.app.close();
    await receiver.close();
  });

  it('delivers the renewal events to the endpoints subscribed to them, in order, signed with the wall clock while the body carries the test clock', async () => {
    const endpoint = value(server.control.createWebhookEndpoint({ url: receiver.urlFor('renewals'), events: ['order.created', 'order.paid', 'subscription.cycled'] }));
    const other = value(server.control.createWebhookEndpoint({ url: receiver.urlFor('refunds'), events: ['order.refunded'] }));
    expect(other.id).toBeDefined();
    const id = value(server.control.createClockSubscription({ customer_id: server.fixtures.customer_id! })).id as string;
    await server.control.settleDeliveries(5000);
    const first = receiver.receivedBy('renewals').length;
    server.control.advanceClock(28 * DAY);
    await server.control.settleDeliveries(5000);
    const deliveries = receiver.receivedBy('renewals').slice(first);
    const bodies = deliveries.map((d) => JSON.parse(d.body) as { type: string; data: { id: string; subscription_id?: string; billing_reason?: string } });
    expect(bodies.map((b) => b.type)).toEqual(['subscription.cycled', 'order.created', 'order.paid']);
    expect(bodies[0]!.data.id).toBe(id);
    expect(bodies[1]!.data).toMatchObject({ subscription_id: id, billing_reason: 'subscription_cycle' });
    for (const [i, delivery] of deliveries.entries()) {
      // The body's timestamp is the test clock's instant (28 days after the start); the signature's is the wall clock's second of the send.
      expect(Math.abs(Date.parse((JSON.parse(delivery.body) as { timestamp: string }).timestamp) - Date.parse(START) - 28 * DAY)).toBeLessThan(300_000);
      expect(Math.abs(Number(delivery.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(await verifyWithLine('1.0.1', delivery.body, delivery.headers, endpoint.secret as string), `delivery ${i}`).toEqual({ accepted: true, parsed: true });
    }
    expect(receiver.receivedBy('refunds')).toEqual([]);
  });
});

describe('test clock: signed deliveries of every lifecycle event', () => {
  it('trial end, cancellation at period end, failed charge and end of dunning each reach the endpoint subscribed to them, signed, in order', async () => {
    const server = await fresh();
    const receiver = await startWebhookReceiver();
    try {
      const kinds = ['subscription.active', 'subscription.cycled', 'subscription.past_due', 'subscription.revoked', 'order.created', 'order.paid'];
      const endpoint = value(server.control.createWebhookEndpoint({ url: receiver.urlFor('lifecycle'), events: kinds }));
      const customer = server.fixtures.customer_id!;
      const trial = value(server.control.createClockSubscription({ customer_id: customer, trial_days: 3 })).id as string;
      const canceling = value(server.control.createClockSubscription({ customer_id: customer, cancel_at_period_end: true })).id as string;
      const failing = value(server.control.createClockSubscription({ customer_id: customer, fail_payments: true })).id as string;
      await server.control.settleDeliveries(5000);
      const first = receiver.receivedBy('lifecycle').length;
      server.control.advanceClock(45 * DAY);
      await server.control.settleDeliveries(10_000);
      const deliveries = receiver.receivedBy('lifecycle').slice(first);
      const of = (id: string) => deliveries.map((d) => JSON.parse(d.body) as { type: string; data: { id: string; subscription_id?: string } }).filter((b) => b.data.id === id || b.data.subscription_id === id).map((b) => b.type);
      expect(of(trial)).toEqual(['subscription.active', 'order.created', 'order.paid', 'subscription.cycled', 'order.created', 'order.paid']);
      expect(of(canceling)).toEqual(['subscription.revoked']);
      expect(of(failing)).toEqual(['subscription.cycled', 'order.created', 'subscription.past_due', 'subscription.revoked']);
      // The platform's own verifier (validateEvent of @polar-sh/sdk 1.0.1) accepts each one with the wall clock, 45 days behind the test clock.
      for (const delivery of deliveries) {
        expect(await verifyWithLine('1.0.1', delivery.body, delivery.headers, endpoint.secret as string)).toEqual({ accepted: true, parsed: true });
        expect(kinds).toContain((JSON.parse(delivery.body) as { type: string }).type);
      }
    } finally {
      await receiver.close();
      await server.app.close();
    }
  });
});

describe('test clock: --state keeps what the clock did', () => {
  it('a renewal, its order and the clock survive a restart', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { startReferenceServer } = await import('../../../server/index.js');
    const dir = await mkdtemp(join(tmpdir(), 'lifecycle-state-'));
    const stateFile = join(dir, 'store.jsonl');
    const clock = () => new Date(START);
    try {
      const first = await startReferenceServer({ stateFile, clock, rateLimit: false });
      let id: string;
      let seen: unknown;
      try {
        id = value(first.control.createClockSubscription({ customer_id: first.fixtures.customer_id! })).id as string;
        first.control.advanceClock(28 * DAY);
        seen = first.control.events().filter((e) => e.data.id === id || e.data.subscription_id === id).map((e) => [e.type, e.timestamp]);
      } finally {
        await first.close();
      }
      const second = await startReferenceServer({ stateFile, clock, rateLimit: false });
      try {
        const read = await fetch(`${second.url}/v1/subscriptions/${id}`, { headers: { authorization: `Bearer ${second.credentials.admin}` } });
        expect(await read.json()).toMatchObject({ status: 'active', current_period_end: expect.stringMatching(/^2027-03-31T09:00:00/) });
        expect(second.control.events().filter((e) => e.data.id === id || e.data.subscription_id === id).map((e) => [e.type, e.timestamp])).toEqual(seen);
        // The clock kept its advance: the next period end is a month away, not already due.
        second.control.advanceClock(DAY);
        expect(second.control.events('subscription.cycled').filter((e) => e.data.id === id)).toHaveLength(1);
        second.control.advanceClock(31 * DAY);
        expect(second.control.events('subscription.cycled').filter((e) => e.data.id === id)).toHaveLength(2);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('test clock: an advance too long for its subscriptions', () => {
  it('is refused with a 422 before anything changes; smaller steps go through', async () => {
    const server = await fresh();
    try {
      const daily = [...server.store.products.all()].find((p) => p.organization_id === server.fixtures.organization_id && p.recurring_interval === 'day' && (p.recurring_interval_count ?? 1) === 1 && !p.is_archived && p.price_ids.length > 0);
      expect(daily, 'the demo data has a daily product').toBeDefined();
      const id = value(server.control.createClockSubscription({ customer_id: server.fixtures.customer_id!, product_id: daily!.id })).id as string;
      const events = server.control.events().length;
      const answer = await server.app.inject({ method: 'POST', url: '/__control/clock/advance', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ ms: 100 * 365 * DAY }) });
      expect(answer.statusCode).toBe(422);
      expect(answer.json().detail[0]).toMatchObject({ loc: ['body', 'ms'], msg: expect.stringMatching(/smaller steps/) });
      expect(server.control.events()).toHaveLength(events);
      expect(server.store.subscriptions.get(id)!.current_period_end).toBe('2027-02-01T09:00:00.000000Z');
      expect(value(server.control.advanceClock(10 * DAY)).now).toMatch(/^2027-02-10T09:00:00/);
      expect(server.store.subscriptions.get(id)!.current_period_end).toBe('2027-02-11T09:00:00.000000Z');
    } finally {
      await server.app.close();
    }
  });
});

describe('placeSubscription: a subscription as it stands, driven by the clock from then on', () => {
  const NOW = '2027-03-15T12:00:00Z';
  function placed() {
    const store = createStore({ clock: () => new Date(NOW) });
    const ctx: MachineContext = { store, apiVersion: '2026-10', faults: resolveFaults([]) };
    const org = value(createOrganization(store, { name: 'Acme' }));
    const monthly = value(createProduct(ctx, org.id, { name: 'Pro', recurring_interval: 'month', trial_interval: 'day', trial_interval_count: 14 }));
    value(createPrice(store, org.id, monthly.id, { amount_type: 'fixed', price_amount: 1900 }));
    const team = value(createProduct(ctx, org.id, { name: 'Team', recurring_interval: 'year' }));
    value(createPrice(store, org.id, team.id, { amount_type: 'seat_based' }));
    const once = value(createProduct(ctx, org.id, { name: 'Lifetime' }));
    value(createPrice(store, org.id, once.id, { amount_type: 'fixed', price_amount: 9900 }));
    const customer = value(createCustomer(ctx, org.id, { email: 'ada@example.com' }));
    return { ctx, store, monthly, team, once, customer };
  }

  it.each<[string, (p: ReturnType<typeof placed>) => SubscriptionPlacement, Partial<SubscriptionRecord>]>([
    ['periods counted from started_at: the one holding now', (p) => ({ customer_id: p.customer.id, product_id: p.monthly.id, started_at: '2027-01-31T09:00:00Z' }), { status: 'active', current_period_start: '2027-02-28T09:00:00.000000Z', current_period_end: '2027-03-31T09:00:00.000000Z', test_clock: { anchor: '2027-01-31T09:00:00.000000Z', cycle: 1, fail_payments: false, dunning: null } }],
    ['only the period end given: renewals on its anniversaries', (p) => ({ customer_id: p.customer.id, product_id: p.monthly.id, current_period_end: '2027-03-18T00:00:00Z' }), { current_period_start: '2027-02-18T00:00:00.000000Z', current_period_end: '2027-03-18T00:00:00.000000Z', test_clock: { anchor: '2027-03-18T00:00:00.000000Z', cycle: -1, fail_payments: false, dunning: null } }],
    ['a trial counted from the product\'s trial', (p) => ({ customer_id: p.customer.id, product_id: p.monthly.id, status: 'trialing', started_at: '2027-03-10T00:00:00Z' }), { status: 'trialing', trial_start: '2027-03-10T00:00:00.000000Z', trial_end: '2027-03-24T00:00:00.000000Z', current_period_end: '2027-03-24T00:00:00.000000Z' }],
    ['a canceled one: ended, not on the clock', (p) => ({ customer_id: p.customer.id, product_id: p.monthly.id, status: 'canceled', started_at: '2026-11-01T00:00:00Z', ended_at: '2027-01-10T00:00:00Z' }), { status: 'canceled', ended_at: '2027-01-10T00:00:00.000000Z', canceled_at: '2027-01-10T00:00:00.000000Z', current_period_start: '2027-01-01T00:00:00.000000Z' }],
    ['seats default to 1 on a seat-based product', (p) => ({ customer_id: p.customer.id, product_id: p.team.id }), { seats: 1, amount: 1500, recurring_interval: 'year' }],
  ])('%s', (_name, input, want) => {
    const p = placed();
    const subscription = value(placeSubscription(p.ctx, input(p)));
    expect(subscription).toMatchObject(want);
    // Only a live subscription is driven by the clock.
    expect(subscription.test_clock === undefined).toBe(subscription.status === 'canceled');
  });

  it.each<[string, (p: ReturnType<typeof placed>) => SubscriptionPlacement, string]>([
    ['a one-time product', (p) => ({ customer_id: p.customer.id, product_id: p.once.id }), 'product_id'],
    ['seats on a product without a seat price', (p) => ({ customer_id: p.customer.id, product_id: p.monthly.id, seats: 3 }), 'seats'],
    ['a start after now', (p) => ({ customer_id: p.customer.id, product_id: p.monthly.id, started_at: '2027-04-01T00:00:00Z' }), 'started_at'],
    ['a period that is not one billing period long', (p) => ({ customer_id: p.customer.id, product_id: p.monthly.id, current_period_start: '2027-03-01T00:00:00Z', current_period_end: '2027-03-30T00:00:00Z' }), 'current_period_end'],
    ['an active period that has ended', (p) => ({ customer_id: p.customer.id, product_id: p.monthly.id, current_period_end: '2027-03-01T00:00:00Z' }), 'current_period_end'],
    ['a trial that has ended', (p) => ({ customer_id: p.customer.id, product_id: p.monthly.id, status: 'trialing', trial_end: '2027-03-01T00:00:00Z' }), 'trial_end'],
  ])('refuses %s, naming the field', (_name, input, field) => {
    const p = placed();
    const result = placeSubscription(p.ctx, input(p));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ code: 'INVALID', field });
  });

  it('a placed subscription renews on the clock: the period end given is the renewal instant', () => {
    const p = placed();
    const subscription = value(placeSubscription(p.ctx, { customer_id: p.customer.id, product_id: p.monthly.id, current_period_end: '2027-03-18T00:00:00Z' }));
    expect(runLifecycle(p.ctx, Date.parse('2027-04-18T00:00:00Z'))).toBe(2);
    expect(subscription).toMatchObject({ status: 'active', current_period_start: '2027-04-18T00:00:00.000000Z', current_period_end: '2027-05-18T00:00:00.000000Z' });
    expect([...p.store.orders.all()].map((order) => [order.billing_reason, order.created_at])).toEqual([
      ['subscription_cycle', '2027-03-18T00:00:00.000000Z'],
      ['subscription_cycle', '2027-04-18T00:00:00.000000Z'],
    ]);
  });
});
