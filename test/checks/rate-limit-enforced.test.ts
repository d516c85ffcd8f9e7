// Table-driven tests of rate_limit_enforced over hand-made bursts: a refused burst passes, an
// unrefused one fails, a malformed Retry-After fails, and a burst answered too slowly (or too
// little) to exceed the limit is undecided, never passed.
import { describe, expect, test } from 'vitest';
import { burstOperation, burstSize, documentedRateLimit, rateLimitEnforced } from '../../checks/rate-limit-enforced.js';
import type { Exchange } from '../../core/types.js';
import { context, exchange, list, spec } from './fixtures.js';

/** What one request of a burst got: a status (with headers) answered `at` ms after the burst started, or no answer. */
type Answer = { status: number; at?: number; headers?: Record<string, string> } | 'no answer';

/** A burst of `count` requests, `answer(i)` saying what the i-th got. */
function burst(count: number, answer: (i: number) => Answer): { exchange: Exchange; history: Exchange[] } {
  const exchanges = Array.from({ length: count }, (_, i): Exchange => {
    const got = answer(i);
    if (got === 'no answer') return { ...exchange({ transportError: { code: 'ECONNRESET', message: 'reset' } }), offsetMs: 0 };
    const base = exchange(got.status === 200 ? { body: list([]) } : { status: got.status, body: { error: 'RateLimitExceeded', detail: 'slow down' } });
    return { ...base, offsetMs: 0, response: { ...base.response!, elapsedMs: got.at ?? 5, headers: { ...base.response!.headers, ...got.headers } } };
  });
  return { exchange: exchanges[exchanges.length - 1]!, history: exchanges.slice(0, -1) };
}

const N = 220;
const HTTP_DATE = 'Sun, 22 Nov 2026 10:00:01 GMT';
/** The first `n` requests served, the others refused with `headers`. */
const refusedAfter = (n: number, headers: Record<string, string> = {}) => (i: number): Answer => (i < n ? { status: 200 } : { status: 429, headers });

// [name, burst, expected kinds ([] = passes), undecided]
const cases: [string, ReturnType<typeof burst>, string[], boolean][] = [
  ['220 requests, the last 120 refused, passes', burst(N, refusedAfter(100, { 'retry-after': '1' })), [], false],
  ['one 429 is enough', burst(N, (i) => ({ status: i === 150 ? 429 : 200 })), [], false],
  ['a 429 without Retry-After passes (not required)', burst(N, refusedAfter(100)), [], false],
  ['a 429 whose Retry-After is an HTTP-date passes', burst(N, refusedAfter(100, { 'retry-after': HTTP_DATE })), [], false],
  ['a 429 whose Retry-After has a unit fails', burst(N, refusedAfter(100, { 'retry-after': '1 seconds' })), ['retry_after_malformed'], false],
  ['220 requests answered within a second, none refused, fails', burst(N, () => ({ status: 200, at: 300 })), ['rate_limit_not_enforced'], false],
  ['a slow 429 still counts: the target refused', burst(N, (i) => ({ status: i === N - 1 ? 429 : 200, at: 5000 })), [], false],
  ['201 answered within a second of 220 and none refused fails', burst(N, (i) => ({ status: 200, at: i < 201 ? 900 : 1500 })), ['rate_limit_not_enforced'], false],
  ['only 200 answered within a second is undecided (two fixed windows may hold 100 each)', burst(N, (i) => ({ status: 200, at: i < 200 ? 900 : 1500 })), [], true],
  ['a burst answered after a second is undecided', burst(N, () => ({ status: 200, at: 1500 })), [], true],
  ['a burst mostly unanswered is undecided', burst(N, (i) => (i < 150 ? 'no answer' : { status: 200 })), [], true],
];

describe('rate_limit_enforced', () => {
  test.each(cases)('%s', async (_name, { exchange: checked, history }, want, undecided) => {
    const ctx = await context('products:list');
    expect(rateLimitEnforced.run(ctx, checked, history).map((f) => f.kind)).toEqual(want);
    expect(rateLimitEnforced.undecided!(ctx, checked, history) !== undefined).toBe(undecided);
  });

  test.each<[string, string, true | RegExp]>([
    ['the first safe list of the document', 'products:list', true],
    ['another list', 'subscriptions:list', /^rate limit is per client, checked once on products:list$/],
    ['an operation that changes state', 'files:create', /checked once on products:list/],
  ])('applies to %s: %s', async (_name, operationId, want) => {
    const applies = rateLimitEnforced.appliesTo!(await context(operationId));
    if (want === true) expect(applies).toBe(true);
    else expect(applies).toMatch(want);
  });

  test('does not apply to a document that declares no rate limit', async () => {
    const ctx = await context('products:list');
    const { rateLimit: _declared, ...rest } = ctx.spec;
    expect(rateLimitEnforced.appliesTo!({ ...ctx, spec: rest as typeof ctx.spec })).toBe('the document declares no rate limit (x-rate-limit)');
  });

  test('a burst of the bundled document: 220 requests to products:list (twice 100 per second, and a margin)', async () => {
    const bundled = await spec();
    expect(documentedRateLimit(bundled)).toEqual({ requests: 100, windowMs: 1000 });
    expect(burstSize(documentedRateLimit(bundled)!)).toBe(220);
    expect(burstOperation(bundled)?.operationId).toBe('products:list');
  });
});
