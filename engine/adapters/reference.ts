/**
 * The target adapter of the reference server: every capability is a request to its control API
 * under `/__control/` (not part of the API; `conformance serve --no-control` switches it off),
 * sent through the harness client so that it has the run's timeout and pacing. Used automatically
 * for the embedded target, and with `--adapter reference` for a reference started with
 * `conformance serve`. Also a valid adapter module: `--adapter engine/adapters/reference.ts`.
 * @see ../../server/control.ts (registerControlRoutes: the routes and their bodies)
 * @see docs/server-behaviour.md (Control API); docs/stateful.md (The target adapter)
 */
import { AdapterError, outsideOperation, type AdapterFactory, type ApiObject, type TargetAdapter, type TargetEvent, type WebhookEndpoint } from '../../core/adapter.js';
import { createClient, type Client } from '../client.js';
import type { Target } from '../../core/target.js';
import type { Exchange } from '../../core/types.js';

/** Events asked for per request of the event log (an event is a few kilobytes: a page stays far below the client's 1 MiB body limit). */
const EVENTS_PAGE = 50;

/** Longest wait for webhook deliveries to settle that the control API accepts, in milliseconds. */
const MAX_SETTLE_MS = 60_000;

function isObject(value: unknown): value is ApiObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The control API's answer as JSON, or an {@link AdapterError} saying what went wrong. */
function answerOf(capability: string, exchange: Exchange): unknown {
  const where = `${exchange.request.method} ${new URL(exchange.request.url).pathname}`;
  if (!exchange.response) {
    throw new AdapterError(capability, `reference adapter: ${capability}: ${where} got no answer (${exchange.transportError?.code ?? 'no response'}: ${exchange.transportError?.message ?? ''})`);
  }
  const { status, json, body } = exchange.response;
  if (status < 200 || status > 299) {
    const detail = isObject(json) && typeof json.detail === 'string' ? json.detail : body.slice(0, 200);
    // A reference served with --no-control answers every /__control/ route like an unknown path.
    const hint = status === 404 && detail.startsWith('No resource at') ? ' (is the control API switched off with --no-control?)' : '';
    throw new AdapterError(capability, `reference adapter: ${capability}: ${where} answered ${status}: ${detail}${hint}`);
  }
  return json;
}

function objectOf(capability: string, value: unknown): ApiObject {
  if (!isObject(value)) throw new AdapterError(capability, `reference adapter: ${capability}: the control API answered no JSON object`);
  return value;
}

function stringField(capability: string, object: ApiObject, field: string): string {
  const value = object[field];
  if (typeof value !== 'string') throw new AdapterError(capability, `reference adapter: ${capability}: the answer has no string ${field}`);
  return value;
}

/** A target's event log as this process has read it so far, oldest first, and the reading under way (one at a time). */
interface EventLogCopy {
  readonly events: TargetEvent[];
  reading: Promise<void>;
}

/**
 * The event logs read by this process, by target base URL: every adapter of a target (each suite
 * file makes its own) continues from what another has read, instead of reading the whole log again.
 */
const eventLogs = new Map<string, EventLogCopy>();

function eventLogOf(baseUrl: string): EventLogCopy {
  let copy = eventLogs.get(baseUrl);
  if (!copy) eventLogs.set(baseUrl, (copy = { events: [], reading: Promise.resolve() }));
  return copy;
}

/**
 * Creates the adapter of a reference server.
 * @param target the reference's base URL (its other fields: timeout and pacing)
 * @param client a client to send with; default a new one, closed by `close()`
 * @returns an adapter with every capability, plus `settleDeliveries` and `close`
 */
