/**
 * The evidence of `rate_limit_enforced`: one valid request sent many times at once from one client
 * address, past the harness's pacing and without waiting out 429s, followed by a pause so that the
 * rest of the run is not throttled; a burst from an address of its own (the embedded reference's
 * {@link BURST_SOURCE_ADDRESS}, which no other request of the run comes from) needs none.
 * @see spec/rules.yaml limits.rate; docs/usage.md (Pointing it at a target: the rate-limit check's burst)
 */
import { createServer } from 'node:net';
import { Pool } from 'undici';
import { retryAfterProblem } from '../checks/response-headers-conformance.js';
import type { Operation } from '../core/spec/load.js';
import { buildRequest } from './client.js';
import type { Target } from '../core/target.js';
import type { Exchange, HttpResponse, QueryValues, TestCase } from '../core/types.js';

/** The address the harness's own traffic comes from; the embedded reference exempts it from its rate limit. */
export const HARNESS_SOURCE_ADDRESS = '127.0.0.1';
/** The loopback address the burst to the embedded reference comes from, which the reference counts. */
export const BURST_SOURCE_ADDRESS = '127.0.0.2';
/** Connections a burst opens at once. */
export const BURST_CONNECTIONS = 32;
/** Pause after a burst when no 429 says how long, in milliseconds (one window of the API's limit). */
export const DEFAULT_PAUSE_MS = 1000;
/** Longest Retry-After honoured after a burst, in milliseconds; a longer one is cut to it. */
export const MAX_PAUSE_MS = 30_000;

/** What a burst sends: how many copies of the case, from which source address (default: the system's choice). */
export interface BurstPlan {
  requests: number;
  sourceAddress?: string;
}

/** The query of a burst request: the smallest page where the operation has a `limit`, so every answer is cheap. */
export function burstQuery(operation: Operation): QueryValues {
  return operation.parameters.some((p) => p.in === 'query' && p.name === 'limit') ? { limit: '1' } : {};
}

/**
 * Why requests cannot come from `address` on this machine (a loopback address other than
 * 127.0.0.1 is not configured on every system), or undefined when a socket can bind it.
 */
export async function sourceAddressProblem(address: string): Promise<string | undefined> {
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: address, port: 0 }, resolve);
    });
    return undefined;
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    return `cannot send from ${address} on this machine (${err.code ?? err.message}); the embedded reference exempts ${HARNESS_SOURCE_ADDRESS}, so the rate-limit burst needs another loopback address`;
  } finally {
    if (server.listening) await new Promise((resolve) => server.close(resolve));
  }
}

/**
 * How long to wait after a burst before sending anything else, in milliseconds: the longest
 * Retry-After of its 429s (delay-seconds or an HTTP-date) when one is valid, else one second;
 * at most {@link MAX_PAUSE_MS}.
 */
export function pauseAfter(exchanges: readonly Exchange[], now = Date.now()): number {
  let longest: number | undefined;
  for (const exchange of exchanges) {
    const value = exchange.response?.status === 429 ? exchange.response.headers['retry-after'] : undefined;
    if (value === undefined || retryAfterProblem(value) !== undefined) continue;
    const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Math.max(0, Date.parse(value) - now);
    longest = Math.max(longest ?? 0, ms);
  }
  return Math.min(longest ?? DEFAULT_PAUSE_MS, MAX_PAUSE_MS);
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/**
 * Sends `plan.requests` copies of a case at once over {@link BURST_CONNECTIONS} connections of
 * their own (from `plan.sourceAddress` when given), neither paced nor retried on 429, then, when
 * sent from the default address (the one the rest of the run comes from), waits {@link pauseAfter}
 * the burst. From `plan.sourceAddress` it does not wait: the limit is per client address, and no
 * other request of the run comes from that one (the embedded reference exempts the harness's
 * own). Each exchange's case id is `<case id>/b<n>`, and its `offsetMs` says when it was sent
 * after the first. Never rejects for target behaviour: a request without an
 * answer within `target.timeoutMs` is an exchange with `transportError`.
 * @returns the exchanges in the order they were sent
 */
export async function sendBurst(target: Target, operation: Operation, testCase: TestCase, plan: BurstPlan): Promise<Exchange[]> {
  const url = new URL(target.baseUrl);
  const pool = new Pool(url.origin, {
    connections: BURST_CONNECTIONS,
    headersTimeout: target.timeoutMs,
    bodyTimeout: target.timeoutMs,
    ...(plan.sourceAddress ? { localAddress: plan.sourceAddress } : {}),
  });
  const started = performance.now();
  const sendOne = async (n: number): Promise<Exchange> => {
    const burstCase: TestCase = { ...testCase, id: `${testCase.id}/b${n}` };
    const request = buildRequest(target, operation, burstCase);
    const offsetMs = Math.round((performance.now() - started) * 1000) / 1000;
    const exchange: Exchange = { case: burstCase, operationId: operation.operationId, request, offsetMs };
    const sent = performance.now();
    try {
      const wire = new URL(request.url);
      const answer = await pool.request({
        path: `${wire.pathname}${wire.search}`,
        method: request.method as 'GET',
        headers: request.headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        signal: AbortSignal.timeout(target.timeoutMs),
      });
      const body = await answer.body.text();
      const response: HttpResponse = {
        status: answer.statusCode,
        headers: flattenHeaders(answer.headers),
        body,
        elapsedMs: Math.round((performance.now() - sent) * 1000) / 1000,
      };
      try {
        if (body.length > 0) response.json = JSON.parse(body);
      } catch {
        // Not JSON: the burst judges statuses only.
      }
      exchange.response = response;
    } catch (error) {
      const err = error as Error & { code?: string };
      const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError' || /timeout/i.test(err.code ?? '');
      exchange.transportError = { code: timedOut ? 'CNF_TIMEOUT' : (err.code ?? err.name), message: timedOut ? `no complete answer within ${target.timeoutMs} ms` : err.message };
    }
    return exchange;
  };
  let exchanges: Exchange[];
  try {
    exchanges = await Promise.all(Array.from({ length: plan.requests }, (_, i) => sendOne(i + 1)));
  } finally {
    await pool.close().catch(() => undefined);
  }
  if (!plan.sourceAddress) await new Promise((resolve) => setTimeout(resolve, pauseAfter(exchanges)));
  return exchanges;
}
