/**
 * The test clock's subscription lifecycle: advancing the reference's clock applies, in time order,
 * everything that falls due in the interval for the subscriptions the clock drives (those created
 * with `test_clock`, see {@link startClockSubscription}): a trial's end (active, then the first
 * cycle's order), a period's end (a renewal with its order, or the end of a subscription canceled
 * at period end), a failed charge (past_due) and the dunning retries that follow (paid: active
 * again; exhausted: canceled). Each step runs with the store's clock held at the instant it fell
 * due, so that one advance of a year and 365 advances of a day give the same store and events.
 * Every record changes through `Collection.insert`/`update` (journaled with `--state`).
 * @see docs/lifecycle.md (the rules and the fields each sets)
 * @see the platform's public OpenAPI document, version 2026-10: schemas Subscription, Order
 *   (`billing_reason` subscription_cycle, `next_payment_attempt_at`), WebhookEventType
 */
import { emitEvent, type MachineContext } from '../events.js';
import type { Interval, Metadata, OrderRecord, SubscriptionClockRecord, SubscriptionRecord } from '../records.js';
import { fail, ok, type Result } from '../result.js';
import { fireLicenseKeyTransition, LICENSE_KEY_TRANSITIONS } from '../resources/license-keys/machine.js';
import { draftOrder, nextInvoiceNumber, SEAT_PRICE_CENTS, chargedPrices } from '../resources/orders/create.js';
import { createOrder, fireOrderTransition } from '../resources/orders/machine.js';
import { orderEventData } from '../resources/orders/serializer.js';
import { sortAmount } from '../resources/products/list.js';
import { fireClockTransition } from '../resources/subscriptions/machine.js';
import { serializeSubscription } from '../resources/subscriptions/serializer.js';
import { atInstant, newId, nowMicros, nowTimestamp, type Store } from '../store.js';
import { formatTimestamp, parseTimestamp } from '../timestamps.js';
import { addIntervals, subtractIntervals } from './calendar.js';

/** Days between a failed charge and each retry of it: after the last retry fails, the subscription is canceled. @see docs/lifecycle.md (Failed payments) */
export const DUNNING_RETRY_DAYS: readonly number[] = [2, 5, 7];

/** Tax rate of the orders the clock creates, in basis points (20 %, as the control API's orders). */
export const CYCLE_ORDER_TAX_BASIS_POINTS = 2000;

const MS_PER_DAY = 86_400_000;

/** What falls due for one subscription, and when (epoch milliseconds). */
interface Due {
  at: number;
  kind: 'trial_end' | 'period_end' | 'payment_retry';
  subscription: SubscriptionRecord;
}

function ms(timestamp: string): number {
  return Math.floor((parseTimestamp(timestamp) ?? 0) / 1000);
}

function stamp(epochMs: number): string {
  return formatTimestamp(epochMs * 1000);
}

/** The end of billing period `cycle` (0: the first) of a subscription the clock drives. */
function periodEnd(subscription: SubscriptionRecord, clock: SubscriptionClockRecord, cycle: number): number {
  const count = Math.max(1, subscription.recurring_interval_count);
  return addIntervals(ms(clock.anchor), subscription.recurring_interval, (cycle + 1) * count);
}

/** The next thing due for a subscription, or undefined (not on the clock, or nothing left to do). */
function dueOf(subscription: SubscriptionRecord): Due | undefined {
  const clock = subscription.test_clock;
  if (!clock) return undefined;
  if (subscription.status === 'trialing' && subscription.trial_end !== null) return { at: ms(subscription.trial_end), kind: 'trial_end', subscription };
  if (subscription.status === 'past_due' && clock.dunning) return { at: ms(clock.dunning.next_attempt_at), kind: 'payment_retry', subscription };
  if (subscription.status === 'active') return { at: periodEnd(subscription, clock, clock.cycle), kind: 'period_end', subscription };
  return undefined;
}

