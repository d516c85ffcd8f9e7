/**
 * The control API of the reference server: the state changes no public operation can trigger
 * (an order's processing completing, a refund being issued, an invitation being sent, a user
 * authorizing a client, time passing), the records no operation creates (customers, subscriptions
 * in any status, license keys), webhook endpoint registration and the webhook delivery log, and a
 * reset. Importable
 * for in-process use (each function takes the server's {@link ControlEnvironment};
 * {@link createControl} binds them), and served over HTTP under `/__control/` (POST with JSON
 * bodies, snake_case fields as in the functions' inputs; GET for reads), which is not part of the
 * API and is switched off with the build option `control: false`.
 * @see docs/design.md (Targets, roles and verdicts: the target adapter); docs/server-behaviour.md (Control API)
 */
import type { FastifyInstance } from 'fastify';
import { HarnessError } from '../core/errors.js';
import { InvalidJsonBody, TextBody } from './body.js';
import {
  createCustomer as insertCustomer,
  createProduct as insertProduct,
  createSubscription as insertSubscription,
  grantLicenseKey as insertLicenseKey,
  recordOrder,
  type CustomerInput,
  type LicenseKeyInput,
  type ProductInput,
  type SubscriptionInput,
} from './control-records.js';
import { lifecycleStepsUntil, MAX_LIFECYCLE_STEPS, runLifecycle, setPaymentsFail, startClockSubscription, type ClockSubscriptionInput } from './clock/lifecycle.js';
import { dashboardOverview, MAX_OVERVIEW_ROWS, type DashboardOverview, type OverviewOptions } from './dashboard/overview.js';
import { resolveInstant } from './data/instant.js';
import { describeProblem, readDataSource, readDataText, type DataProblem, type DataText } from './data/read.js';
import type { DemoData } from './demo-data.js';
import { notifyStoreChanged, type MachineContext } from './events.js';
import { send } from './http.js';
import { errorReply, validationReply, type Reply } from './replies.js';
import { createSeatInvitation as inviteToSeat, type SeatInvitationInput } from './resources/customer-seats/claim.js';
import { serializeSeat } from './resources/customer-seats/serializer.js';
import { serializeCustomer } from './resources/customers/serializer.js';
import { serializeLicenseKey } from './resources/license-keys/serializer.js';
import { mintAuthorizationCode as mintCode, type AuthorizationCodeInput, type MintedCode } from './resources/oauth2/grants.js';
import { chargedPrices, SEAT_PRICE_CENTS } from './resources/orders/create.js';
import { fireOrderTransition } from './resources/orders/machine.js';
import { serializeOrder } from './resources/orders/serializer.js';
import { sortAmount } from './resources/products/list.js';
import { serializeProduct, type Json } from './resources/products/serializer.js';
import { refundOrder as issueRefund, type RefundInput } from './resources/refunds/create.js';
import { serializeRefund } from './resources/refunds/serializer.js';
import { serializeSubscription } from './resources/subscriptions/serializer.js';
import { serializeWebhookEndpoint } from './resources/webhooks/serializer.js';
import { fail, ok, type Result } from './result.js';
import type { EventRecord, ProductRecord } from './records.js';
import { nowTimestamp, type Store } from './store.js';
import { pointsAtItself, type WebhookDispatcher } from './webhooks/dispatcher.js';
import { listDeliveries as listDeliveryLog, type DeliveryFilter, type WebhookDeliveryAttempt } from './webhooks/deliveries.js';
import { createWebhookEndpoint as registerEndpoint, setWebhookEndpointEnabled as switchEndpoint, type WebhookEndpointInput } from './webhooks/endpoints.js';

/** What the control functions act on: the server's store, version and faults, and its demo data. */
export interface ControlEnvironment extends MachineContext {
  /** The demo data of the current seeding (the same ids after every reset). */
  demo(): DemoData;
  /** Empties the store and seeds it again (demo data and demo tokens). */
  reseed(): DemoData;
  /** The server's webhook delivery, when it has one: to wait until deliveries have settled, and to resend one. */
  webhooks?: Pick<WebhookDispatcher, 'idle' | 'pending'> & Partial<Pick<WebhookDispatcher, 'resend'>>;
  /**
   * Replaces the store with a data file's records at once (a reset to that data: clock offset 0,
   * logs empty, pending deliveries dropped), or changes nothing and gives the file's problems.
   * Absent where the server cannot load data. @see server/data/load.ts
   */
  loadData?(text: DataText): Result<DataLoadSummary, DataProblem[]>;
}

/** What loading a data file made: records by kind, and the fixtures of the new store. */
export interface DataLoadSummary {
  counts: Record<string, number>;
  fixtures: Record<string, string>;
}

/**
 * Why a control function refused: NOT_FOUND (404 over HTTP), INVALID (400: a missing field or one
 * of the wrong type), CONFLICT (409), OUT_OF_RANGE (422 in the API's validation format, `loc`
 * naming `field`: a number beyond what the reference can represent or a URL it must not call).
 */
export interface ControlError {
  code: 'NOT_FOUND' | 'INVALID' | 'CONFLICT' | 'OUT_OF_RANGE';
  message: string;
  /** The body field at fault (OUT_OF_RANGE): `["body", field]` of the 422 entry. */
  field?: string;
}

