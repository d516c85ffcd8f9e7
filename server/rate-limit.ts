/**
 * The API's request rate limit: 100 requests per second per client IP address, counted in fixed
 * one-second windows by @fastify/rate-limit. An exceeded limit is answered 429 with `Retry-After`
 * (whole seconds until the window ends) and the API's error body `{"error": "RateLimitExceeded",
 * "detail": ...}`; the API description shows neither the status nor the body, so both are the
 * reference's choice (docs/decisions.md).
 * @see spec/rules.yaml limits.rate; docs/server-behaviour.md (Rate limit)
 */
import { isIP } from 'node:net';
import rateLimitPlugin from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HarnessError } from '../core/errors.js';
import type { FaultSet } from './faults.js';
import { send } from './http.js';
import type { Reply } from './replies.js';

/** Requests per window per client IP of the API (section Limits). */
export const DEFAULT_RATE_LIMIT = 100;

/** Length of a counting window, in milliseconds (the limit is per second). */
export const RATE_LIMIT_WINDOW_MS = 1000;

/** The `error` value of a 429 body; the API description shows none, so this is the reference's. */
export const RATE_LIMIT_ERROR = 'RateLimitExceeded';

/** A rate limit in force: at most `max` requests per client IP in each window of `windowMs` milliseconds. */
export interface RateLimitSettings {
  /** Requests allowed per window, a positive integer. */
  max: number;
  /** Window length in milliseconds (default {@link RATE_LIMIT_WINDOW_MS}). */
  windowMs?: number;
  /**
   * Client IP addresses that are never counted (default none). The harness's embedded reference
   * exempts its own 127.0.0.1 and sends the `rate_limit_enforced` burst from 127.0.0.2, so that the
   * limit is on without throttling the rest of the run. IPv4-mapped IPv6 addresses
   * (`::ffff:127.0.0.1`) match their IPv4 form.
   */
  allowList?: readonly string[];
}

/** The build option: requests per second, `false` for no limit, or explicit settings (tests use long windows). */
export type RateLimitOption = number | false | RateLimitSettings;

/**
 * Whether a request path is counted. The reference-only routes under `/__` are not: the control
 * API is test machinery, and the upload part, receipt and invoice URLs stand in for a storage
 * service's presigned URLs, which the API's limit does not cover.
 */
export function isRateLimited(url: string): boolean {
  return !url.startsWith('/__');
}

/**
 * Resolves the build option to the limit in force.
 * @param option requests per second (a positive integer), `false`, or settings; undefined means the default of 100 per second
 * @returns the settings with their window, or `false` for no limit
 * @throws HarnessError CNF_ERR_CONFIG_INVALID for a limit that is not a positive integer or a window that is not a positive number of milliseconds
 */
export function resolveRateLimit(option: RateLimitOption | undefined): Required<RateLimitSettings> | false {
  if (option === false) return false;
  const settings = typeof option === 'object' ? option : { max: option ?? DEFAULT_RATE_LIMIT };
  const windowMs = settings.windowMs ?? RATE_LIMIT_WINDOW_MS;
  if (!Number.isInteger(settings.max) || settings.max < 1) {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `rate limit must be a positive integer of requests per second or off, not ${String(settings.max)}`);
  }
  if (!Number.isFinite(windowMs) || windowMs <= 0) {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `rate limit window must be a positive number of milliseconds, not ${String(windowMs)}`);
  }
  const allowList = settings.allowList ?? [];
  const notAddress = allowList.find((address) => isIP(address) === 0);
  if (notAddress !== undefined) throw new HarnessError('CNF_ERR_CONFIG_INVALID', `rate limit allow-list entries must be IP addresses, not ${JSON.stringify(notAddress)}`);
  return { max: settings.max, windowMs, allowList: [...allowList] };
}

/**
 * The 429 answer.
 * @param retryAfterSeconds whole seconds until the client's window ends (at least 1)
 * @param faults with `retry_after_malformed`, Retry-After is `<n> seconds`, neither delay-seconds nor an HTTP-date (RFC 9110 section 10.2.3)
 */
export function rateLimitReply(retryAfterSeconds: number, settings: Required<RateLimitSettings>, faults: FaultSet = new Set()): Reply {
  const per = settings.windowMs === RATE_LIMIT_WINDOW_MS ? 'second' : `${settings.windowMs} ms`;
  return {
    status: 429,
    headers: { 'retry-after': faults.has('retry_after_malformed') ? `${retryAfterSeconds} seconds` : String(retryAfterSeconds) },
    body: { error: RATE_LIMIT_ERROR, detail: `Rate limit exceeded: at most ${settings.max} requests per ${per} per IP address; retry in ${retryAfterSeconds} s.` },
  };
}

/**
 * Connections accepted on a reference's local socket (`StartOptions.socketPath` in server/index.ts).
 * Only the process that started the server knows that socket's path: the embedded target's own
 * harness, which the limit never counts, as it never counts the harness's 127.0.0.1 over TCP.
 */
const localClients = new WeakSet<object>();

/** Marks a connection accepted on the reference's local socket: the limit never counts it. */
export function markLocalClient(socket: object): void {
  localClients.add(socket);
}

/**
 * Whether a client is never counted: no limit in force, a connection of the local socket
 * ({@link markLocalClient}), or its address (IPv4-mapped IPv6 written as IPv4) in
 * `settings.allowList`.
 * @param socket the request's connection (`request.socket`)
 */
export function isExemptClient(settings: Required<RateLimitSettings> | false, socket: { remoteAddress?: string | undefined }): boolean {
  if (settings === false || localClients.has(socket)) return true;
  const address = socket.remoteAddress;
  return address !== undefined && settings.allowList.includes(clientAddress(address));
}

/** An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) as IPv4. */
function clientAddress(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.)/i, '');
}

/**
 * Installs the limit on every route of `app` (call before routes are served; requests to paths
 * that {@link isRateLimited} exempts are not counted, nor clients of `settings.allowList`). Does
 * nothing with `false` or with the `rate_limit_ignored` fault. The client is `request.ip` (the
 * socket's address; no proxy headers are trusted), IPv6 addresses grouped by /64 as the plugin does;
 * a connection of the local socket ({@link markLocalClient}) is not counted.
 */
export async function registerRateLimit(app: FastifyInstance, settings: Required<RateLimitSettings> | false, faults: FaultSet): Promise<void> {
  if (settings === false || faults.has('rate_limit_ignored')) return;
  // global: false: the plugin adds no hooks of its own; the one hook below decides what counts and
  // writes the 429 in the API's format instead of the plugin's error.
  await app.register(rateLimitPlugin, { global: false });
  const allowed = new Set(settings.allowList);
  const check = app.createRateLimit({
    max: settings.max,
    timeWindow: settings.windowMs,
    ...(allowed.size > 0 ? { allowList: (request: FastifyRequest) => allowed.has(clientAddress(request.ip)) } : {}),
  });
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    if (!isRateLimited(request.url) || localClients.has(request.raw.socket)) return;
    const limit = await check(request);
    if (limit.isAllowed || !limit.isExceeded) return;
    return send(reply, rateLimitReply(Math.max(1, limit.ttlInSeconds), settings, faults));
  });
}
