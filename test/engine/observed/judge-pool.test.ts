// A pool of judging threads judges as one judge of all the traffic: the same traffic (page walks
// of several clients, a write read back, a write between two pages, scopes, an anonymous request,
// an undocumented route, a cookie, an unreachable target) gives the same verdicts and the same
// results, failures, counts and secret names included, from one ObservedJudge and from pools of
// 1 and 3 threads, the shapes of one list judged on several threads among them.
import { performance } from 'node:perf_hooks';
import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { API_VERSIONS, loadSpec, specPath, type LoadedSpec } from '../../../core/spec/load.js';
import type { HttpRequest, Role } from '../../../core/types.js';
import type { RawAnswer } from '../../../engine/observed/exchange.js';
import { JudgePool } from '../../../engine/observed/judge-pool.js';
import { ObservedJudge, type ObservedExchange } from '../../../engine/observed/judge.js';
import { flatHeaders, observedResponse } from '../../../engine/observed/response.js';
import { startReferenceServer, type RunningReference } from '../../../server/index.js';

/** One exchange of the traffic: as it came off the wire, or (no answer) with its transport error. */
type Recorded = { request: HttpRequest; answer?: RawAnswer; transportError?: ObservedExchange['transportError'] };

let specs: LoadedSpec[];
let reference: RunningReference;
const traffic: Recorded[] = [];
const ROLES: Role[] = ['no_scope', 'reader'];
let roles: { token: string; role: Role; env: string }[];

async function send(method: string, path: string, token: string | undefined, extra: Record<string, string> = {}, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = { 'polar-version': '2026-10', 'accept-encoding': 'gzip, deflate, br', ...extra, ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) };
  const url = `${reference.url}${path}`;
  const sent = performance.now();
  const answer = await undiciRequest(url, { method: method as 'GET', headers, ...(body ? { body: JSON.stringify(body) } : {}) });
  const raw = Buffer.from(await answer.body.arrayBuffer());
  const recorded: RawAnswer = { status: answer.statusCode, headers: flatHeaders(answer.headers as Record<string, string>), raw, size: raw.length, elapsedMs: performance.now() - sent };
  traffic.push({ request: { method, url, headers, ...(body ? { body: JSON.stringify(body) } : {}) }, answer: recorded });
  return observedResponse(recorded.status, recorded.headers, raw, raw.length, 1).json;
}