/** Most the clock may run ahead of the base clock in total, in milliseconds (100 years of 365.25 days): far enough for any expiry, and every timestamp stays a valid date. */
export const MAX_CLOCK_OFFSET_MS = 100 * 365.25 * 24 * 3600 * 1000;
/** Longest expiry the control API accepts for codes and invitations, in seconds (100 years of 365.25 days). */
export const MAX_EXPIRES_IN_SECONDS = 100 * 365.25 * 24 * 3600;

/** OUT_OF_RANGE for a field, with the sentence the 422 entry carries. */
function outOfRange(field: string, message: string): ControlError {
  return { code: 'OUT_OF_RANGE', message, field };
}

/**
 * Checks an optional `expires_in_seconds` against {@link MAX_EXPIRES_IN_SECONDS}: more (or an
 * infinite number) is OUT_OF_RANGE; a value of 0 or less is left to the resource, which answers
 * INVALID as it always has.
 */
function checkExpiry(seconds: unknown): ControlError | undefined {
  if (typeof seconds !== 'number' || Number.isNaN(seconds) || seconds <= 0) return undefined;
  if (!Number.isFinite(seconds) || seconds > MAX_EXPIRES_IN_SECONDS) {
    return outOfRange('expires_in_seconds', `expires_in_seconds must be a number above 0 and at most ${MAX_EXPIRES_IN_SECONDS} (100 years).`);
  }
  return undefined;
}

/** What {@link createOrder} needs; every field has a default. */
export interface CreateOrderInput {
  /** Default: the portal customer (fixture customer_id). */
  customer_id?: string;
  /** Default: the first one-time product of the customer's organization that is not archived and charges something (so that it can be refunded), else the first one-time product that is not archived. */
  product_id?: string;
  /** Whether the order comes from a checkout (emits checkout.created first); default true. */
  checkout?: boolean;
  /** Seats, for a seat-based price; default 1. */
  seats?: number;
}

/** Tax rate of orders the control API creates, in basis points (20 %). */
export const CONTROL_ORDER_TAX_BASIS_POINTS = 2000;

/**
 * Completes an order's processing: pending to paid, emitting order.updated and order.paid.
 * @returns the order as the API shows it, NOT_FOUND, or CONFLICT when it is not pending
 * @see spec/rules.yaml orders.created_pending, orders.paid_transition_events
 */
export function completeOrder(env: ControlEnvironment, orderId: string): Result<Json, ControlError> {
  const order = env.store.orders.get(orderId.toLowerCase());
  if (!order) return fail({ code: 'NOT_FOUND', message: `Order ${orderId} not found.` });
  const fired = fireOrderTransition(env, order, 'complete');
  if (!fired.ok) return fail({ code: 'CONFLICT', message: `Order ${orderId} is ${fired.error.from}; only a pending order can complete.` });
  return ok(serializeOrder(env, fired.value));
}

/** Whether an order of `product` charges more than nothing (a fixed or preset amount above 0, or a seat). */
function chargesSomething(store: Store, product: ProductRecord): boolean {
  return chargedPrices(store, product).some((price) => price.amount_type === 'seat_based' ? SEAT_PRICE_CENTS > 0 : (sortAmount(price) ?? 0) > 0);
}

/**
 * Creates a pending order (as a checkout does), emitting checkout.created (unless `checkout` is
 * false) and order.created. Its invoice is not generated.
 * @returns the order as the API shows it, NOT_FOUND (customer, product) or INVALID
 */
export function createOrder(env: ControlEnvironment, input: CreateOrderInput = {}): Result<Json, ControlError> {
  const { store } = env;
  const customerId = (input.customer_id ?? env.demo().portal.customerId).toLowerCase();
  const customer = store.customers.get(customerId);
  if (!customer || customer.deleted_at !== null) return fail({ code: 'NOT_FOUND', message: `Customer ${customerId} not found.` });
  const oneTime = input.product_id === undefined ? store.products.inOrganization(customer.organization_id).filter((p) => p.recurring_interval === null && !p.is_archived) : [];
  const product = input.product_id !== undefined ? store.products.get(input.product_id.toLowerCase()) : (oneTime.find((p) => chargesSomething(store, p)) ?? oneTime[0]);
  if (!product) return fail({ code: 'NOT_FOUND', message: `Product ${input.product_id ?? '(one-time)'} not found.` });
  const created = recordOrder(env, {
    customer_id: customer.id,
    product_id: product.id,
    checkout: input.checkout !== false,
    ...(input.seats !== undefined ? { seats: input.seats } : {}),
    billing_reason: 'purchase',
    tax_basis_points: CONTROL_ORDER_TAX_BASIS_POINTS,
  });
  return created.ok ? ok(serializeOrder(env, created.value)) : fail(created.error);
}

/**
 * Refunds a paid order, partially (`amount` cents of its net amount) or fully (no amount: all that
 * is left), emitting refund.created, order.updated and order.refunded. The refund succeeds at once
 * and is listed by GET /v1/refunds/.
 * @returns the refund as the API shows it; NOT_FOUND, CONFLICT (not paid, nothing left) or INVALID (amount)
 * @see spec/openapi.yaml, schema Refund; spec/rules.yaml orders.refund_emits_updated, refunds.readable
 */
