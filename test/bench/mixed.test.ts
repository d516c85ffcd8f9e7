// The mixed workload of the benchmark is what it says: seeded, about 10% writes of the three
// kinds, reads of every list with varied pages, limits, filters and sorting; and every request of
// it is one the reference answers 2xx, so that the benchmark measures answers, not refusals.
// @see bench/mixed.ts
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mixedRequests, workloadIds, wrkScript, type MixedRequest, type WorkloadIds } from '../../bench/mixed.js';
import { buildApp, type ReferenceApp } from '../../server/app.js';

let built: ReferenceApp;
let ids: WorkloadIds;
let requests: MixedRequest[];

beforeAll(async () => {
  built = await buildApp({ rateLimit: false, webhooks: { enabled: false } });
  ids = workloadIds(built.store, built.fixtures.organization_id!);
  requests = mixedRequests(ids, 2000);
});

afterAll(async () => {
  await built.app.close();
});

describe('mixedRequests', () => {
  it('draws the same requests from the same seed, and others from another', () => {
    expect(mixedRequests(ids, 2000)).toEqual(requests);
    expect(mixedRequests(ids, 2000, 0.1, 16)).not.toEqual(requests);
  });

  it('writes about 10% of the time, of the three kinds, and reads every list with varied queries', () => {
    const writes = requests.filter((r) => r.method !== 'GET');
    expect(writes.length / requests.length).toBeGreaterThan(0.08);
    expect(writes.length / requests.length).toBeLessThan(0.12);
    expect(new Set(writes.map((r) => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/g, '{id}')}`))).toEqual(new Set(['PATCH /v1/orders/{id}', 'POST /v1/products/{id}/benefits', 'POST /v1/files/']));
    const reads = requests.filter((r) => r.method === 'GET');
    expect(new Set(reads.map((r) => r.path.split('?')[0]!.replace(/[0-9a-f-]{36}/g, '{id}')))).toEqual(new Set(['/v1/products/', '/v1/subscriptions/', '/v1/refunds/', '/v1/files/', '/v1/customers/{id}/payment-methods']));
    expect(new Set(reads.map((r) => r.path)).size).toBeGreaterThan(reads.length * 0.8);
    for (const name of ['page=', 'limit=', 'sorting=', 'status=', 'visibility=', 'id=']) expect(reads.some((r) => r.path.includes(name)), name).toBe(true);
  });

  it('is answered 2xx by the reference, request after request (the first 600)', async () => {
    const statuses = new Map<string, number>();
    for (const r of requests.slice(0, 600)) {
      const answer = await built.app.inject({ method: r.method, url: r.path, headers: { authorization: `Bearer ${built.credentials.admin}`, ...(r.body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(r.body === undefined ? {} : { payload: r.body }) });
      if (answer.statusCode >= 300) statuses.set(`${r.method} ${r.path}`, answer.statusCode);
    }
    expect(Object.fromEntries(statuses)).toEqual({});
  });

  it('becomes a wrk script that plays the requests in order with the -H headers', () => {
    const script = wrkScript(requests.slice(0, 3));
    expect(script).toContain(`{[==[${requests[0]!.method}]==], [==[${requests[0]!.path}]==]`);
    expect(script).toMatch(/for name, value in pairs\(wrk\.headers\)/);
    expect(script).toMatch(/i = i % count \+ 1/);
  });
});