export function createReferenceAdapter(target: Target, client?: Client): TargetAdapter {
  const own = client === undefined;
  const http = client ?? createClient(target);
  let sequence = 0;
  const read = eventLogOf(target.baseUrl);
  const log = read.events;

  const call = async (capability: string, method: 'GET' | 'POST', pathAndQuery: string, json?: unknown): Promise<unknown> => {
    const exchange = await http.send(outsideOperation(method, pathAndQuery, `control:${capability}`), {
      id: `control:${capability}#${sequence++}`,
      operationId: `control:${capability}`,
      pathParams: {},
      query: {},
      headers: {},
      role: null,
      ...(json === undefined ? {} : { body: { contentType: 'application/json', text: JSON.stringify(json) } }),
    });
    return answerOf(capability, exchange);
  };

  /** Reads what follows the events already read into the process's copy of the log (listEvents). */
  const readNew = async (): Promise<void> => {
    // The log only grows until a reset: the events already read are kept, and each call reads
    // only what follows the last of them, a page at a time (a whole long log would exceed the
    // largest body the client keeps). A log that no longer holds that event (a reset since) is
    // read again from its start. The filter is applied here, as the control API applies it.
    let first = true;
    for (;;) {
      const after = log.at(-1)?.id;
      // An event without an id cannot be read past: the log is read again from its start.
      if (after === undefined) log.length = 0;
      const query = new URLSearchParams({ limit: String(EVENTS_PAGE), ...(after === undefined ? {} : { after }) });
      const answer = objectOf('listEvents', await call('listEvents', 'GET', `/__control/events?${query}`));
      if (!Array.isArray(answer.items)) throw new AdapterError('listEvents', 'reference adapter: listEvents: the answer has no items array');
      // Only the first page follows an event read before this call; the later ones follow events it has just read.
      if (first && after !== undefined && answer.after_found !== true) {
        log.length = 0;
        // A control API that does not say whether it knew the event: the log is read again from its start.
        if (answer.after_found !== false) continue;
      }
      first = false;
      log.push(...(answer.items as TargetEvent[]));
      if (answer.has_more !== true || answer.items.length === 0) break;
    }
  };

  return {
    name: 'reference control API',
    // The reference appends an event to its log before it answers the write that made it (server/events.ts).
    eventsAtOnce: true,
    async createOrder(input) {
      const body = { ...(input.customerId ? { customer_id: input.customerId } : {}), ...(input.productId ? { product_id: input.productId } : {}) };
      return objectOf('createOrder', await call('createOrder', 'POST', '/__control/orders', body));
    },
    async completeOrder(orderId) {
      return objectOf('completeOrder', await call('completeOrder', 'POST', `/__control/orders/${encodeURIComponent(orderId)}/complete`));
    },
    async createSeatInvitation(input) {
      const body = { ...(input.subscriptionId ? { subscription_id: input.subscriptionId } : {}), ...(input.email ? { email: input.email } : {}) };
      const answer = objectOf('createSeatInvitation', await call('createSeatInvitation', 'POST', '/__control/seat-invitations', body));
      return { seat: objectOf('createSeatInvitation', answer.seat), invitationToken: stringField('createSeatInvitation', answer, 'invitation_token') };
    },
    async mintAuthorizationCode(input) {
      const body = { ...(input.redirectUri ? { redirect_uri: input.redirectUri } : {}), ...(input.scope ? { scope: input.scope } : {}) };
      const answer = objectOf('mintAuthorizationCode', await call('mintAuthorizationCode', 'POST', '/__control/authorization-codes', body));
      const redirectUri = answer.redirect_uri;
      return {
        code: stringField('mintAuthorizationCode', answer, 'code'),
        clientId: stringField('mintAuthorizationCode', answer, 'client_id'),
        redirectUri: typeof redirectUri === 'string' ? redirectUri : null,
        ...(typeof answer.scope === 'string' ? { scope: answer.scope } : {}),
      };
    },
    async advanceClock(ms) {
      await call('advanceClock', 'POST', '/__control/clock/advance', { ms });
    },
    async clockNow() {
      return stringField('clockNow', objectOf('clockNow', await call('clockNow', 'GET', '/__control/clock')), 'now');
    },
    async createClockSubscription(input) {
      const body = {
        customer_id: input.customerId,
        ...(input.trialDays === undefined ? {} : { trial_days: input.trialDays }),
        ...(input.cancelAtPeriodEnd === undefined ? {} : { cancel_at_period_end: input.cancelAtPeriodEnd }),
        ...(input.failPayments === undefined ? {} : { fail_payments: input.failPayments }),
      };
      return objectOf('createClockSubscription', await call('createClockSubscription', 'POST', '/__control/test-clock/subscriptions', body));
    },
    async setPaymentFailure(subscriptionId, fail) {
      await call('setPaymentFailure', 'POST', `/__control/subscriptions/${encodeURIComponent(subscriptionId)}/payment-failures`, { fail });
    },
    async createWebhookEndpoint(input) {
      const answer = objectOf('createWebhookEndpoint', await call('createWebhookEndpoint', 'POST', '/__control/webhook-endpoints', { url: input.url, events: input.events, ...(input.enabled === undefined ? {} : { enabled: input.enabled }) }));
      stringField('createWebhookEndpoint', answer, 'id');
      stringField('createWebhookEndpoint', answer, 'secret');
      return answer as WebhookEndpoint;
    },
    async setWebhookEndpointEnabled(id, enabled) {
      await call('setWebhookEndpointEnabled', 'POST', `/__control/webhook-endpoints/${encodeURIComponent(id)}/enabled`, { enabled });
    },
    async refundOrder(orderId, input) {
      const body = input.amount === undefined ? {} : { amount: input.amount };
      return objectOf('refundOrder', await call('refundOrder', 'POST', `/__control/orders/${encodeURIComponent(orderId)}/refunds`, body));
    },
    async createCustomer(input) {
      const body = { ...(input.externalId ? { external_id: input.externalId } : {}), ...(input.email ? { email: input.email } : {}) };
      return objectOf('createCustomer', await call('createCustomer', 'POST', '/__control/customers', body));
    },
    async createProduct(input) {
      return objectOf('createProduct', await call('createProduct', 'POST', '/__control/products', input.name ? { name: input.name } : {}));
    },
    async createSubscription(input) {
      const body = { customer_id: input.customerId, status: input.status, ...(input.seats === undefined ? {} : { seats: input.seats }) };
      return objectOf('createSubscription', await call('createSubscription', 'POST', '/__control/subscriptions', body));
    },
    async grantLicenseKey(input) {
      const body = { customer_id: input.customerId, ...(input.benefitId ? { benefit_id: input.benefitId } : {}) };
      return objectOf('grantLicenseKey', await call('grantLicenseKey', 'POST', '/__control/license-keys', body));
    },
    async listEvents(filter = {}) {
      // One reading of a log at a time: another adapter of this process may be reading it too.
      const reading = read.reading.then(() => readNew());
      read.reading = reading.catch(() => undefined);
      await reading;
      return filter.type === undefined ? [...log] : log.filter((event) => event.type === filter.type);
    },
    async settleDeliveries(timeoutMs) {
      // The control API answers when deliveries settle or the wait ends: ask for less than the client's own deadline.
      const wait = Math.min(MAX_SETTLE_MS, Math.round(timeoutMs), target.timeoutMs - 1000);
      const answer = objectOf('settleDeliveries', await call('settleDeliveries', 'POST', '/__control/webhook-deliveries/settle', { timeout_ms: Math.max(0, wait) }));
      // An answer without a count says nothing about what is pending: the suites then wait by polling.
      return typeof answer.pending === 'number' ? { pending: answer.pending } : undefined;
    },
    async close() {
      if (own) await http.close();
    },
  };
}

/** The module export, so that `--adapter engine/adapters/reference.ts` works like any adapter module. */
export const createAdapter: AdapterFactory = (target) => createReferenceAdapter(target);