export function refundOrder(env: ControlEnvironment, orderId: string, input: RefundInput = {}): Result<Json, ControlError> {
  const order = env.store.orders.get(orderId.toLowerCase());
  if (!order) return fail({ code: 'NOT_FOUND', message: `Order ${orderId} not found.` });
  const refunded = issueRefund(env, order, input);
  return refunded.ok ? ok(serializeRefund(env, refunded.value.refund)) : fail(refunded.error);
}

/**
 * Creates a customer with an external id in the demo organization A (the API shows no operation
 * creating one), without subscriptions or payment methods.
 * @returns the customer as the API shows it; CONFLICT when the external id is taken
 */
export function createCustomer(env: ControlEnvironment, input: CustomerInput = {}): Result<Json, ControlError> {
  const created = insertCustomer(env, env.demo().organizations.a, input);
  return created.ok ? ok(serializeCustomer(env, created.value)) : fail(created.error);
}

/**
 * Creates a product in the demo organization A that nothing references (the API shows no
 * operation creating one): one-time, public, without prices or benefits.
 * @returns the product as the API shows it
 */
export function createProduct(env: ControlEnvironment, input: ProductInput = {}): Result<Json, ControlError> {
  const created = insertProduct(env, env.demo().organizations.a, input);
  return created.ok ? ok(serializeProduct(env, created.value)) : fail(created.error);
}

/**
 * Creates a subscription of a customer in any of the eight statuses, modelled on a demo
 * subscription in that status (`seats` makes it seat-based, so that invitations can be sent to it).
 * @returns the subscription as the API shows it; NOT_FOUND (customer) or INVALID (status, seats)
 */
export function createSubscription(env: ControlEnvironment, input: SubscriptionInput): Result<Json, ControlError> {
  const created = insertSubscription(env, input);
  return created.ok ? ok(serializeSubscription(env, created.value)) : fail(created.error);
}

/**
 * Grants a customer a license key through a license_keys benefit of its organization.
 * @returns the key as the customer portal shows it (status granted); NOT_FOUND or INVALID (benefit)
 */
export function grantLicenseKey(env: ControlEnvironment, input: LicenseKeyInput): Result<Json, ControlError> {
  const granted = insertLicenseKey(env, input);
  return granted.ok ? ok(serializeLicenseKey(env, granted.value)) : fail(granted.error);
}

/**
 * Sends a seat invitation: a new pending seat on a seat-based subscription and its token.
 * @returns the seat as the API shows it and the invitation token, or why not (OUT_OF_RANGE: `expires_in_seconds` beyond {@link MAX_EXPIRES_IN_SECONDS})
 */
export function createSeatInvitation(env: ControlEnvironment, input: SeatInvitationInput = {}): Result<{ seat: Json; invitation_token: string }, ControlError> {
  const badExpiry = checkExpiry(input?.expires_in_seconds);
  if (badExpiry) return fail(badExpiry);
  const invited = inviteToSeat(env, input);
  if (!invited.ok) return fail(invited.error);
  return ok({ seat: serializeSeat(env, invited.value.seat), invitation_token: invited.value.invitationToken });
}

/**
 * Mints an authorization code for a client, as if its user had just authorized it.
 * @returns the code and what it is bound to, or NOT_FOUND (client) / INVALID / OUT_OF_RANGE (`expires_in_seconds` beyond {@link MAX_EXPIRES_IN_SECONDS})
 */
export function mintAuthorizationCode(env: ControlEnvironment, input: AuthorizationCodeInput = {}): Result<MintedCode, ControlError> {
  const badExpiry = checkExpiry(input?.expires_in_seconds);
  if (badExpiry) return fail(badExpiry);
  const demo = env.demo();
  return mintCode(env.store, { clientId: demo.oauthClients.a.clientId, userId: demo.userId }, input);
}

/**
 * Moves the server's clock forward (tokens, codes, invitations and presigned URLs expire by it)
 * and applies, in time order, what falls due meanwhile for the subscriptions the test clock drives
 * (trial ends, renewals with their orders, failed charges and their retries, cancellations at
 * period end), each at the instant it fell due (server/clock/lifecycle.ts).
 * @param ms milliseconds, a non-negative finite number; the clock's total advance stays within {@link MAX_CLOCK_OFFSET_MS}
 * @returns the new current time (ISO 8601), INVALID (not a number) or OUT_OF_RANGE (negative, beyond the total, or more than {@link MAX_LIFECYCLE_STEPS} lifecycle steps at once: nothing changes then)
 * @see docs/lifecycle.md
 */
export function advanceClock(env: ControlEnvironment, ms: number): Result<{ now: string }, ControlError> {
  if (typeof ms !== 'number' || Number.isNaN(ms)) return fail({ code: 'INVALID', message: 'ms must be a number of milliseconds.' });
  const room = MAX_CLOCK_OFFSET_MS - env.store.clockOffsetMs;
  if (!Number.isFinite(ms) || ms < 0 || ms > room) {
    return fail(outOfRange('ms', `ms must be from 0 to ${room} milliseconds: the clock runs at most ${MAX_CLOCK_OFFSET_MS} ms (100 years) ahead in total, and is ${env.store.clockOffsetMs} ms ahead now.`));
  }
  const until = env.store.clock().getTime() + ms;
  if (lifecycleStepsUntil(env.store, until) > MAX_LIFECYCLE_STEPS) {
    return fail(outOfRange('ms', `Advancing by ${ms} ms would make the test clock apply more than ${MAX_LIFECYCLE_STEPS} renewals, charges and retries at once; advance in smaller steps.`));
  }
  runLifecycle(env, until);
  env.store.clockOffsetMs += ms;
  return ok({ now: nowTimestamp(env.store) });
}

