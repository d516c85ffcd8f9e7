/**
 * Webhook delivery: every event appended to the store's log is POSTed to every enabled webhook
 * endpoint of the event's organization whose `events` array names the event type, as the envelope
 * `{type, timestamp, data}` in JSON, signed as the platform signs (server/webhooks/signature.ts). Delivery runs after
 * the request that caused the event, one lane per endpoint (an endpoint gets its events one at a
 * time, in the order they happened), with a timeout per attempt and exponential backoff between
 * attempts; every attempt is kept in the delivery log.
 * @see spec/rules.yaml events.delivery_to_subscribed_endpoints, events.signature, webhooks.standard_webhooks_signature
 * @see docs/server-behaviour.md (Webhooks); docs/decisions.md ("Webhook delivery is per endpoint, in order, one at a time")
 */
import { createHash } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Agent } from 'undici';
import { eventOrganization, notifyStoreChanged, onEventAppended, type MachineContext } from '../events.js';
import type { EventRecord } from '../records.js';
import { renderTimestamp } from '../render.js';
import { fail, ok, type Result } from '../result.js';
import { nowTimestamp } from '../store.js';
import type { WebhookDeliveryAttempt } from './deliveries.js';
import { signDelivery } from './signature.js';

/** Attempts per event and endpoint, the first included. */
export const DEFAULT_MAX_ATTEMPTS = 5;
/** Delay before the second attempt in milliseconds; each later delay doubles it (1, 2, 4, 8 s). */
export const DEFAULT_RETRY_DELAY_MS = 1000;
/** Time an endpoint has to answer one attempt, in milliseconds. */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
/** The User-Agent of deliveries. */
export const DELIVERY_USER_AGENT = 'billing-api-reference-webhooks/1';

/** Options of webhook delivery (build option `webhooks`). */
export interface WebhookDeliveryOptions {
  /** Deliver at all (default true); with false nothing is sent and nothing is logged. */
  enabled?: boolean;
  /** Attempts per event and endpoint, the first included (default {@link DEFAULT_MAX_ATTEMPTS}). */
  maxAttempts?: number;
  /** Milliseconds before the second attempt, doubled for each later one (default {@link DEFAULT_RETRY_DELAY_MS}; tests use a few ms). */
  retryDelayMs?: number;
  /** Milliseconds an endpoint has to answer an attempt (default {@link DEFAULT_DELIVERY_TIMEOUT_MS}). */
  timeoutMs?: number;
  /**
   * Which endpoint URLs may be contacted (default {@link isLoopbackUrl}: the demo data's endpoints
   * have made-up public URLs, and the reference must not send traffic off the machine). A URL
   * refused here gets one failed attempt in the log, with the reason, and no retry.
   */
  allowUrl?: (url: URL) => boolean;
  /**
   * The port the reference itself listens on, once it listens: a URL on this machine at that port
   * is never contacted (an endpoint fed by the reference's own operations or control API would feed
   * itself without end). Its attempt is logged as not sent, without retry.
   */
  ownPort?: () => number | undefined;
}

/**
 * Whether a URL points back at the reference itself: a loopback or unspecified host
 * (`0.0.0.0`, `[::]`) or an address of one of this machine's interfaces, at the port the
 * reference listens on (no DNS lookup: a name other than localhost is not resolved).
 * @param ownPort the reference's port, or undefined before it listens (then nothing is itself)
 */
export function pointsAtItself(url: URL, ownPort: number | undefined): boolean {
  if (ownPort === undefined) return false;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (port !== ownPort) return false;
  const host = url.hostname.toLowerCase();
  if (isLoopbackUrl(url) || host === '0.0.0.0' || host === '[::]') return true;
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  return Object.values(networkInterfaces()).some((addresses) => addresses?.some((address) => address.address.toLowerCase() === bare));
}

/** The delivery engine of one server. */
export interface WebhookDispatcher {
  /** Resolves when no delivery is queued, waiting for a retry or in flight (at once when none is). */
  idle(): Promise<void>;
  /** Deliveries queued, waiting or in flight, over all endpoints. */
  pending(): number;
  /** Drops every queued, waiting and in-flight delivery without logging it (the control API's reset). */
  reset(): void;
  /**
   * Sends a logged attempt's event to its endpoint once more, as one new attempt numbered after the
   * last of that event and endpoint (no retry of its own), after what the endpoint has queued.
   * @returns the attempt number it will have; NOT_FOUND (no such attempt, or its event or endpoint
   *   is gone from the store) or CONFLICT (the endpoint is disabled, or delivery is off)
   */
  resend(deliveryId: string): Result<{ event_id: string; endpoint_id: string; attempt: number }, { code: 'NOT_FOUND' | 'CONFLICT'; message: string }>;
  /** Stops for good: drops what is pending, aborts what is in flight, closes the connections. */
  close(): Promise<void>;
}