/** The earliest thing due at or before `untilMs` over every subscription the clock drives (ties: the older subscription id first). */
function nextDue(store: Store, untilMs: number): Due | undefined {
  let next: Due | undefined;
  for (const subscription of store.subscriptions.all()) {
    const due = dueOf(subscription);
    if (!due || due.at > untilMs) continue;
    if (!next || due.at < next.at || (due.at === next.at && subscription.id < next.subscription.id)) next = due;
  }
  return next;
}

/** Most steps (renewals, trial ends, retries) one advance may apply: about ten seconds of work; a longer advance is refused before anything changes. */
export const MAX_LIFECYCLE_STEPS = 20_000;

/**
 * How many steps an advance to `untilMs` would apply at most (an upper bound: a cancellation at
 * period end counts its periods as renewals), counting no further than `cap`.
 * @param untilMs epoch milliseconds
 * @returns the bound, or `cap + 1` once it exceeds `cap`
 */
export function lifecycleStepsUntil(store: Store, untilMs: number, cap = MAX_LIFECYCLE_STEPS): number {
  let steps = 0;
  for (const subscription of store.subscriptions.all()) {
    const clock = subscription.test_clock;
    if (!clock || !['trialing', 'active', 'past_due'].includes(subscription.status)) continue;
    if (subscription.status === 'trialing') {
      if (subscription.trial_end === null || ms(subscription.trial_end) > untilMs) continue;
      steps += 1 + DUNNING_RETRY_DAYS.length;
    }
    if (subscription.status === 'past_due') steps += DUNNING_RETRY_DAYS.length + 1;
    // Periods from the anchor (a trial's end starts a new anchor: counted from it, the bound only grows).
    const anchor = subscription.status === 'trialing' ? ms(subscription.trial_end!) : ms(clock.anchor);
    const count = Math.max(1, subscription.recurring_interval_count);
    for (let cycle = subscription.status === 'trialing' ? 0 : clock.cycle; addIntervals(anchor, subscription.recurring_interval, (cycle + 1) * count) <= untilMs; cycle++) {
      steps += 1;
      if (steps > cap) return cap + 1;
    }
    if (steps > cap) return cap + 1;
  }
  return steps;
}

/**
 * Applies everything due up to `untilMs`, in time order, each step at the instant it fell due.
 * @param untilMs epoch milliseconds: the clock's new time
 * @returns how many steps were applied
 */
export function runLifecycle(ctx: MachineContext, untilMs: number): number {
  let steps = 0;
  for (let due = nextDue(ctx.store, untilMs); due; due = nextDue(ctx.store, untilMs)) {
    const current = due;
    atInstant(ctx.store, current.at, () => apply(ctx, current));
    steps++;
  }
  return steps;
}

function apply(ctx: MachineContext, due: Due): void {
  const { subscription } = due;
  const clock = subscription.test_clock!;
  if (due.kind === 'trial_end') {
    if (subscription.cancel_at_period_end && !ctx.faults.has('cancel_at_period_end_ignored')) return end(ctx, subscription, 'end_at_period_end', {});
    const anchor = nowTimestamp(ctx.store);
    const next = { ...clock, anchor, cycle: 0 };
    const periodEndMs = addIntervals(ms(anchor), subscription.recurring_interval, Math.max(1, subscription.recurring_interval_count));
    fireClockTransition(ctx, subscription, 'trial_end', { test_clock: next, current_period_start: anchor, current_period_end: stamp(periodEndMs), ...meterPeriod(subscription, anchor, stamp(periodEndMs)) });
    charge(ctx, subscription);
    return;
  }
  if (due.kind === 'period_end') {
    if (subscription.cancel_at_period_end && !ctx.faults.has('cancel_at_period_end_ignored')) return end(ctx, subscription, 'end_at_period_end', {});
    renew(ctx, subscription);
    return;
  }
  retryPayment(ctx, subscription);
}

/** The meter period fields, moved with the billing period when the subscription has meters. */
function meterPeriod(subscription: SubscriptionRecord, start: string, endStamp: string): Partial<SubscriptionRecord> {
  return subscription.current_meter_period_start === null ? {} : { current_meter_period_start: start, current_meter_period_end: endStamp };
}