/**
 * Starts a subscription the test clock drives (trialing for `trial_days`, else active with its
 * first order paid); advancing the clock then renews, charges and ends it (docs/lifecycle.md).
 * @returns the subscription as the API shows it; NOT_FOUND (customer, product) or INVALID
 */
export function createClockSubscription(env: ControlEnvironment, input: ClockSubscriptionInput): Result<Json, ControlError> {
  const started = startClockSubscription(env, input);
  return started.ok ? ok(serializeSubscription(env, started.value)) : fail(started.error);
}

/**
 * Marks the charges of a subscription the test clock drives to fail (`fail` true) or to succeed
 * again; the next charge or retry follows the mark.
 * @returns the subscription as the API shows it; NOT_FOUND (unknown id) or INVALID (not on the test clock)
 */
export function markPaymentsFail(env: ControlEnvironment, subscriptionId: string, failPayments: boolean): Result<Json, ControlError> {
  const marked = setPaymentsFail(env.store, subscriptionId, failPayments);
  return marked.ok ? ok(serializeSubscription(env, marked.value)) : fail(marked.error);
}

/** Restores the demo state of the seed: the same records, ids, tokens and fixtures as at start; the clock offset is 0 again. */
export function reset(env: ControlEnvironment): { fixtures: Record<string, string> } {
  return { fixtures: env.reseed().fixtures };
}

/** Why a data file was not loaded: its problems (each one line with describeProblem), or that the server cannot load data. */
export interface DataLoadRefusal {
  problems: DataProblem[];
}

/**
 * Replaces the store's records with a data file's, as a reset to that data: validated against
 * spec/data.schema.json and the store's rules first, then loaded at once; on any problem nothing
 * changes. A later reset goes back to what the server started with (its own data file, or the demo
 * store), not to this file.
 * @param source a read data file (server/data/read.ts), a path to one, or its content as a value
 * @returns records by kind and the new fixtures, or the problems (every schema problem, else the first of the store's rules)
 * @see docs/data-file.md
 */
export function loadDataFile(env: ControlEnvironment, source: DataText | string | Record<string, unknown>): Result<DataLoadSummary, DataLoadRefusal> {
  const read = typeof source === 'object' && typeof (source as Partial<DataText>).locate === 'function' ? ok(source as DataText) : readDataSource(source as string | Record<string, unknown>);
  if (!read.ok) return fail({ problems: [read.error] });
  if (!env.loadData) return fail({ problems: [{ file: read.value.file, field: '(top level)', message: 'this server cannot load data files' }] });
  const loaded = env.loadData(read.value);
  return loaded.ok ? loaded : fail({ problems: loaded.error });
}

/** A part of the event log: the events after one (by id), at most `limit` of them. */
export interface EventPage {
  /** An event id: only the events appended after it. An id the log does not have (a reset since) is ignored: the log from its start. */
  after?: string;
  /** At most this many events; default all. */
  limit?: number;
}

/** Most events one `GET /__control/events` answers when asked for a page. */
export const MAX_EVENTS_PAGE = 1000;

/**
 * The event log, oldest first, optionally of one event type and from a point on.
 * @param page `after` an event id, `limit` a count (a page of a log too large to answer at once)
 */
export function listEvents(env: ControlEnvironment, type?: string, page: EventPage = {}): EventRecord[] {
  const { events } = env.store;
  const start = page.after === undefined ? 0 : events.findLastIndex((event) => event.id === page.after) + 1;
  const found: EventRecord[] = [];
  for (let i = start; i < events.length && (page.limit === undefined || found.length < page.limit); i++) {
    if (type === undefined || events[i]!.type === type) found.push(events[i]!);
  }
  return found;
}

/**
 * Registers a webhook endpoint (the API description shows no operation for it) in the demo
 * organization, or in `organization_id`. Events emitted from then on are delivered to it when it is
 * enabled and subscribed to their kind.
 * @returns the endpoint as the API shows it, secret included (201 over HTTP); NOT_FOUND (organization) or INVALID
 * @see spec/openapi.yaml, schema WebhookEndpoint
 */
export function createWebhookEndpoint(env: ControlEnvironment, input: WebhookEndpointInput): Result<Json, ControlError> {
  const created = registerEndpoint(env.store, env.demo().organizations.a, input);
  return created.ok ? ok(serializeWebhookEndpoint(env, created.value)) : fail(created.error);
}

/**
 * Enables or disables a webhook endpoint; a disabled endpoint receives nothing, not even the
 * retries of earlier events.
 * @returns the endpoint as the API shows it; NOT_FOUND or INVALID
 */
export function setWebhookEndpointEnabled(env: ControlEnvironment, id: string, enabled: boolean): Result<Json, ControlError> {
  const changed = switchEndpoint(env.store, id, enabled);
  return changed.ok ? ok(serializeWebhookEndpoint(env, changed.value)) : fail(changed.error);
}

/** The webhook delivery log, oldest first: every attempt, optionally of one endpoint, event kind or event. */
export function listDeliveries(env: ControlEnvironment, filter: DeliveryFilter = {}): WebhookDeliveryAttempt[] {
  return listDeliveryLog(env.store, filter);
}