/**
 * Whether a URL names this machine: `localhost`, 127.0.0.0/8 or `[::1]`, without a DNS lookup.
 * @see RFC 6761 section 6.3 (localhost); RFC 1122 section 3.2.1.3 (127/8)
 */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The first {@link KEPT_ANSWER_BYTES} bytes of an endpoint's answer as text (an ellipsis when there
 * was more); at most 64 KiB are read, so that an endpoint answering without end holds nothing.
 * @returns the text, or null for an empty answer or one that could not be read
 */
async function keptAnswer(body: AsyncIterable<Buffer | Uint8Array>): Promise<string | null> {
  const kept: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      if (size < KEPT_ANSWER_BYTES) kept.push(Buffer.from(chunk));
      size += chunk.length;
      // Leaving the loop destroys the rest of the body, as the dump with a limit did.
      if (size >= 64 * 1024) break;
    }
  } catch {
    // A body cut short: what arrived is the answer.
  }
  if (size === 0) return null;
  const text = new TextDecoder().decode(Buffer.concat(kept).subarray(0, KEPT_ANSWER_BYTES));
  return size > KEPT_ANSWER_BYTES ? `${text}…` : text;
}

/** The JSON body of a delivery: the spec's Event envelope, timestamps as the API version shows them. */
export function deliveryBody(ctx: MachineContext, event: EventRecord): string {
  return JSON.stringify({ type: event.type, timestamp: renderTimestamp(ctx, event.timestamp), data: event.data });
}

