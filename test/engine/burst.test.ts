// The burst of rate_limit_enforced: sent at once from its source address, never retried on 429,
// followed by a pause that honours Retry-After. The cell that sends it: test/engine/cell/burst.test.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BURST_SOURCE_ADDRESS, burstQuery, DEFAULT_PAUSE_MS, MAX_PAUSE_MS, pauseAfter, sendBurst, sourceAddressProblem } from '../../engine/burst.js';
import type { Target } from '../../core/target.js';
import type { Exchange } from '../../core/types.js';
import { exchange, spec } from '../checks/fixtures.js';

const linux = process.platform === 'linux';

function answered(status: number, headers: Record<string, string> = {}): Exchange {
  const base = exchange({ status, body: {} });
  return { ...base, response: { ...base.response!, headers: { ...base.response!.headers, ...headers } } };
}

describe('pauseAfter', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');
  test.each<[string, Exchange[], number]>([
    ['no 429: one second', [answered(200), answered(200)], DEFAULT_PAUSE_MS],
    ['the longest Retry-After in seconds', [answered(429, { 'retry-after': '1' }), answered(429, { 'retry-after': '3' })], 3000],
    ['Retry-After 0', [answered(429, { 'retry-after': '0' })], 0],
    ['an HTTP-date Retry-After', [answered(429, { 'retry-after': 'Sun, 22 Nov 2026 10:00:02 GMT' })], 2000],
    ['a malformed Retry-After: one second', [answered(429, { 'retry-after': 'soon' })], DEFAULT_PAUSE_MS],
    ['a 429 without Retry-After: one second', [answered(429)], DEFAULT_PAUSE_MS],
    ['Retry-After on a 200 is not the limit\'s', [answered(200, { 'retry-after': '9' })], DEFAULT_PAUSE_MS],
    ['a very long Retry-After is cut', [answered(429, { 'retry-after': '3600' })], MAX_PAUSE_MS],
  ])('%s', (_name, exchanges, want) => {
    expect(pauseAfter(exchanges, now)).toBe(want);
  });
});

describe('sourceAddressProblem', () => {
  test.runIf(linux)('127.0.0.2 can be bound on Linux (all of 127.0.0.0/8 is loopback)', async () => {
    expect(await sourceAddressProblem(BURST_SOURCE_ADDRESS)).toBeUndefined();
  });

  test('an address of no interface of this machine cannot (nothing is sent)', async () => {
    expect(await sourceAddressProblem('192.0.2.1')).toMatch(/^cannot send from 192\.0\.2\.1 on this machine \(EADDRNOTAVAIL\)/);
  });
});

describe('sendBurst', () => {
  let server: Server;
  let baseUrl: string;
  const seen: { address: string | undefined; url: string | undefined }[] = [];

  beforeAll(async () => {
    // Serves five requests, then refuses every other with 429 and Retry-After 0 (so no pause).
    server = createServer((request, response) => {
      seen.push({ address: request.socket.remoteAddress, url: request.url });
      const refused = seen.length > 5;
      response.writeHead(refused ? 429 : 200, { 'content-type': 'application/json', ...(refused ? { 'retry-after': '0' } : {}) });
      response.end(JSON.stringify(refused ? { error: 'RateLimitExceeded', detail: 'slow down' } : { items: [], pagination: { total_count: 0, max_page: 0 } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  test('sends every copy once, unpaced and not retried, from the source address', async () => {
    const bundled = await spec();
    const operation = bundled.operation('products:list');
    const target: Target = { baseUrl, kind: 'remote', roles: { admin: { token: 't' } }, fixtures: {}, requestsPerSecond: 1, timeoutMs: 5000, readOnly: false };
    const testCase = { id: 'products:list#0', operationId: 'products:list', pathParams: {}, query: burstQuery(operation), headers: {}, role: 'admin' as const };
    const exchanges = await sendBurst(target, operation, testCase, { requests: 30, ...(linux ? { sourceAddress: BURST_SOURCE_ADDRESS } : {}) });
    expect(seen).toHaveLength(30);
    expect(new Set(seen.map((s) => s.url))).toEqual(new Set(['/v1/products/?limit=1']));
    if (linux) expect(new Set(seen.map((s) => s.address))).toEqual(new Set([BURST_SOURCE_ADDRESS]));
    expect(exchanges.map((e) => e.case.id)).toEqual(Array.from({ length: 30 }, (_, i) => `products:list#0/b${i + 1}`));
    expect(exchanges.filter((e) => e.response?.status === 200)).toHaveLength(5);
    expect(exchanges.filter((e) => e.response?.status === 429)).toHaveLength(25);
    expect(exchanges.every((e) => typeof e.offsetMs === 'number' && e.request.headers.authorization === 'Bearer t')).toBe(true);
  });
});