/**
 * Sends a logged delivery attempt's event to its endpoint once more: one new attempt, numbered
 * after the last of that event and endpoint, logged like any other (the platform's dashboard has
 * the same button). It is queued after what the endpoint has pending; settle to wait for it.
 * @returns the event, the endpoint and the new attempt's number; NOT_FOUND (no such attempt, or its event or endpoint gone) or CONFLICT (the endpoint is disabled, or the server delivers no webhooks)
 * @see docs/server-behaviour.md (Control API); docs/dashboard.md
 */
export function resendDelivery(env: ControlEnvironment, deliveryId: string): Result<{ event_id: string; endpoint_id: string; attempt: number }, ControlError> {
  if (!env.webhooks?.resend) return fail({ code: 'CONFLICT', message: 'This server delivers no webhooks.' });
  return env.webhooks.resend(deliveryId);
}

/**
 * Moves the clock forward to an instant, or by a duration: `to` an RFC 3339 date-time at or after
 * now, `by` a signed ISO 8601 duration such as `+P1D` or `+P1M` (calendar months, as billing
 * periods count them; the sign may be left out). Otherwise as {@link advanceClock}.
 * @returns the new current time, INVALID (neither or both given, not an instant or a duration) or OUT_OF_RANGE (before now, or beyond what advanceClock allows)
 * @see server/data/instant.ts (the same syntax as a data file's instants)
 */
export function advanceClockTo(env: ControlEnvironment, target: { to?: string; by?: string }): Result<{ now: string }, ControlError> {
  if ((target.to === undefined) === (target.by === undefined)) return fail({ code: 'INVALID', message: 'Give one of ms, to (an RFC 3339 date-time) or by (an ISO 8601 duration such as P1D or P1M).' });
  const now = env.store.clock().getTime();
  const text = target.to ?? (/^[+-]/.test(target.by!) ? target.by! : `+${target.by!}`);
  if (target.by !== undefined && !/^[+-]?P/.test(target.by)) return fail({ code: 'INVALID', message: `by must be an ISO 8601 duration (P1D, P1M, PT2H), not ${JSON.stringify(target.by)}.` });
  if (target.to !== undefined && (target.to === 'now' || /^[+-]?P/.test(target.to))) return fail({ code: 'INVALID', message: `to must be an RFC 3339 date-time, not ${JSON.stringify(target.to)}.` });
  const instant = resolveInstant(text, now);
  if (!instant.ok) return fail({ code: 'INVALID', message: `${target.to !== undefined ? 'to' : 'by'}: ${instant.error}.` });
  if (instant.value < now) return fail(outOfRange(target.to !== undefined ? 'to' : 'by', `The clock only moves forward: ${text} is before now (${nowTimestamp(env.store)}).`));
  return advanceClock(env, instant.value - now);
}

/**
 * Waits until no webhook delivery is queued, waiting for a retry or in flight, or until `timeoutMs`
 * has passed.
 * @param timeoutMs milliseconds, default 10,000
 * @returns how many deliveries are still pending (0 when everything settled)
 */
export async function settleDeliveries(env: ControlEnvironment, timeoutMs = 10_000): Promise<{ pending: number }> {
  const webhooks = env.webhooks;
  if (!webhooks) return { pending: 0 };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, timeoutMs));
  });
  await Promise.race([webhooks.idle(), timeout]);
  clearTimeout(timer);
  return { pending: webhooks.pending() };
}

/** The control functions bound to one server. */
export interface ReferenceControl {
  completeOrder(orderId: string): Result<Json, ControlError>;
  createOrder(input?: CreateOrderInput): Result<Json, ControlError>;
  refundOrder(orderId: string, input?: RefundInput): Result<Json, ControlError>;
  createCustomer(input?: CustomerInput): Result<Json, ControlError>;
  createProduct(input?: ProductInput): Result<Json, ControlError>;
  createSubscription(input: SubscriptionInput): Result<Json, ControlError>;
  grantLicenseKey(input: LicenseKeyInput): Result<Json, ControlError>;
  createSeatInvitation(input?: SeatInvitationInput): Result<{ seat: Json; invitation_token: string }, ControlError>;
  mintAuthorizationCode(input?: AuthorizationCodeInput): Result<MintedCode, ControlError>;
  advanceClock(ms: number): Result<{ now: string }, ControlError>;
  /** {@link advanceClockTo}: to an instant, or by an ISO 8601 duration (`P1M`: a calendar month). */
  advanceClockTo(target: { to?: string; by?: string }): Result<{ now: string }, ControlError>;
  /** The server's current time (ISO 8601, microseconds), as the test clock has moved it. */
  clockNow(): string;
  createClockSubscription(input: ClockSubscriptionInput): Result<Json, ControlError>;
  markPaymentsFail(subscriptionId: string, failPayments: boolean): Result<Json, ControlError>;
  /** Back to what the server started with (its data file, read again, or the demo store). @throws HarnessError CNF_ERR_DATA_INVALID when its data file no longer loads (nothing changes then) */
  reset(): { fixtures: Record<string, string> };
  /** {@link loadDataFile}: a data file's records in place of the store's (a path, a value or a read file). */
  loadData(source: DataText | string | Record<string, unknown>): Result<DataLoadSummary, DataLoadRefusal>;
  events(type?: string, page?: EventPage): EventRecord[];
  /** Whether the event log holds the event `id` (false after a reset emptied it of that event). */
  hasEvent(id: string): boolean;
  createWebhookEndpoint(input: WebhookEndpointInput): Result<Json, ControlError>;
  setWebhookEndpointEnabled(id: string, enabled: boolean): Result<Json, ControlError>;
  listDeliveries(filter?: DeliveryFilter): WebhookDeliveryAttempt[];
  settleDeliveries(timeoutMs?: number): Promise<{ pending: number }>;
  resendDelivery(deliveryId: string): Result<{ event_id: string; endpoint_id: string; attempt: number }, ControlError>;
  /** What the dashboard shows: the store's records by kind, the newest events and delivery attempts (server/dashboard/overview.ts). */
  overview(options?: OverviewOptions): DashboardOverview;
}

