// A read's cases drawn once for all the cells of its operation (CellInput.draws): each cell judges
// the cases fc.check would have run, and a failing one is shrunk as a run from the start would.
import { describe, expect, test } from 'vitest';
import { statusCodeConformance } from '../../../checks/status-code-conformance.js';
import { notAServerError } from '../../../checks/not-a-server-error.js';
import { runCell } from '../../../engine/cell/run.js';
import type { Client } from '../../../engine/client.js';
import type { Target } from '../../../core/target.js';
import type { Check, Exchange, TestCase } from '../../../core/types.js';
import { exchange, list, spec } from '../../checks/fixtures.js';

const TARGET: Target = { baseUrl: 'http://127.0.0.1:9', kind: 'remote', roles: { admin: { token: 'token-admin' } }, fixtures: {}, requestsPerSecond: null, timeoutMs: 1000, readOnly: false };

/** A client that records each case and answers it with `answer(case)` (or throws what it throws). */
function recording(answer: (testCase: TestCase) => { status: number; body: unknown }): { client: Client; sent: TestCase[] } {
  const sent: TestCase[] = [];
  const client: Client = {
    async send(operation, testCase): Promise<Exchange> {
      sent.push(testCase);
      const made = exchange({ ...answer(testCase), operationId: operation.operationId, role: testCase.role });
      return { ...made, case: testCase, request: { ...made.request, method: operation.method } };
    },
    async close() {},
  };
  return { client, sent };
}

async function cell(check: Check, client: Client, draws?: Map<string, readonly unknown[]>) {
  const bundled = await spec();
  return runCell({ spec: bundled, operation: bundled.operation('products:list'), check, target: TARGET, client, seed: 7, runSeed: 7, runs: 40, ...(draws ? { draws } : {}) });
}

const limitAbove = (c: TestCase, bound: number) => Number(c.query.limit ?? 0) > bound;

describe('cases drawn once per operation', () => {
  test('a passing cell sends the cases fc.check sends, and a second check of the same kind draws nothing more', async () => {
    const alone = recording(() => ({ status: 200, body: list([]) }));
    const shared = recording(() => ({ status: 200, body: list([]) }));
    const draws = new Map<string, readonly unknown[]>();
    const before = await cell(statusCodeConformance, alone.client);
    const after = await cell(statusCodeConformance, shared.client, draws);
    expect(after).toEqual(before);
    expect(shared.sent).toEqual(alone.sent);
    expect(after.cases).toBeGreaterThan(40);
    expect(draws.size).toBe(1);
    const [drawn] = [...draws.values()];
    await cell(notAServerError, recording(() => ({ status: 200, body: list([]) })).client, draws);
    expect(draws.size).toBe(1);
    expect([...draws.values()][0]).toBe(drawn);
  });

  test('a failing case is shrunk to the counterexample, path, case numbers and count of a run from the start', async () => {
    const answer = (c: TestCase) => (limitAbove(c, 20) ? { status: 418, body: { detail: 'teapot' } } : { status: 200, body: list([]) });
    const alone = recording(answer);
    const shared = recording(answer);
    const before = await cell(statusCodeConformance, alone.client);
    const after = await cell(statusCodeConformance, shared.client, new Map());
    expect(before.status).toBe('failed');
    expect(after).toEqual(before);
    // The failing case is not the first one, so the replay starts past passing cases; it is asked
    // once more (in a run, of the caching client: drawn cases are shared by suites of reads only).
    const failedAt = alone.sent.findIndex((c) => limitAbove(c, 20));
    expect(failedAt).toBeGreaterThan(0);
    expect(shared.sent[failedAt + 1]).toEqual(shared.sent[failedAt]);
    expect(shared.sent.filter((_, i) => i !== failedAt + 1)).toEqual(alone.sent);
  });

  test('a case whose judging throws gives the same errored cell as a run from the start', async () => {
    const answer = (c: TestCase) => {
      if (limitAbove(c, 30)) throw new Error('the target went away');
      return { status: 200, body: list([]) };
    };
    const before = await cell(statusCodeConformance, recording(answer).client);
    const after = await cell(statusCodeConformance, recording(answer).client, new Map());
    expect(before.status).toBe('errored');
    expect(after).toEqual(before);
  });
});
