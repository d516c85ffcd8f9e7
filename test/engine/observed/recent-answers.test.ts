// A judging thread's recent answers: an answer kept decoded from its second coming on, so that
// every later one with the same bytes is not decoded or parsed again and shares its findings,
// with its own timing; the first coming keeps only the bytes; other bytes under the same status,
// size and headers are decoded afresh; the verdicts are those of an answer decoded afresh; at most
// 64 answers of each kind are kept.
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, test } from 'vitest';
import { API_VERSIONS, loadSpec, specPath, type LoadedSpec } from '../../../core/spec/load.js';
import { RESPONSE_CHECKS, responseFindings } from '../../../engine/judge.js';
import type { RawAnswer } from '../../../engine/observed/exchange.js';
import { ObservedJudge } from '../../../engine/observed/judge.js';
import { observedResponse, RecentAnswers } from '../../../engine/observed/response.js';

let specs: LoadedSpec[];
beforeAll(async () => {
  specs = await Promise.all(API_VERSIONS.map((v) => loadSpec(specPath(v))));
});

/** A gzip-coded answer of a product list whose one product lacks `is_archived` and whose timestamp is not UTC. */
function answer(date: string, name = 'A product', elapsedMs = 1): RawAnswer {
  const body = { items: [{ id: '3f1d2c4e-0b7a-4c55-9a51-5b0f8f6c1a11', name, created_at: '2026-01-01T10:00:00.000000+02:00' }], pagination: { total_count: 1, max_page: 1 } };
  const raw = new Uint8Array(gzipSync(JSON.stringify(body)));
  return { status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', date }, raw, size: raw.byteLength, elapsedMs };
}

const request = { method: 'GET', url: 'http://127.0.0.1:1/v1/products/?limit=10', headers: { authorization: 'Bearer t', 'polar-version': '2026-10' } };

describe('RecentAnswers', () => {
  test('the same bytes a third time: parsed as the second was, with each exchange\'s own timing; the first time only the bytes are kept; other bytes: parsed afresh', () => {
    const recent = new RecentAnswers();
    const once = recent.responseOf(answer('Fri, 27 Nov 2026 10:00:00 GMT', 'A product', 2));
    const first = recent.responseOf(answer('Fri, 27 Nov 2026 10:00:00 GMT', 'A product', 3));
    expect(first.json).not.toBe(once.json);
    expect(first.json).toEqual(once.json);
    const again = recent.responseOf(answer('Fri, 27 Nov 2026 10:00:00 GMT', 'A product', 7));
    expect(again.json).toBe(first.json);
    expect([once.elapsedMs, first.elapsedMs, again.elapsedMs]).toEqual([2, 3, 7]);
    expect(again.body).toBe(first.body);
    // The response checks' findings are the kept answer's, not found again.
    const spec = specs.find((s) => s.version === '2026-10')!;
    const ctx = { spec, operation: spec.operations.find((o) => o.operationId === 'products:list')! };
    const exchange = (response: typeof first) => ({ case: { id: 'c', operationId: 'products:list', pathParams: {}, query: {}, headers: {}, role: null }, operationId: 'products:list', request, response });
    const schema = RESPONSE_CHECKS.find((c) => c.id === 'response_schema_conformance')!;
    expect(responseFindings(schema, ctx, exchange(again))).toBe(responseFindings(schema, ctx, exchange(first)));
    const laterDate = recent.responseOf(answer('Fri, 27 Nov 2026 10:00:01 GMT'));
    const otherBody = recent.responseOf(answer('Fri, 27 Nov 2026 10:00:00 GMT', 'Another product'));
    expect(laterDate.json).not.toBe(first.json);
    expect(laterDate.json).toEqual(first.json);
    expect(otherBody.json).not.toEqual(first.json);
    // Same status, size and headers, other bytes: judged as what they are.
    const plain = (name: string): RawAnswer => {
      const raw = new Uint8Array(Buffer.from(JSON.stringify({ items: [{ name }], pagination: { total_count: 1, max_page: 1 } })));
      return { status: 200, headers: { 'content-type': 'application/json', date: 'Fri, 27 Nov 2026 10:00:00 GMT' }, raw, size: raw.byteLength, elapsedMs: 1 };
    };
    expect(recent.responseOf(plain('A product')).json).toEqual({ items: [{ name: 'A product' }], pagination: { total_count: 1, max_page: 1 } });
    expect(recent.responseOf(plain('B product')).json).toEqual({ items: [{ name: 'B product' }], pagination: { total_count: 1, max_page: 1 } });
    expect(recent.responseOf(plain('A product')).json).toEqual({ items: [{ name: 'A product' }], pagination: { total_count: 1, max_page: 1 } });
    // A kept answer, then other bytes under its status, size and headers.
    const kept = recent.responseOf(plain('A product'));
    expect(recent.responseOf(plain('A product')).json).toBe(kept.json);
    expect(recent.responseOf(plain('B product')).json).toEqual({ items: [{ name: 'B product' }], pagination: { total_count: 1, max_page: 1 } });
  });

  test('an answer judged again through it gets the verdict of the answer decoded afresh', () => {
    const throughRecent = new ObservedJudge({ specs });
    const fresh = new ObservedJudge({ specs });
    const recent = new RecentAnswers();
    for (let i = 0; i < 3; i++) {
      const raw = answer('Fri, 27 Nov 2026 10:00:00 GMT');
      const decoded = observedResponse(raw.status, raw.headers, Buffer.from(raw.raw), raw.size, raw.elapsedMs);
      const expected = fresh.judge({ request: structuredClone(request), response: decoded });
      const verdict = throughRecent.judge({ request: structuredClone(request), response: recent.responseOf(raw) });
      expect(verdict).toEqual(expected);
      expect(verdict.failures.map((f) => f.checkId)).toEqual(expect.arrayContaining(['response_schema_conformance', 'timestamps_utc']));
    }
    expect(throughRecent.results()).toEqual(fresh.results());
  });

  test('at most 64 answers are kept decoded, and 64 seen once, the oldest forgotten first', () => {
    const recent = new RecentAnswers();
    const twice = (date: string) => {
      recent.responseOf(answer(date));
      return recent.responseOf(answer(date));
    };
    const first = twice('Fri, 27 Nov 2026 10:00:00 GMT');
    expect(recent.responseOf(answer('Fri, 27 Nov 2026 10:00:00 GMT')).json).toBe(first.json);
    for (let i = 1; i <= 64; i++) twice(`Fri, 27 Nov 2026 10:01:${String(i).padStart(2, '0')} GMT`);
    expect(recent.responseOf(answer('Fri, 27 Nov 2026 10:00:00 GMT')).json).not.toBe(first.json);
    // The most recent is still kept.
    const last = recent.responseOf(answer('Fri, 27 Nov 2026 10:01:64 GMT'));
    expect(recent.responseOf(answer('Fri, 27 Nov 2026 10:01:64 GMT')).json).toBe(last.json);
    // Seen once, then 64 others seen once: its next coming counts as its first again.
    const other = new RecentAnswers();
    other.responseOf(answer('Fri, 27 Nov 2026 11:00:00 GMT'));
    for (let i = 1; i <= 64; i++) other.responseOf(answer(`Fri, 27 Nov 2026 11:01:${String(i).padStart(2, '0')} GMT`));
    const second = other.responseOf(answer('Fri, 27 Nov 2026 11:00:00 GMT'));
    expect(other.responseOf(answer('Fri, 27 Nov 2026 11:00:00 GMT')).json).not.toBe(second.json);
    // The most recent one seen once is still known: its second coming is kept.
    const kept = other.responseOf(answer('Fri, 27 Nov 2026 11:01:64 GMT'));
    expect(other.responseOf(answer('Fri, 27 Nov 2026 11:01:64 GMT')).json).toBe(kept.json);
  });
});