/**
 * Binds the control functions to a server's environment. Every function that may change the store
 * tells the listeners of `onStoreChanged` (state persistence), since in-process calls do not pass
 * through the HTTP layer.
 */
export function createControl(env: ControlEnvironment): ReferenceControl {
  const changed = <T>(value: T): T => {
    notifyStoreChanged(env.store);
    return value;
  };
  return {
    completeOrder: (orderId) => changed(completeOrder(env, orderId)),
    createOrder: (input) => changed(createOrder(env, input)),
    refundOrder: (orderId, input) => changed(refundOrder(env, orderId, input)),
    createCustomer: (input) => changed(createCustomer(env, input)),
    createProduct: (input) => changed(createProduct(env, input)),
    createSubscription: (input) => changed(createSubscription(env, input)),
    grantLicenseKey: (input) => changed(grantLicenseKey(env, input)),
    createSeatInvitation: (input) => changed(createSeatInvitation(env, input)),
    mintAuthorizationCode: (input) => changed(mintAuthorizationCode(env, input)),
    advanceClock: (ms) => changed(advanceClock(env, ms)),
    advanceClockTo: (target) => changed(advanceClockTo(env, target)),
    clockNow: () => nowTimestamp(env.store),
    createClockSubscription: (input) => changed(createClockSubscription(env, input)),
    markPaymentsFail: (id, failPayments) => changed(markPaymentsFail(env, id, failPayments)),
    reset: () => changed(reset(env)),
    loadData: (source) => changed(loadDataFile(env, source)),
    events: (type, page) => listEvents(env, type, page),
    hasEvent: (id) => env.store.events.some((event) => event.id === id),
    createWebhookEndpoint: (input) => changed(createWebhookEndpoint(env, input)),
    setWebhookEndpointEnabled: (id, enabled) => changed(setWebhookEndpointEnabled(env, id, enabled)),
    listDeliveries: (filter) => listDeliveries(env, filter),
    settleDeliveries: (timeoutMs) => settleDeliveries(env, timeoutMs),
    resendDelivery: (id) => resendDelivery(env, id),
    overview: (options) => dashboardOverview(env, options),
  };
}

const STATUS: Record<ControlError['code'], number> = { NOT_FOUND: 404, INVALID: 400, CONFLICT: 409, OUT_OF_RANGE: 422 };

function answer<T>(result: Result<T, ControlError>, status = 200): Reply {
  if (result.ok) return { status, body: result.value };
  const { code, message, field } = result.error;
  if (code === 'OUT_OF_RANGE') return validationReply([{ loc: field === undefined ? ['body'] : ['body', field], msg: message, type: 'value_error' }]);
  return errorReply(STATUS[code], message);
}

/** `organizations[0].prices[2].product` as `['organizations', 0, 'prices', 2, 'product']`; a field in parentheses (`(syntax)`) is no step. */
function fieldSteps(field: string): (string | number)[] {
  if (field.startsWith('(')) return [];
  return field.split(/[.[\]]/).filter((step) => step !== '').map((step) => (/^\d+$/.test(step) ? Number(step) : step));
}

/** JSON types of the fields of a control body (`string|null` allows either). */
type FieldTypes = Record<string, string>;

function jsonObject(body: unknown, fields: FieldTypes): Result<Record<string, unknown>, ControlError> {
  if (body === undefined) return ok({});
  if (body instanceof InvalidJsonBody || body === null || typeof body !== 'object' || Array.isArray(body)) return fail({ code: 'INVALID', message: 'The body must be a JSON object.' });
  const object = body as Record<string, unknown>;
  for (const [name, types] of Object.entries(fields)) {
    const value = object[name];
    if (value === undefined) continue;
    const type = value === null ? 'null' : typeof value;
    if (!types.split('|').includes(type)) return fail({ code: 'INVALID', message: `${name} must be ${types.replace('|', ' or ')}.` });
  }
  return ok(Object.fromEntries(Object.keys(fields).filter((name) => object[name] !== undefined).map((name) => [name, object[name]])));
}