/** A renewal: the next period (counted from the anchor), then its charge. */
function renew(ctx: MachineContext, subscription: SubscriptionRecord): void {
  const clock = subscription.test_clock!;
  const cycle = clock.cycle + 1;
  const start = stamp(periodEnd(subscription, clock, clock.cycle));
  const endStamp = stamp(periodEnd(subscription, clock, cycle));
  const periods = ctx.faults.has('renewal_period_unchanged') ? {} : { current_period_start: start, current_period_end: endStamp, ...meterPeriod(subscription, start, endStamp) };
  fireClockTransition(ctx, subscription, 'renew', { test_clock: { ...clock, cycle }, ...periods });
  if (!ctx.faults.has('renewal_without_order')) charge(ctx, subscription);
}

/** The order of a period's charge: billing_reason subscription_cycle, one item per price, pending. */
function cycleOrder(store: Store, subscription: SubscriptionRecord): OrderRecord {
  const product = store.products.get(subscription.product_id)!;
  const customer = store.customers.get(subscription.customer_id);
  const discount = subscription.discount_id === null ? null : (store.discounts.get(subscription.discount_id) ?? null);
  return draftOrder(store, {
    id: newId(store),
    itemIds: product.price_ids.map(() => newId(store)),
    product,
    customerId: subscription.customer_id,
    subscriptionId: subscription.id,
    discount,
    checkoutId: null,
    billingReason: 'subscription_cycle',
    seats: subscription.seats,
    taxBasisPoints: CYCLE_ORDER_TAX_BASIS_POINTS,
    createdAt: nowTimestamp(store),
    billingName: customer?.billing_name ?? customer?.name ?? null,
    billingAddress: customer?.billing_address ?? null,
    invoiceNumber: nextInvoiceNumber(store, subscription.organization_id),
  });
}

/**
 * Charges the current period: a new pending order (order.created), then paid (order.updated,
 * order.paid) or, when the subscription's payments are marked to fail, left pending while the
 * subscription becomes past_due with its first retry scheduled.
 */
function charge(ctx: MachineContext, subscription: SubscriptionRecord): void {
  const { store } = ctx;
  const order = cycleOrder(store, subscription);
  if (ctx.faults.has('order_paid_before_created') && !subscription.test_clock!.fail_payments) {
    // The fault: the order is paid and announced as such before its creation is.
    store.orders.insert(order);
    store.orders.update(order, { status: 'paid', modified_at: nowTimestamp(store) });
    const data = orderEventData(ctx, order);
    for (const type of ['order.paid', 'order.created', 'order.updated']) emitEvent(store, type, data);
    return;
  }
  createOrder(ctx, order);
  if (!subscription.test_clock!.fail_payments) {
    fireOrderTransition(ctx, order, 'complete');
    return;
  }
  const now = nowMicros(store) / 1000;
  fireClockTransition(ctx, subscription, 'payment_failed', {
    past_due_at: nowTimestamp(store),
    test_clock: { ...subscription.test_clock!, dunning: { order_id: order.id, attempts: 1, next_attempt_at: stamp(now + DUNNING_RETRY_DAYS[0]! * MS_PER_DAY) } },
  });
}