beforeAll(async () => {
  specs = await Promise.all(API_VERSIONS.map((v) => loadSpec(specPath(v))));
  reference = await startReferenceServer({ host: '127.0.0.1', port: 0, rateLimit: false, control: false, faults: ['pages_overlap', 'timestamps_not_utc', 'scopes_ignored', 'benefits_update_not_persisted', 'list_depends_on_page_size'] });
  roles = ROLES.map((role) => ({ token: (reference.tokens as Record<string, string>)[role]!, role, env: `CONFORMANCE_${role.toUpperCase()}_TOKEN` }));
  const { admin, reader, no_scope: noScope } = reference.tokens as Record<string, string>;
  for (const token of [admin, reader]) for (let page = 1; page <= 3; page++) await send('GET', `/v1/products/?limit=2&page=${page}`, token);
  for (let page = 1; page <= 2; page++) await send('GET', `/v1/subscriptions/?limit=3&page=${page}&sorting=-started_at`, admin);
  await send('GET', '/v1/products/?limit=2', noScope);
  await send('GET', '/v1/products/?limit=2', undefined);
  await send('GET', '/v1/refunds/?limit=2', admin, { cookie: 'session=a-cookie-secret' });
  // One list under two page sizes (routed apart: the second one's thread is handed the first), then a third.
  await send('GET', '/v1/products/?limit=10', admin);
  await send('GET', '/v1/products/?limit=50&sorting=name', admin);
  await send('GET', '/v1/products/?limit=20', admin);
  await send('GET', '/v1/products/?limit=2&page=1&sorting=name', reader);
  const product = reference.fixtures.product_id!;
  const before = (await send('GET', `/v1/products/${product}`, admin)) as { benefits: unknown[] };
  await send('POST', `/v1/products/${product}/benefits`, admin, {}, { benefits: before.benefits.length > 0 ? [] : [reference.fixtures.benefit_id] });
  // The write forgets the reader's walk: its second page starts a walk of its own.
  await send('GET', '/v1/products/?limit=2&page=2&sorting=name', reader);
  await send('GET', `/v1/products/${product}`, admin);
  await send('GET', '/v1/nothing-here', admin);
  for (let page = 1; page <= 2; page++) await send('GET', `/v1/products/?limit=4&page=${page}`, reader);
  traffic.push({ request: { method: 'GET', url: 'http://127.0.0.1:9/v1/products/', headers: { authorization: `Bearer ${admin}` } }, transportError: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' } });
});
afterAll(async () => {
  await reference.close();
});

/** A fresh copy of an exchange, answers decoded as the judging thread decodes them. */
function observed(recorded: Recorded): ObservedExchange {
  const request = structuredClone(recorded.request);
  if (!recorded.answer) return { request, transportError: recorded.transportError! };
  const { status, headers, raw, size, elapsedMs } = recorded.answer;
  return { request, response: observedResponse(status, headers, Buffer.from(raw), size, elapsedMs) };
}

describe('JudgePool', () => {
  test.each([1, 3])('%i thread(s): the verdicts and the results of one judge of all the traffic', async (threads) => {
    const one = new ObservedJudge({ specs, roles });
    // Each verdict as it was given: a kept failure's count ("seen on N exchanges") grows later.
    const expected = traffic.map((recorded) => structuredClone(one.judge(observed(recorded))));
    const pool = await JudgePool.start({ specs, roles, threads });
    try {
      expect(pool.threads).toBe(threads);
      const startedAt = new Date();
      // Every exchange handed over at once, as a busy proxy does; half of the answers raw, half decoded.
      const verdicts = await Promise.all(traffic.map((recorded, i) => (recorded.answer && i % 2 === 0
        ? pool.judgeRawAsync(structuredClone(recorded.request), { ...recorded.answer, raw: Buffer.from(recorded.answer.raw) }, startedAt)
        : pool.judgeAsync(observed(recorded), startedAt))));
      expect(verdicts).toEqual(expected);
      expect(await pool.results()).toEqual(one.results());
    } finally {
      await pool.close();
    }
    // What the traffic shows, so that the comparison above compares findings of every kind.
    const results = one.results();
    const failed = (operationId: string, checkId: string) => results.cells.find((c) => c.operationId === operationId && c.checkId === checkId && c.status === 'failed');
    expect(failed('products:list', 'pages_disjoint_and_complete')).toBeDefined();
    expect(failed('products:list', 'insufficient_scope_rejected')).toBeDefined();
    expect(failed('products:update_benefits', 'write_effect_visible')).toBeDefined();
    expect(failed('products:list', 'pagination_total_stable')?.failures.map((f) => f.kind)).toEqual(['total_count_differs_by_shape']);
    expect(failed('products:list', 'timestamps_utc')?.failures[0]?.message).toMatch(/\(seen on \d+ exchanges\)$/);
    expect(results.cells.find((c) => c.checkId === 'operation_documented')?.operationId).toBe('GET /v1/nothing-here');
    expect(results.errors.map((e) => e.code)).toEqual(['CNF_ERR_TARGET_UNREACHABLE']);
    const curls = results.cells.flatMap((c) => c.failures.map((f) => f.reproduce.curl)).join('\n');
    expect(curls).toContain('${CONFORMANCE_NO_SCOPE_TOKEN}');
    expect(curls).toContain('${CONFORMANCE_TOKEN_1}');
  }, 30_000);

  test('exchanges handed over without their verdicts: counted until judged, and the results of one judge', async () => {
    const one = new ObservedJudge({ specs, roles });
    for (const recorded of traffic) one.judge(observed(recorded));
    const pool = await JudgePool.start({ specs, roles, threads: 2 });
    try {
      const startedAt = new Date();
      for (const recorded of traffic) {
        if (recorded.answer) pool.submitRaw(structuredClone(recorded.request), { ...recorded.answer, raw: Buffer.from(recorded.answer.raw) }, startedAt);
        else void pool.judgeAsync(observed(recorded), startedAt);
      }
      expect(pool.pending).toBeGreaterThan(0);
      await pool.whenPendingBelow(1);
      expect(pool.pending).toBe(0);
      expect(await pool.results()).toEqual(one.results());
    } finally {
      await pool.close();
    }
  });

  test('a recording pool has one thread; a pool has at least one', async () => {
    await expect(JudgePool.start({ specs, threads: 2, record: '/dev/null' })).rejects.toThrow(RangeError);
    await expect(JudgePool.start({ specs, threads: 0 })).rejects.toThrow(RangeError);
  });
});