/**
 * Serves the control functions: `POST /__control/reset`, `POST /__control/clock/advance {ms}`,
 * `POST /__control/test-clock/subscriptions {customer_id, product_id?, trial_days?,
 * cancel_at_period_end?, fail_payments?, seats?}` (201), `POST
 * /__control/subscriptions/:id/payment-failures {fail}`,
 * `POST /__control/orders {customer_id?, product_id?, checkout?, seats?}` (201),
 * `POST /__control/orders/:id/complete`, `POST /__control/orders/:id/refunds {amount?, reason?}`
 * (201), `POST /__control/customers {external_id?, email?, name?}` (201),
 * `POST /__control/subscriptions {customer_id, status, seats?}` (201),
 * `POST /__control/license-keys {customer_id, benefit_id?}` (201), `POST /__control/seat-invitations {subscription_id?,
 * email?, expires_in_seconds?}` (201), `POST /__control/authorization-codes {client_id?,
 * redirect_uri?, scope?, subject_type?, subject_id?, nonce?, expires_in_seconds?}` (201),
 * `GET /__control/clock` (`{now}`), `GET /__control/events?type=&after=&limit=` (`{items, has_more}`: the events after the event id
 * `after`, at most `limit` of them; with `after`, `after_found`: false when the log does not hold
 * that event, the items then being the log from its start), `POST /__control/webhook-endpoints {url, events,
 * organization_id?, enabled?, secret?, name?}` (201), `POST /__control/webhook-endpoints/:id/enabled
 * {enabled}`, `GET /__control/webhook-deliveries?endpoint_id=&event_type=&event_id=` and
 * `POST /__control/webhook-deliveries/settle {timeout_ms?}`, `POST /__control/webhook-deliveries/:id/resend`
 * (202), `POST /__control/data` (a data file as the body, YAML or JSON: docs/data-file.md; its
 * problems a 400 for a syntax error, else a 422 with one entry per problem) and
 * `GET /__control/overview?limit=` (the dashboard's view, server/dashboard/overview.ts); the clock
 * advance also takes `{by}` (an ISO 8601 duration) or `{to}` (an instant). Errors are `{error, detail}` with
 * 400, 404 or 409; a value out of range (clock advance, expiry seconds, settle timeout, events
 * limit, a webhook URL pointing at this server) is a 422 `{detail: [{loc, msg, type}]}`.
 */