/** A retry of a failed charge: paid (active again, and a period end that passed meanwhile renews now), failed again (next retry), or the last one failed (canceled). */
function retryPayment(ctx: MachineContext, subscription: SubscriptionRecord): void {
  const { store } = ctx;
  const clock = subscription.test_clock!;
  const dunning = clock.dunning!;
  if (!clock.fail_payments) {
    const order = store.orders.get(dunning.order_id);
    if (order && order.status === 'pending') fireOrderTransition(ctx, order, 'complete');
    fireClockTransition(ctx, subscription, 'payment_recovered', { past_due_at: null, test_clock: { ...clock, dunning: null } });
    const now = nowMicros(store) / 1000;
    while (subscription.status === 'active' && periodEnd(subscription, subscription.test_clock!, subscription.test_clock!.cycle) <= now) {
      if (subscription.cancel_at_period_end) return end(ctx, subscription, 'end_at_period_end', {});
      renew(ctx, subscription);
    }
    return;
  }
  const attempts = dunning.attempts + 1;
  if (attempts > DUNNING_RETRY_DAYS.length) return end(ctx, subscription, 'dunning_exhausted', { test_clock: { ...clock, dunning: null } });
  const now = nowMicros(store) / 1000;
  store.subscriptions.update(subscription, { test_clock: { ...clock, dunning: { ...dunning, attempts, next_attempt_at: stamp(now + DUNNING_RETRY_DAYS[attempts - 1]! * MS_PER_DAY) } } });
}

/**
 * Ends a subscription (status canceled, ends_at and ended_at now, canceled_at kept when set) and
 * revokes the license keys its product's benefits granted its customer, unless another live
 * subscription of the customer still grants the benefit.
 */
function end(ctx: MachineContext, subscription: SubscriptionRecord, name: 'end_at_period_end' | 'dunning_exhausted', patch: Partial<SubscriptionRecord>): void {
  const at = nowTimestamp(ctx.store);
  fireClockTransition(ctx, subscription, name, { ...patch, canceled_at: subscription.canceled_at ?? at, ends_at: at, ended_at: at });
  revokeBenefits(ctx, subscription);
}

const LIVE = new Set(['trialing', 'active', 'past_due']);

function revokeBenefits(ctx: MachineContext, subscription: SubscriptionRecord): void {
  const { store } = ctx;
  const product = store.products.get(subscription.product_id);
  if (!product) return;
  const stillGranted = new Set(
    store.subscriptions
      .lookup('customer_id', subscription.customer_id)
      .filter((other) => other.id !== subscription.id && LIVE.has(other.status))
      .flatMap((other) => store.products.get(other.product_id)?.benefit_ids ?? []),
  );
  for (const key of store.licenseKeys.lookup('customer_id', subscription.customer_id)) {
    if (!product.benefit_ids.includes(key.benefit_id) || stillGranted.has(key.benefit_id)) continue;
    if ((LICENSE_KEY_TRANSITIONS.revoke.from as readonly string[]).includes(key.status)) fireLicenseKeyTransition(ctx, key, 'revoke');
  }
}

/** What {@link startClockSubscription} creates; every field but the customer has a default. */
export interface ClockSubscriptionInput {
  /** A live customer. */
  customer_id: string;
  /** A recurring product of the customer's organization that is not archived; default the first that charges something. */
  product_id?: string;
  /** Days of trial (status trialing until then); default 0: active at once. */
  trial_days?: number;
  /** The subscription is canceled at its current period's end (the trial's, during a trial). */
  cancel_at_period_end?: boolean;
  /** Charges fail (past_due, then dunning); the control API can change it later. */
  fail_payments?: boolean;
  /** Seats, for a product with a seat-based price; default 1 there. */
  seats?: number;
}

/** Why the control API refused: NOT_FOUND or INVALID (docs/server-behaviour.md, Control API); `field` names the input field at fault when one is. */
export interface ClockRefusal {
  code: 'NOT_FOUND' | 'INVALID';
  message: string;
  field?: string;
}

/** Longest trial the control API starts, in days (as the platform's trial intervals allow: 1000 days). */
export const MAX_TRIAL_DAYS = 1000;

/** Most seats a subscription may have. */
export const MAX_SEATS = 1000;

function chargesSomething(store: Store, productId: string): boolean {
  const product = store.products.get(productId)!;
  return chargedPrices(store, product).some((price) => (price.amount_type === 'seat_based' ? SEAT_PRICE_CENTS : (sortAmount(price) ?? 0)) > 0);
}

