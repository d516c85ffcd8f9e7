import type { Check, CheckContext, Exchange } from '../core/types.js';
import type { LoadedSpec, Operation } from '../core/spec/load.js';
import { retryAfterProblem } from './response-headers-conformance.js';
import { brief } from './support.js';

/** Requests of a burst beyond twice the limit, so that a few slow answers still leave it decisive. */
const BURST_MARGIN = 20;

/** The document's rate limit (`x-rate-limit`) as requests per window of `windowMs` milliseconds. */
export interface RateLimit {
  requests: number;
  windowMs: number;
}

/** The rate limit the document declares (`info.x-rate-limit`), or undefined when it declares none. */
export function documentedRateLimit(spec: LoadedSpec): RateLimit | undefined {
  if (!spec.rateLimit) return undefined;
  return { requests: spec.rateLimit.requests, windowMs: spec.rateLimit.per_seconds * 1000 };
}

/**
 * How many requests a burst sends: twice the limit plus a margin. Requests that all arrive within
 * one window's length fall into at most two fixed windows, so one of them holds more than the
 * limit whatever the alignment; a token bucket of the limit's size, refilled at its rate, admits
 * fewer than twice the limit in that time; a sliding window, the limit. Any of them must refuse one.
 */
export function burstSize(limit: RateLimit): number {
  return 2 * limit.requests + BURST_MARGIN;
}

/**
 * The operation the burst goes to: the first GET of the document without required parameters,
 * a paginated list by preference (products:list in the bundled document). The limit applies to
 * a client address and the API as a whole, so one operation is enough.
 */
export function burstOperation(spec: LoadedSpec): Operation | undefined {
  const candidates = spec.operations.filter((o) => o.method === 'GET' && !o.parameters.some((p) => p.required));
  return candidates.find((o) => o.paginated) ?? candidates[0];
}

/** Requests of a burst whose answer came within one window of the burst's start: those the target surely received in that window. */
function answeredInWindow(burst: readonly Exchange[], limit: RateLimit): number {
  return burst.filter((e) => e.response && (e.offsetMs ?? 0) + e.response.elapsedMs < limit.windowMs).length;
}

function perWindow(limit: RateLimit): string {
  return limit.windowMs === 1000 ? 'second' : `${limit.windowMs} ms`;
}

function limitOf(ctx: CheckContext): RateLimit {
  // appliesTo has made sure the document declares one.
  return documentedRateLimit(ctx.spec)!;
}

/**
 * A burst of more than twice the API's limit from one client address, all answered within one
 * second, gets at least one 429 (the API description shows no status for an exceeded limit;
 * docs/design.md asserts the class, 429). Retry-After is not required, since rate-limit headers are
 * "not shown"; when a 429 carries one it must be delay-seconds or an HTTP-date. A burst answered
 * too slowly to exceed the limit decides nothing and is reported as skipped with the reason.
 * @see spec/rules.yaml limits.rate (Request rate: 100 requests per second per IP address)
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3
 */
export const rateLimitEnforced: Check = {
  id: 'rate_limit_enforced',
  title: 'Rate limit not enforced',
  severity: 'medium',
  rule: 'limits.rate',
  layer: 'api',
  evidence: 'probe',
  conformanceClass: 'limits',
  level: 'should',
  needs: 'burst',
  appliesTo(ctx) {
    if (!documentedRateLimit(ctx.spec)) return 'the document declares no rate limit (x-rate-limit)';
    const chosen = burstOperation(ctx.spec);
    if (!chosen) return 'the document has no GET operation without required parameters to send a burst to';
    if (chosen.operationId !== ctx.operation.operationId) return `rate limit is per client, checked once on ${chosen.operationId}`;
    return true;
  },
  undecided(ctx, exchange, history) {
    const burst = [...history, exchange];
    if (burst.some((e) => e.response?.status === 429)) return undefined;
    const limit = limitOf(ctx);
    const answered = answeredInWindow(burst, limit);
    if (answered > 2 * limit.requests) return undefined;
    return `only ${answered} of the burst's ${burst.length} requests were answered within ${limit.windowMs} ms, not more than ${2 * limit.requests}: too few to exceed ${limit.requests} per ${perWindow(limit)} under every window alignment`;
  },
  run(ctx, exchange, history) {
    const burst = [...history, exchange];
    const limited = burst.filter((e) => e.response?.status === 429);
    if (limited.length > 0) {
      const malformed = limited.find((e) => {
        const value = e.response!.headers['retry-after'];
        return value !== undefined && retryAfterProblem(value) !== undefined;
      });
      if (!malformed) return [];
      const value = malformed.response!.headers['retry-after']!;
      return [{
        kind: 'retry_after_malformed',
        title: 'Malformed Retry-After on 429',
        message: `A 429 of the burst carries Retry-After ${brief(value, 80)}, ${retryAfterProblem(value)} (RFC 9110 section 10.2.3).`,
        expected: 'delay-seconds (digits) or an IMF-fixdate, or no Retry-After',
        actual: value,
      }];
    }
    const limit = limitOf(ctx);
    const answered = answeredInWindow(burst, limit);
    // Too few answers within the window to be sure the limit was exceeded: `undecided` says so.
    if (answered <= 2 * limit.requests) return [];
    const statuses = [...new Set(burst.map((e) => e.response?.status ?? e.transportError?.code))].join(', ');
    return [{
      kind: 'rate_limit_not_enforced',
      title: 'Rate limit not enforced',
      message: `${answered} requests from one address were answered within ${limit.windowMs} ms and none got 429 (statuses: ${statuses}); the API allows ${limit.requests} per ${perWindow(limit)} per IP address. Send ${burst.length} of the request below at once to reproduce.`,
      expected: `at least one 429 among more than ${2 * limit.requests} requests within ${limit.windowMs} ms`,
      actual: { requests: burst.length, answeredInWindow: answered, statuses },
    }];
  },
};