export function registerControlRoutes(app: FastifyInstance, control: ReferenceControl): void {
  const route = (url: string, fields: FieldTypes, run: (body: Record<string, unknown>, params: Record<string, string>) => Reply) => {
    app.post(url, async (request, reply) => {
      const body = jsonObject(request.body, fields);
      return send(reply, body.ok ? run(body.value, request.params as Record<string, string>) : answer(body));
    });
  };
  route('/__control/reset', {}, () => {
    try {
      return { status: 200, body: control.reset() };
    } catch (error) {
      // The server's own data file no longer loads (edited since): nothing changed.
      if (error instanceof HarnessError && error.code === 'CNF_ERR_DATA_INVALID') return validationReply([{ loc: ['body'], msg: `the data file does not load any more: ${error.message}`, type: 'value_error' }]);
      throw error;
    }
  });
  app.post('/__control/data', async (request, reply) => {
    // text/plain is read by Fastify's own parser, as a string.
    const text = request.body instanceof TextBody ? request.body.text : typeof request.body === 'string' ? request.body : '';
    if (text.trim() === '') {
      return send(reply, errorReply(400, 'The body must be a data file, YAML or JSON (spec/data.schema.json), sent as it is: curl --data-binary @catalogue.yaml -H "content-type: application/yaml".'));
    }
    const name = (request.query as Record<string, unknown>).name;
    const read = readDataText(typeof name === 'string' && name !== '' ? name : 'request body', text);
    if (!read.ok) return send(reply, errorReply(400, describeProblem(read.error)));
    const loaded = control.loadData(read.value);
    if (loaded.ok) return send(reply, { status: 200, body: loaded.value });
    return send(reply, validationReply(loaded.error.problems.map((problem) => ({ loc: ['body', ...fieldSteps(problem.field)], msg: describeProblem(problem), type: 'value_error' }))));
  });
  route('/__control/clock/advance', { ms: 'number', to: 'string', by: 'string' }, (body) => {
    if (body.ms !== undefined && (body.to !== undefined || body.by !== undefined)) return answer(fail({ code: 'INVALID', message: 'Give one of ms, to or by.' }));
    if (body.ms === undefined) return answer(control.advanceClockTo(body as { to?: string; by?: string }));
    return answer(control.advanceClock(body.ms as number));
  });
  route(
    '/__control/test-clock/subscriptions',
    { customer_id: 'string', product_id: 'string', trial_days: 'number', cancel_at_period_end: 'boolean', fail_payments: 'boolean', seats: 'number' },
    (body) => {
      if (body.customer_id === undefined) return answer(fail({ code: 'INVALID', message: 'customer_id is required.' }));
      return answer(control.createClockSubscription(body as unknown as ClockSubscriptionInput), 201);
    },
  );
  route('/__control/subscriptions/:id/payment-failures', { fail: 'boolean' }, (body, params) => {
    if (body.fail === undefined) return answer(fail({ code: 'INVALID', message: 'fail is required.' }));
    return answer(control.markPaymentsFail(params.id!, body.fail as boolean));
  });
  route('/__control/orders', { customer_id: 'string', product_id: 'string', checkout: 'boolean', seats: 'number' }, (body) => answer(control.createOrder(body as CreateOrderInput), 201));
  route('/__control/orders/:id/complete', {}, (_body, params) => answer(control.completeOrder(params.id!)));
  route('/__control/orders/:id/refunds', { amount: 'number', reason: 'string' }, (body, params) => answer(control.refundOrder(params.id!, body as RefundInput), 201));
  route('/__control/customers', { external_id: 'string', email: 'string', name: 'string' }, (body) => answer(control.createCustomer(body as CustomerInput), 201));
  route('/__control/products', { name: 'string' }, (body) => answer(control.createProduct(body as ProductInput), 201));
  route('/__control/subscriptions', { customer_id: 'string', status: 'string', seats: 'number' }, (body) => {
    if (body.customer_id === undefined || body.status === undefined) return answer(fail({ code: 'INVALID', message: 'customer_id and status are required.' }));
    return answer(control.createSubscription(body as unknown as SubscriptionInput), 201);
  });
  route('/__control/license-keys', { customer_id: 'string', benefit_id: 'string' }, (body) => {
    if (body.customer_id === undefined) return answer(fail({ code: 'INVALID', message: 'customer_id is required.' }));
    return answer(control.grantLicenseKey(body as unknown as LicenseKeyInput), 201);
  });
  route('/__control/seat-invitations', { subscription_id: 'string', email: 'string', expires_in_seconds: 'number' }, (body) => answer(control.createSeatInvitation(body as SeatInvitationInput), 201));
  route(
    '/__control/authorization-codes',
    { client_id: 'string', redirect_uri: 'string|null', scope: 'string', subject_type: 'string', subject_id: 'string', nonce: 'string', expires_in_seconds: 'number' },
    (body) => answer(control.mintAuthorizationCode(body as AuthorizationCodeInput), 201),
  );
  app.get('/__control/clock', async (_request, reply) => send(reply, { status: 200, body: { now: control.clockNow() } }));
  app.get('/__control/events', async (request, reply) => {
    const { type, after, limit } = request.query as Record<string, unknown>;
    const count = typeof limit === 'string' ? Number(limit) : undefined;
    if (count !== undefined && (!Number.isInteger(count) || count < 1 || count > MAX_EVENTS_PAGE)) {
      return send(reply, validationReply([{ loc: ['query', 'limit'], msg: `limit must be an integer from 1 to ${MAX_EVENTS_PAGE}.`, type: 'value_error' }]));
    }
    const page = { ...(typeof after === 'string' ? { after } : {}), ...(count === undefined ? {} : { limit: count + 1 }) };
    const items = control.events(typeof type === 'string' ? type : undefined, page);
    const more = count !== undefined && items.length > count;
    // A reader that keeps the log it has read asks for what follows its last event: it must know when the log restarted.
    const found = typeof after === 'string' ? { after_found: control.hasEvent(after) } : {};
    return send(reply, { status: 200, body: { items: more ? items.slice(0, count) : items, has_more: more, ...found } });
  });
  route(
    '/__control/webhook-endpoints',
    { organization_id: 'string', url: 'string', events: 'object', enabled: 'boolean', secret: 'string', name: 'string|null' },
    (body) => {
      if (body.url === undefined || body.events === undefined) return answer(fail({ code: 'INVALID', message: 'url and events are required.' }));
      const address = app.server.address();
      const ownPort = address !== null && typeof address === 'object' ? address.port : undefined;
      if (URL.canParse(body.url as string) && pointsAtItself(new URL(body.url as string), ownPort)) {
        return answer(fail(outOfRange('url', 'url must not point at the reference server itself: its deliveries would feed its own operations without end.')));
      }
      return answer(control.createWebhookEndpoint(body as unknown as WebhookEndpointInput), 201);
    },
  );
  route('/__control/webhook-endpoints/:id/enabled', { enabled: 'boolean' }, (body, params) => {
    if (body.enabled === undefined) return answer(fail({ code: 'INVALID', message: 'enabled is required.' }));
    return answer(control.setWebhookEndpointEnabled(params.id!, body.enabled as boolean));
  });
  app.get('/__control/webhook-deliveries', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const filter: DeliveryFilter = {};
    for (const name of ['endpoint_id', 'event_type', 'event_id'] as const) {
      const value = query[name];
      if (typeof value === 'string') filter[name] = value;
    }
    return send(reply, { status: 200, body: { items: control.listDeliveries(filter) } });
  });
  route('/__control/webhook-deliveries/:id/resend', {}, (_body, params) => answer(control.resendDelivery(params.id!), 202));
  app.get('/__control/overview', async (request, reply) => {
    const { limit } = request.query as Record<string, unknown>;
    const count = typeof limit === 'string' ? Number(limit) : undefined;
    if (count !== undefined && (!Number.isInteger(count) || count < 1 || count > MAX_OVERVIEW_ROWS)) {
      return send(reply, validationReply([{ loc: ['query', 'limit'], msg: `limit must be an integer from 1 to ${MAX_OVERVIEW_ROWS}.`, type: 'value_error' }]));
    }
    return send(reply, { status: 200, body: control.overview(count === undefined ? {} : { limit: count }) });
  });
  app.post('/__control/webhook-deliveries/settle', async (request, reply) => {
    const body = jsonObject(request.body, { timeout_ms: 'number' });
    if (!body.ok) return send(reply, answer(body));
    const timeoutMs = body.value.timeout_ms as number | undefined;
    if (timeoutMs !== undefined && (!Number.isFinite(timeoutMs) || timeoutMs < 0 || timeoutMs > 60_000)) {
      return send(reply, answer(fail(outOfRange('timeout_ms', 'timeout_ms must be from 0 to 60000 milliseconds.'))));
    }
    return send(reply, { status: 200, body: await control.settleDeliveries(timeoutMs) });
  });
}
