// The library API of observed traffic: judgeExchange on one exchange, a judged fetch and an undici
// interceptor that judge in place, each giving the same typed failures as the proxy.
import { describe, expect, test } from 'vitest';
import { Agent, request } from 'undici';
import { referencePair } from '../../support/reference-pair.js';
import { createObservedJudge, judgedFetch, judgeExchange, judgingInterceptor } from '../../../engine/observed/library.js';
import type { ObservedVerdict } from '../../../engine/observed/judge.js';

const references = referencePair(['timestamps_not_utc']);

describe('judgeExchange', () => {
  test('an undocumented status code of a matched operation is a status_code_conformance failure', async () => {
    const verdict = await judgeExchange({
      request: { method: 'GET', url: 'https://api.example.com/v1/files/', headers: { authorization: 'Bearer t', 'polar-version': '2026-10' } },
      response: { status: 418, headers: { 'content-type': 'application/json' }, body: '{}', json: {}, elapsedMs: 1 },
    }, { apiVersion: '2026-10' });
    expect(verdict.operationId).toBe('files:list');
    expect(verdict.failures.map((f) => [f.checkId, f.kind])).toContainEqual(['status_code_conformance', 'undocumented_status_code']);
    expect(verdict.mustFailed).toBe(true);
  });

  test('a request outside the document: undocumented_operation', async () => {
    const verdict = await judgeExchange({ request: { method: 'GET', url: 'https://api.example.com/v2/things', headers: {} }, response: { status: 200, headers: {}, body: '', elapsedMs: 1 } });
    expect(verdict.operationId).toBeUndefined();
    expect(verdict.failures.map((f) => f.kind)).toEqual(['undocumented_operation']);
  });
});

describe('judging in place', () => {
  test('a judged fetch against the clean reference: the answer untouched, no failure', async () => {
    const judge = await createObservedJudge();
    const verdicts: ObservedVerdict[] = [];
    const pending = new Set<Promise<void>>();
    const judged = judgedFetch(judge, (v) => verdicts.push(v), fetch, pending);
    const response = await judged(`${references.clean.url}/v1/products/?limit=3`, { headers: { authorization: `Bearer ${references.clean.tokens.admin}`, 'polar-version': '2026-10' } });
    expect(((await response.json()) as { items: unknown[] }).items).toHaveLength(3);
    await Promise.all([...pending]);
    expect(verdicts.map((v) => [v.operationId, v.failures.length])).toEqual([['products:list', 0]]);
  });

  test('an undici dispatcher with the interceptor against a faulty reference: timestamps_utc fails', async () => {
    const judge = await createObservedJudge();
    const verdicts: ObservedVerdict[] = [];
    const agent = new Agent();
    try {
      const answer = await request(`${references.faulty.url}/v1/refunds/?limit=2`, { headers: { authorization: `Bearer ${references.faulty.tokens.admin}`, 'polar-version': '2026-10', 'accept-encoding': 'gzip' }, dispatcher: agent.compose(judgingInterceptor(judge, (v) => verdicts.push(v))) });
      expect(answer.statusCode).toBe(200);
      await answer.body.arrayBuffer();
    } finally {
      await agent.close();
    }
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]!.failures.map((f) => f.checkId)).toContain('timestamps_utc');
    expect(verdicts[0]!.failures.map((f) => f.checkId)).not.toContain('response_headers_conformance');
  });
});
