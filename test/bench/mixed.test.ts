// The mixed workload of the benchmark is what it says: seeded, about 10% writes of the three
// kinds, reads of every list with varied pages, limits, filters and sorting; and every request of
// it is one the reference answers 2xx, so that the benchmark measures answers, not refusals.
// @see bench/mixed.ts
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ceilingIndex, mixedRequests, workloadIds, wrkScript, type MixedRequest, type RecordedAnswer, type WorkloadIds } from '../../bench/mixed.js';
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

describe('ceilingIndex', () => {
  const sequence: MixedRequest[] = [
    { method: 'GET', path: '/v1/products/?limit=1' },
    { method: 'PATCH', path: '/v1/orders/o1', body: '{"billing_name":"A"}' },
    { method: 'GET', path: '/v1/products/?limit=1' },
  ];
  const answers: RecordedAnswer[] = [
    { status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'br', vary: 'Accept-Encoding' }, body: Buffer.from('first') },
    { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('{}') },
    { status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: Buffer.from('second!') },
  ];

  it("keeps each request's answer in the sequence's order, its bytes end to end, with the headers that say how they are coded", () => {
    const { index, body } = ceilingIndex(sequence, answers);
    expect(index.map((e) => e.key)).toEqual(['GET /v1/products/?limit=1', 'PATCH /v1/orders/o1', 'GET /v1/products/?limit=1']);
    expect(index.map((e) => body.subarray(e.offset, e.offset + e.length).toString())).toEqual(['first', '{}', 'second!']);
    expect(index[0]!.headers['content-encoding']).toBe('br');
    expect(index[2]!.headers['content-encoding']).toBe('gzip');
    expect(body.length).toBe(answers.reduce((sum, a) => sum + a.body.length, 0));
  });

  it('refuses answers that do not match the requests one for one', () => {
    expect(() => ceilingIndex(sequence, answers.slice(1))).toThrow(/2 answers for 3 requests/);
  });
});