/**
 * Starts a subscription the test clock drives, now: trialing for `trial_days` (no order yet), or
 * active with its first period's order (billing_reason subscription_create, paid). Emits
 * subscription.created (and subscription.active for an active one), then the order's events.
 * @returns the subscription; NOT_FOUND (customer, product) or INVALID (a one-time or archived product, bad numbers)
 * @see docs/lifecycle.md (Starting a subscription on the clock)
 */
export function startClockSubscription(ctx: MachineContext, input: ClockSubscriptionInput): Result<SubscriptionRecord, ClockRefusal> {
  const { store } = ctx;
  const customer = typeof input.customer_id === 'string' ? store.customers.get(input.customer_id.toLowerCase()) : undefined;
  if (!customer || customer.deleted_at !== null) return fail({ code: 'NOT_FOUND', message: `Customer ${input.customer_id} not found.` });
  const trialDays = input.trial_days ?? 0;
  if (!Number.isInteger(trialDays) || trialDays < 0 || trialDays > MAX_TRIAL_DAYS) return fail({ code: 'INVALID', message: `trial_days must be an integer from 0 to ${MAX_TRIAL_DAYS}.` });
  const now = nowTimestamp(store);
  const trialEnd = trialDays > 0 ? stamp(ms(now) + trialDays * MS_PER_DAY) : undefined;
  const placed = placeSubscription(ctx, {
    customer_id: customer.id,
    ...(input.product_id !== undefined ? { product_id: input.product_id } : {}),
    status: trialEnd ? 'trialing' : 'active',
    started_at: now,
    ...(trialEnd ? { trial_end: trialEnd } : {}),
    cancel_at_period_end: input.cancel_at_period_end === true,
    fail_payments: input.fail_payments === true,
    ...(input.seats !== undefined ? { seats: input.seats } : {}),
  });
  if (!placed.ok) return placed;
  const subscription = placed.value;
  const data = serializeSubscription(ctx, subscription);
  emitEvent(store, 'subscription.created', data);
  if (!trialEnd) {
    emitEvent(store, 'subscription.active', data);
    const order = { ...cycleOrder(store, subscription), billing_reason: 'subscription_create' };
    createOrder(ctx, order);
    fireOrderTransition(ctx, order, 'complete');
  }
  return ok(subscription);
}

/** Statuses a subscription can be placed in by {@link placeSubscription}: those whose fields follow from its timeline. */
export const PLACEABLE_STATUSES = ['active', 'trialing', 'canceled'] as const;

/**
 * A subscription to place in the store as it stands: what it is (customer, product, seats) and
 * its timeline. Timestamps are RFC 3339 date-times, none of them after the store's now except the
 * ends of the current period and of a trial.
 */
export interface SubscriptionPlacement {
  /** A UUID; default a new id. */
  id?: string;
  /** A live customer. */
  customer_id: string;
  /** A recurring product of the customer's organization with prices (not archived, unless the subscription is canceled); default the first that charges something. */
  product_id?: string;
  /** Default active. */
  status?: (typeof PLACEABLE_STATUSES)[number];
  /** When it began; default now (trialing: the trial's start). */
  started_at?: string;
  /**
   * The current period (active) or the last one (canceled). Both given: exactly one billing
   * period apart. Only the end: the start is one period before it, and renewals fall on the
   * anniversaries of that end. Neither: periods are counted from `started_at`, the current one
   * holding now (canceled: `ended_at`).
   */
  current_period_start?: string;
  current_period_end?: string;
  /** trialing: when the trial ends, after now; default the product's trial (`trial_interval`s from `started_at`). */
  trial_end?: string;
  /** active, trialing: it ends at the current period's end (the trial's end). */
  cancel_at_period_end?: boolean;
  /** canceled: when it ended, at or before now; default now. Its `canceled_at` is the same instant. */
  ended_at?: string;
  /** Charges fail from now on (past_due at the next renewal, then dunning). */
  fail_payments?: boolean;
  /** Seats, for a product with a seat_based price (default 1 there, 1 to {@link MAX_SEATS}); refused for another product. */
  seats?: number;
  metadata?: Metadata;
}