/** A delivery attempt's id: a UUID derived from the event, the endpoint and the attempt, so that ids do not consume the store's id sequence (records created after a delivery keep the ids they would have had without it). */
function attemptId(eventId: string, endpointId: string, attempt: number): string {
  const hex = createHash('sha256').update(`webhook-delivery:${eventId}:${endpointId}:${attempt}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** An event queued for an endpoint, with the numbers of its first and last attempts (a resend is one attempt after the earlier ones). */
interface Queued {
  event: EventRecord;
  first: number;
  last: number;
}

/** One endpoint's queue: events in the order they happened; `cancelled` once a reset or close dropped it. */
interface Lane {
  endpointId: string;
  events: Queued[];
  cancelled: boolean;
}

/** Bytes of an endpoint's answer kept in the delivery log (the rest is read, up to 64 KiB, and dropped). */
export const KEPT_ANSWER_BYTES = 2048;

/** What one attempt came to. */
interface Outcome {
  responseStatus: number | null;
  /** The endpoint's answer, its first {@link KEPT_ANSWER_BYTES} bytes as UTF-8 text, or null when there was none. */
  responseBody?: string | null;
  error: string | null;
  /** Whether another attempt may succeed (false for a URL that will never be sent to). */
  retriable: boolean;
}

/**
 * Starts delivering the events of `ctx.store`: listens to its event log until {@link WebhookDispatcher.close}.
 * @param ctx store, API version (of the envelope's timestamp) and faults (`webhook_unsigned`,
 *   `webhook_wrong_signature`, `webhook_decoded_key`, `webhook_test_clock_timestamp`, `webhook_disabled_delivered`)
 */
export function createWebhookDispatcher(ctx: MachineContext, options: WebhookDeliveryOptions = {}): WebhookDispatcher {
  const { store, faults } = ctx;
  const enabled = options.enabled ?? true;
  const maxAttempts = Math.max(1, Math.trunc(options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS));
  const retryDelayMs = Math.max(0, options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS);
  const timeoutMs = Math.max(1, options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS);
  const allowUrl = options.allowUrl ?? isLoopbackUrl;
  // undici is loaded with the first delivery: most servers never deliver, and it costs a start 80 ms.
  let client: Promise<{ agent: Agent; request: typeof import('undici').request }> | undefined;
  const clientOf = () => (client ??= import('undici').then(({ Agent, request }) => ({
    agent: new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs }),
    request,
  })));

  let lanes = new Map<string, Lane>();
  let stop = new AbortController();
  let closed = false;
  const running = new Set<Promise<void>>();
  let waiters: (() => void)[] = [];

  const pending = () => [...lanes.values()].reduce((sum, lane) => sum + lane.events.length, 0);
  const settle = () => {
    if (running.size > 0) return;
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };

  const log = (lane: Lane, event: EventRecord, attempt: number, url: string, startedAt: string, durationMs: number, outcome: Outcome) => {
    if (lane.cancelled) return;
    const entry: WebhookDeliveryAttempt = {
      id: attemptId(event.id, lane.endpointId, attempt),
      endpoint_id: lane.endpointId,
      event_id: event.id,
      event_type: event.type,
      attempt,
      url,
      status: outcome.responseStatus !== null && outcome.responseStatus >= 200 && outcome.responseStatus < 300 ? 'succeeded' : 'failed',
      response_status: outcome.responseStatus,
      response_body: outcome.responseBody ?? null,
      error: outcome.error,
      duration_ms: Math.round(durationMs * 1000) / 1000,
      created_at: startedAt,
      delivered_at: nowTimestamp(store),
    };
    store.deliveries.push(entry);
    notifyStoreChanged(store);
    return entry;
  };

  const send = async (url: URL, secret: string, event: EventRecord, signal: AbortSignal): Promise<Outcome> => {
    let body: string;
    try {
      body = deliveryBody(ctx, event);
    } catch (error) {
      // Data nested deeper than JSON.stringify can go: no attempt can ever succeed.
      return { responseStatus: null, error: `not sent: the event cannot be serialized (${(error as Error).message})`, retriable: false };
    }
    // Signed at each attempt with the wall clock's second: a test clock moves the body's timestamp, never the signature's.
    const headers = { 'content-type': 'application/json', 'user-agent': DELIVERY_USER_AGENT, ...signDelivery(secret, event.id, { sentAt: new Date(), clockAt: store.clock() }, body, faults) };
    try {
      const { agent, request } = await clientOf();
      const answer = await request(url, { method: 'POST', headers, body, dispatcher: agent, signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) });
      const responseBody = await keptAnswer(answer.body);
      const ok = answer.statusCode >= 200 && answer.statusCode < 300;
      return { responseStatus: answer.statusCode, responseBody, error: ok ? null : `HTTP ${answer.statusCode}`, retriable: !ok };
    } catch (error) {
      const err = error as Error & { code?: string };
      const timedOut = err.name === 'TimeoutError' || /TIMEOUT/i.test(err.code ?? '');
      return { responseStatus: null, error: timedOut ? `timeout after ${timeoutMs} ms` : (err.code ?? err.message), retriable: true };
    }
  };

  /** Delivers one event to the lane's endpoint, retrying with backoff, until a 2xx, the last attempt, or a cancel. */
  const deliver = async (lane: Lane, { event, first, last }: Queued) => {
    for (let attempt = first; attempt <= last && !lane.cancelled; attempt++) {
      const endpoint = store.webhookEndpoints.get(lane.endpointId);
      // An endpoint disabled after the event stops receiving it (unless the fault delivers to disabled ones).
      if (!endpoint || (!endpoint.enabled && !faults.has('webhook_disabled_delivered'))) return;
      const startedAt = nowTimestamp(store);
      let target: URL | undefined;
      try {
        target = new URL(endpoint.url);
      } catch {
        target = undefined;
      }
      if (!target || (target.protocol !== 'http:' && target.protocol !== 'https:')) {
        log(lane, event, attempt, endpoint.url, startedAt, 0, { responseStatus: null, error: 'not sent: the endpoint URL is not an absolute http(s) URL', retriable: false });
        return;
      }
      if (pointsAtItself(target, options.ownPort?.())) {
        log(lane, event, attempt, endpoint.url, startedAt, 0, { responseStatus: null, error: 'not sent: the URL points at the reference server itself', retriable: false });
        return;
      }
      if (!allowUrl(target)) {
        log(lane, event, attempt, endpoint.url, startedAt, 0, { responseStatus: null, error: `not sent: ${target.hostname} is not an allowed host (the reference delivers to loopback addresses only)`, retriable: false });
        return;
      }
      const started = performance.now();
      const outcome = await send(target, endpoint.secret, event, stop.signal);
      const entry = log(lane, event, attempt, endpoint.url, startedAt, performance.now() - started, outcome);
      if (!entry || entry.status === 'succeeded' || !outcome.retriable || attempt === last) return;
      try {
        await sleep(retryDelayMs * 2 ** (attempt - first), undefined, { signal: stop.signal });
      } catch {
        return;
      }
    }
  };

  const drain = async (lane: Lane) => {
    // Let the request that emitted the event finish first: delivery never runs inside it.
    await new Promise((resolve) => setImmediate(resolve));
    while (lane.events.length > 0 && !lane.cancelled) {
      await deliver(lane, lane.events[0]!);
      lane.events.shift();
    }
    if (lanes.get(lane.endpointId) === lane && lane.events.length === 0) lanes.delete(lane.endpointId);
  };

  const start = (lane: Lane) => {
    const run: Promise<void> = drain(lane)
      .catch((error: unknown) => {
        // A bug here must not take the server down; the lane is dropped.
        lane.cancelled = true;
        process.emitWarning(`webhook delivery stopped for endpoint ${lane.endpointId}: ${(error as Error).message}`);
      })
      .finally(() => {
        running.delete(run);
        settle();
      });
    running.add(run);
  };

  const enqueue = (endpointId: string, queued: Queued) => {
    const lane = lanes.get(endpointId);
    if (lane) {
      lane.events.push(queued);
    } else {
      const created: Lane = { endpointId, events: [queued], cancelled: false };
      lanes.set(endpointId, created);
      start(created);
    }
  };

  const resend: WebhookDispatcher['resend'] = (deliveryId) => {
    const logged = (store.deliveries as unknown as WebhookDeliveryAttempt[]).find((attempt) => attempt.id === deliveryId.toLowerCase());
    if (!logged) return fail({ code: 'NOT_FOUND', message: `Webhook delivery ${deliveryId} not found.` });
    const event = store.events.find((candidate) => candidate.id === logged.event_id);
    if (!event) return fail({ code: 'NOT_FOUND', message: `Event ${logged.event_id} is no longer in the event log (a reset, or older than its newest ${store.events.capacity} events).` });
    const endpoint = store.webhookEndpoints.get(logged.endpoint_id);
    if (!endpoint) return fail({ code: 'NOT_FOUND', message: `Webhook endpoint ${logged.endpoint_id} not found.` });
    if (closed || !enabled) return fail({ code: 'CONFLICT', message: 'Webhook delivery is off on this server.' });
    if (!endpoint.enabled && !faults.has('webhook_disabled_delivered')) return fail({ code: 'CONFLICT', message: `Webhook endpoint ${endpoint.id} is disabled.` });
    const queued = [...(lanes.get(endpoint.id)?.events ?? [])].filter((item) => item.event.id === event.id).map((item) => item.last);
    const logs = (store.deliveries as unknown as WebhookDeliveryAttempt[]).filter((attempt) => attempt.event_id === event.id && attempt.endpoint_id === endpoint.id).map((attempt) => attempt.attempt);
    const attempt = Math.max(0, ...logs, ...queued) + 1;
    enqueue(endpoint.id, { event, first: attempt, last: attempt });
    return ok({ event_id: event.id, endpoint_id: endpoint.id, attempt });
  };

  const unsubscribe = onEventAppended(store, (event) => {
    if (closed || !enabled) return;
    const organizationId = eventOrganization(store, event);
    if (organizationId === undefined) return;
    for (const endpoint of store.webhookEndpoints.inOrganization(organizationId)) {
      if (!endpoint.events.includes(event.type)) continue;
      if (!endpoint.enabled && !faults.has('webhook_disabled_delivered')) continue;
      enqueue(endpoint.id, { event, first: 1, last: maxAttempts });
    }
  });

  const cancelAll = () => {
    for (const lane of lanes.values()) lane.cancelled = true;
    lanes = new Map();
    stop.abort();
    stop = new AbortController();
  };

  return {
    idle: () => (running.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    pending,
    reset: cancelAll,
    resend,
    async close() {
      if (closed) return;
      closed = true;
      unsubscribe();
      cancelAll();
      await Promise.allSettled([...running]);
      if (client) await (await client).agent.destroy().catch(() => undefined);
      settle();
    },
  };
}
