/**
 * A local webhook receiver for the stateful suites: a node:http server on 127.0.0.1 (port 0, a
 * free one) that answers every request 204 and records it, so that a scenario can register its
 * URLs as webhook endpoints and judge what arrives. Each endpoint gets its own path
 * (`/hooks/<name>`), so one receiver serves several endpoints.
 * @see docs/server-behaviour.md (Webhooks); docs/stateful.md (the webhook scenarios)
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SettledDeliveries } from './adapter.js';

/** Largest body kept per request, in bytes; the rest is dropped. */
const MAX_BODY_BYTES = 1024 * 1024;

/** One request the receiver got. */
export interface ReceivedRequest {
  method: string;
  /** The path and query as requested (`/hooks/subscribed`). */
  path: string;
  /** Header names lower-case, repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The raw body as text, exactly as signed. */
  body: string;
  /** `Date.now()` when the body had arrived. */
  receivedAt: number;
}

/** A listening receiver. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** The URL of one endpoint's path: `<origin>/hooks/<name>`. */
  urlFor(name: string): string;
  /** Every request so far, in arrival order. */
  readonly received: readonly ReceivedRequest[];
  /** The requests that arrived at `urlFor(name)`. */
  receivedBy(name: string): ReceivedRequest[];
  /**
   * Waits until `done` holds for what has arrived, or `timeoutMs` has passed.
   * @returns whether it held in time
   */
  waitFor(done: (received: readonly ReceivedRequest[]) => boolean, timeoutMs: number): Promise<boolean>;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** What a receiver answers a request: a status and, optionally, a body (sent as JSON when it is not a string). */
export interface ReceiverAnswer {
  status: number;
  body?: unknown;
}

/** Options of {@link startWebhookReceiver}. */
export interface WebhookReceiverOptions {
  /** The answer to each request, made once it has arrived (default 204 without a body): an app's endpoint answers something, which the reference keeps per attempt. */
  answer?: (request: ReceivedRequest) => ReceiverAnswer;
}

/**
 * Starts a receiver on 127.0.0.1.
 * @param port default 0, a free port
 * @throws the listen error (EADDRINUSE) as Node throws it
 */
export async function startWebhookReceiver(port = 0, options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  let waiters: (() => void)[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      if (size < MAX_BODY_BYTES) chunks.push(chunk);
      size += chunk.length;
    });
    request.on('end', () => {
      const arrived: ReceivedRequest = { method: request.method ?? '', path: request.url ?? '', headers: flatten(request.headers), body: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8'), receivedAt: Date.now() };
      received.push(arrived);
      const answer = options.answer?.(arrived);
      if (!answer || answer.body === undefined) {
        response.writeHead(answer?.status ?? 204).end();
      } else {
        const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
        response.writeHead(answer.status, { 'content-type': typeof answer.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json' }).end(text);
      }
      const ready = waiters;
      waiters = [];
      for (const wake of ready) wake();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pathOf = (name: string) => `/hooks/${encodeURIComponent(name)}`;
  return {
    origin,
    urlFor: (name) => `${origin}${pathOf(name)}`,
    received,
    receivedBy: (name) => received.filter((r) => r.path.split('?')[0] === pathOf(name)),
    async waitFor(done, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!done(received)) {
        const left = deadline - Date.now();
        if (left <= 0) return false;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** How long a delivery may still take to be recorded after the target said its deliveries settled, in milliseconds. */
export const SETTLED_WAIT_MS = 500;

/** Longest single wait for the target's deliveries to settle while a delivery is awaited, in milliseconds: one that arrives meanwhile is seen within it. */
const SETTLE_STEP_MS = 250;

/**
 * Waits until `done` holds of what `receiver` has got, or `timeoutMs` (milliseconds) has passed.
 * With `settle` (the adapter's `settleDeliveries`, core/adapter.ts), it asks the target, in waits
 * of at most 250 ms, whether its deliveries have settled; once the target answers `{ pending: 0 }`
 * it waits at most {@link SETTLED_WAIT_MS} more, since a delivery not made by then will not come:
 * a target that never emits the awaited event is judged in half a second, not at the deadline. A
 * settle that fails or answers nothing leaves the wait to the deadline, as without `settle`.
 * @returns whether `done` held in time
 */
export async function awaitDeliveries(
  receiver: WebhookReceiver,
  done: (received: readonly ReceivedRequest[]) => boolean,
  timeoutMs: number,
  settle?: (timeoutMs: number) => Promise<void | SettledDeliveries>,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const left = () => Math.max(0, deadline - Date.now());
  while (settle && !done(receiver.received) && left() > 0) {
    const asked = Date.now();
    const outcome = await settle(Math.min(left(), SETTLE_STEP_MS)).catch(() => undefined);
    if (!outcome) break;
    if (outcome.pending === 0) return receiver.waitFor(done, Math.min(SETTLED_WAIT_MS, left()));
    // Deliveries still pending: a target that answered before the step was over is not asked again sooner.
    if (await receiver.waitFor(done, Math.min(left(), Math.max(0, SETTLE_STEP_MS - (Date.now() - asked))))) return true;
  }
  return receiver.waitFor(done, left());
}