/**
 * Places a subscription in the store as it stands at the store's now, without events or orders:
 * active or trialing ones are driven by the test clock from then on (renewals, trial end,
 * cancellation at period end), canceled ones stay as placed. {@link startClockSubscription} places
 * the subscriptions it starts with it; a data file's subscriptions are placed with it too.
 * @returns the subscription; NOT_FOUND (customer, product) or INVALID (a one-time, archived or
 *   price-less product, a product of another organization, seats, a timeline that does not hold:
 *   a start after now, a period that is not one billing period long or has already ended, a trial
 *   end in the past), each naming the input field at fault
 * @see docs/lifecycle.md (Periods); docs/data-file.md (Subscriptions)
 */
export function placeSubscription(ctx: MachineContext, input: SubscriptionPlacement): Result<SubscriptionRecord, ClockRefusal> {
  const { store } = ctx;
  const invalid = (field: string, message: string) => fail<ClockRefusal>({ code: 'INVALID', message, field });
  const customer = typeof input.customer_id === 'string' ? store.customers.get(input.customer_id.toLowerCase()) : undefined;
  if (!customer || customer.deleted_at !== null) return fail({ code: 'NOT_FOUND', message: `Customer ${input.customer_id} not found.`, field: 'customer_id' });
  const status = input.status ?? 'active';
  if (!(PLACEABLE_STATUSES as readonly string[]).includes(status)) return invalid('status', `status must be one of ${PLACEABLE_STATUSES.join(', ')}.`);
  if (input.seats !== undefined && (!Number.isInteger(input.seats) || input.seats < 1 || input.seats > MAX_SEATS)) return invalid('seats', `seats must be an integer from 1 to ${MAX_SEATS}.`);
  const recurring = store.products.inOrganization(customer.organization_id).filter((p) => p.recurring_interval !== null && !p.is_archived && p.price_ids.length > 0);
  const product = input.product_id !== undefined ? store.products.get(input.product_id.toLowerCase()) : (recurring.find((p) => chargesSomething(store, p.id)) ?? recurring[0]);
  if (!product) return fail({ code: 'NOT_FOUND', message: `Product ${input.product_id ?? '(recurring)'} not found.`, field: 'product_id' });
  if (product.organization_id !== customer.organization_id) return invalid('product_id', `The product and the customer belong to different organizations (product ${product.id} is of organization ${product.organization_id}).`);
  if (product.recurring_interval === null) return invalid('product_id', `Product ${product.id} (${product.name}) is a one-time product; a subscription needs a recurring one. The product must be recurring, not archived, and have prices.`);
  if ((product.is_archived && status !== 'canceled') || product.price_ids.length === 0) return invalid('product_id', `Product ${product.id} (${product.name}) is ${product.is_archived ? 'archived' : 'without prices'}. The product must be recurring, not archived, and have prices.`);
  const prices = chargedPrices(store, product);
  const seatBased = prices.some((p) => p.amount_type === 'seat_based');
  if (!seatBased && input.seats !== undefined) return invalid('seats', `Product ${product.id} (${product.name}) has no seat_based price: its subscriptions have no seats.`);
  const seats = seatBased ? (input.seats ?? 1) : null;
  const interval: Interval = product.recurring_interval;
  const count = Math.max(1, product.recurring_interval_count ?? 1);
  const instant = (field: string, given: string | undefined): Result<number | undefined, ClockRefusal> => {
    if (given === undefined) return ok(undefined);
    const micros = parseTimestamp(given);
    return micros === undefined ? invalid(field, `${field} ${given} is not an RFC 3339 date-time.`) : ok(Math.floor(micros / 1000));
  };
  const times: Record<string, number | undefined> = {};
  for (const field of ['started_at', 'current_period_start', 'current_period_end', 'trial_end', 'ended_at'] as const) {
    const parsed = instant(field, input[field]);
    if (!parsed.ok) return parsed;
    times[field] = parsed.value;
  }
  const nowMs = ms(nowTimestamp(store));
  const period = count === 1 ? `one ${interval}` : `${count} ${interval}s`;
  const every = count === 1 ? interval : `${count} ${interval}s`;
  const started = times.started_at ?? times.current_period_start ?? (times.current_period_end !== undefined ? subtractIntervals(times.current_period_end, interval, count) : nowMs);
  if (started > nowMs) return invalid('started_at', `started_at ${stamp(started)} is after the clock's now (${stamp(nowMs)}): a subscription is placed as it stands now.`);
  if (status !== 'canceled' && input.ended_at !== undefined) return invalid('ended_at', `Only a canceled subscription has ended_at (this one is ${status}).`);
  if (status !== 'trialing' && input.trial_end !== undefined) return invalid('trial_end', `Only a trialing subscription has trial_end here (this one is ${status}).`);
  const ended = status === 'canceled' ? (times.ended_at ?? nowMs) : undefined;
  if (ended !== undefined && ended > nowMs) return invalid('ended_at', `ended_at ${stamp(ended)} is after the clock's now (${stamp(nowMs)}).`);
  if (ended !== undefined && ended < started) return invalid('ended_at', `ended_at ${stamp(ended)} is before started_at ${stamp(started)}.`);
  const until = ended ?? nowMs;

  // The clock counts periods from an anchor (cycle 0 ends one period after it): the start of the
  // current period, or its end (cycle -1) when only the end is given, or the start of the subscription.
  let anchor: number;
  let cycle: number;
  let periodStart: number;
  let periodEnd: number;
  let trialEnd: number | null = null;
  if (status === 'trialing') {
    if (input.current_period_start !== undefined || input.current_period_end !== undefined) return invalid(input.current_period_start !== undefined ? 'current_period_start' : 'current_period_end', 'A trialing subscription\'s period is its trial: give trial_end.');
    const productTrial = product.trial_interval !== null && product.trial_interval_count !== null ? addIntervals(started, product.trial_interval, product.trial_interval_count) : undefined;
    trialEnd = times.trial_end ?? productTrial ?? null;
    if (trialEnd === null) return invalid('trial_end', `A trialing subscription needs trial_end: product ${product.id} (${product.name}) has no trial to count it from.`);
    if (trialEnd <= nowMs) return invalid('trial_end', `trial_end ${stamp(trialEnd)} is not after the clock's now (${stamp(nowMs)}): that trial has ended.`);
    [anchor, cycle, periodStart, periodEnd] = [started, 0, started, trialEnd];
  } else if (times.current_period_start !== undefined) {
    periodStart = times.current_period_start;
    periodEnd = addIntervals(periodStart, interval, count);
    if (times.current_period_end !== undefined && times.current_period_end !== periodEnd) {
      return invalid('current_period_end', `current_period_end must be ${period} after current_period_start (${stamp(periodEnd)}), as product ${product.name} bills every ${every}.`);
    }
    if (periodStart < started) return invalid('current_period_start', `current_period_start ${stamp(periodStart)} is before started_at ${stamp(started)}.`);
    [anchor, cycle] = [periodStart, 0];
  } else if (times.current_period_end !== undefined) {
    periodEnd = times.current_period_end;
    periodStart = subtractIntervals(periodEnd, interval, count);
    if (periodStart < started) return invalid('current_period_end', `current_period_end ${stamp(periodEnd)} puts the period's start (${stamp(periodStart)}) before started_at ${stamp(started)}.`);
    [anchor, cycle] = [periodEnd, -1];
  } else {
    // The period that holds `until`, counted from the start (at most 100 years of daily periods).
    cycle = 0;
    while (addIntervals(started, interval, (cycle + 1) * count) <= until) cycle++;
    [anchor, periodStart, periodEnd] = [started, addIntervals(started, interval, cycle * count), addIntervals(started, interval, (cycle + 1) * count)];
  }
  if (periodStart > until) return invalid('current_period_start', `current_period_start ${stamp(periodStart)} is after ${ended !== undefined ? `ended_at (${stamp(ended)})` : `the clock's now (${stamp(nowMs)})`}.`);
  if (status === 'active' && periodEnd <= nowMs) {
    return invalid(input.current_period_end !== undefined ? 'current_period_end' : 'current_period_start', `The current period ends at ${stamp(periodEnd)}, not after the clock's now (${stamp(nowMs)}): an active subscription's period has not ended (leave the period out to count it from started_at).`);
  }
  if (status === 'canceled' && input.cancel_at_period_end) return invalid('cancel_at_period_end', 'A canceled subscription has ended already; cancel_at_period_end is for an active or trialing one.');
  const cancel = input.cancel_at_period_end === true;
  const hasMeters = prices.some((p) => p.amount_type === 'metered_unit' || p.amount_type === 'metered_tiers');
  const gross = prices.reduce((sum, p) => sum + (p.amount_type === 'seat_based' ? (seats ?? 1) * SEAT_PRICE_CENTS : (sortAmount(p) ?? 0)), 0);
  const now = stamp(nowMs);
  const startStamp = stamp(periodStart);
  const endStamp = stamp(periodEnd);
  const createdAt = stamp(started);
  let id: string;
  if (input.id === undefined) {
    id = newId(store);
  } else {
    id = input.id.toLowerCase();
    if (store.subscriptions.get(id)) return invalid('id', `Another subscription already has the id ${id}.`);
  }
  return ok(
    store.subscriptions.insert({
      id,
      organization_id: customer.organization_id,
      created_at: createdAt,
      modified_at: null,
      amount: gross,
      currency: prices[0]?.price_currency ?? 'usd',
      recurring_interval: interval,
      recurring_interval_count: count,
      status,
      current_period_start: startStamp,
      current_period_end: endStamp,
      current_meter_period_start: hasMeters ? startStamp : null,
      current_meter_period_end: hasMeters ? endStamp : null,
      trial_start: trialEnd !== null ? createdAt : null,
      trial_end: trialEnd !== null ? stamp(trialEnd) : null,
      cancel_at_period_end: cancel,
      canceled_at: ended !== undefined ? stamp(ended) : cancel ? now : null,
      started_at: createdAt,
      ends_at: ended !== undefined ? stamp(ended) : cancel ? endStamp : null,
      ended_at: ended !== undefined ? stamp(ended) : null,
      pause_at_period_end: false,
      paused_at: null,
      resumes_at: null,
      past_due_at: null,
      customer_id: customer.id,
      product_id: product.id,
      discount_id: null,
      checkout_id: null,
      customer_cancellation_reason: null,
      customer_cancellation_comment: null,
      metadata: { ...input.metadata },
      price_ids: prices.map((p) => p.id),
      meters: [],
      pending_update: null,
      seats,
      custom_field_data: {},
      ...(status === 'canceled' ? {} : { test_clock: { anchor: stamp(anchor), cycle, fail_payments: input.fail_payments === true, dunning: null } }),
    }),
  );
}

/**
 * Marks a subscription's charges to fail (or to succeed again) from now on; the next charge or
 * retry follows the mark.
 * @returns the subscription; NOT_FOUND (no such subscription) or INVALID (one the test clock does not drive)
 */
export function setPaymentsFail(store: Store, subscriptionId: string, failPayments: boolean): Result<SubscriptionRecord, ClockRefusal> {
  const subscription = store.subscriptions.get(subscriptionId.toLowerCase());
  if (!subscription) return fail({ code: 'NOT_FOUND', message: `Subscription ${subscriptionId} not found.` });
  if (!subscription.test_clock) return fail({ code: 'INVALID', message: `Subscription ${subscriptionId} is not driven by the test clock (create it with POST /__control/test-clock/subscriptions).` });
  if (subscription.test_clock.fail_payments !== failPayments) store.subscriptions.update(subscription, { test_clock: { ...subscription.test_clock, fail_payments: failPayments } });
  return ok(subscription);
}
