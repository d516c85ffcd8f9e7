// The one judging path (engine/judge.ts): any exchange is judged by the response checks on its own
// operation; a case made to be refused is not held to the documented statuses; a finding kind is
// reported once per (operation, check) and counted after; a baseline accepts; and no check of the
// registry passes a cell whose exchange got no answer.
import { describe, expect, test } from 'vitest';
import { CHECKS } from '../../checks/index.js';
import { runCell } from '../../engine/cell/run.js';
import type { Client } from '../../engine/client.js';
import { JudgedCells, judgingClient, noAnswerFinding, RESPONSE_CHECKS } from '../../engine/judge.js';
import { SAFE_METHODS } from '../../core/operation-needs.js';
import type { Target } from '../../core/target.js';
import type { Exchange, Role } from '../../core/types.js';
import type { WriteCaseMaker } from '../../engine/write-cases.js';
import { exchange, spec } from '../checks/fixtures.js';

const source = { seed: 7, secrets: [{ value: 'secret-token', env: 'CONFORMANCE_ADMIN_TOKEN' }] };
const bundled = await spec();
const ROLES: Role[] = ['admin', 'reader', 'writer', 'no_scope', 'other_org', 'pat', 'customer_session', 'member_session', 'portal_no_scope', 'oauth_client'];

describe('JudgedCells', () => {
  test('a write answer is judged on its own operation: a 2XX body that is not an object fails the schema', () => {
    const judged = new JudgedCells(bundled);
    const answer = exchange({ operationId: 'orders:update', status: 201, body: ['x'] });
    const failures = judged.judge(bundled.operation('orders:update'), answer, source);
    expect(failures.map((f) => [f.operationId, f.checkId, f.kind])).toEqual([['orders:update', 'response_schema_conformance', 'schema_violation']]);
    expect(judged.take().map((c) => [c.operationId, c.checkId, c.status])).toEqual([['orders:update', 'response_schema_conformance', 'failed']]);
  });

  test('an undocumented status fails status_code_conformance, except on a case made to be refused', () => {
    const judged = new JudgedCells(bundled);
    const answer = exchange({ operationId: 'customer_seats:claim', status: 418, body: { detail: 'teapot' } });
    expect(judged.judge(bundled.operation('customer_seats:claim'), answer, source).map((f) => f.checkId)).toContain('status_code_conformance');
    const refused = { ...answer, case: { ...answer.case, refusal: true as const } };
    expect(judged.judge(bundled.operation('customer_seats:claim'), refused, source).map((f) => f.checkId)).not.toContain('status_code_conformance');
  });

  test('a finding kind is reported once per operation and check, then counted', () => {
    const judged = new JudgedCells(bundled);
    const bad = () => exchange({ status: 401, body: { detail: 'no token' } });
    judged.judge(bundled.operation('products:list'), bad(), source);
    judged.judge(bundled.operation('products:list'), bad(), source);
    const [cell] = judged.take().filter((c) => c.checkId === 'response_schema_conformance');
    expect(cell!.failures).toHaveLength(1);
    expect(cell!.failures[0]!.message).toMatch(/\(seen on 2 exchanges\)$/);
    judged.judge(bundled.operation('products:list'), bad(), source);
    expect(judged.take()).toEqual([]);
  });

  test('a baseline entry turns the failure into an accepted one of a passed cell', () => {
    const judged = new JudgedCells(bundled, RESPONSE_CHECKS, [{ checkId: 'response_schema_conformance', reason: 'TICKET-2' }]);
    judged.judge(bundled.operation('products:list'), exchange({ status: 401, body: { detail: 'no token' } }), source);
    const [cell] = judged.take();
    expect(cell).toMatchObject({ status: 'passed', failures: [] });
    expect(cell!.accepted?.[0]?.acceptedBecause).toBe('TICKET-2');
  });

  test('no answer is one no_response failure of not_a_server_error', () => {
    const judged = new JudgedCells(bundled);
    const silent = exchange({ transportError: { code: 'UND_ERR_SOCKET', message: 'other side closed' } });
    expect(judged.judge(bundled.operation('products:list'), silent, source).map((f) => [f.checkId, f.kind])).toEqual([['not_a_server_error', 'no_response']]);
    expect(noAnswerFinding(silent)?.actual).toEqual({ code: 'UND_ERR_SOCKET', message: 'other side closed' });
  });

  test('requests outside the document (a URL the target handed out) are not judged', () => {
    const judged = new JudgedCells(bundled);
    const outside = { ...bundled.operation('products:list'), operationId: 'PUT /upload/1' };
    expect(judged.judge(outside, exchange({ status: 500, body: {} }), source)).toEqual([]);
  });

  test('the judging client judges what it sends, and hides secrets in the reproducer', async () => {
    const judged = new JudgedCells(bundled);
    const inner: Client = {
      async send(operation, testCase) {
        const made = exchange({ operationId: operation.operationId, status: 500, body: { detail: 'boom' } });
        return { ...made, case: testCase, request: { ...made.request, headers: { authorization: 'Bearer secret-token' } } };
      },
      async close() {},
    };
    const client = judgingClient(inner, judged, () => source);
    await client.send(bundled.operation('products:list'), { id: 'x#0', operationId: 'products:list', pathParams: {}, query: {}, headers: {}, role: 'admin' });
    const failed = judged.take().find((c) => c.checkId === 'not_a_server_error');
    expect(failed?.failures[0]?.reproduce.curl).toContain('${CONFORMANCE_ADMIN_TOKEN}');
    expect(failed?.failures[0]?.reproduce.curl).not.toContain('secret-token');
  });
});

describe('a verdict needs an answer', () => {
  const target: Target = {
    baseUrl: 'http://127.0.0.1:9',
    kind: 'remote',
    roles: Object.fromEntries(ROLES.map((role) => [role, { token: `token-${role}` }])),
    fixtures: new Proxy({}, { get: (_t, name) => (typeof name === 'string' ? '00000000-0000-4000-8000-000000000001' : undefined) }) as Record<string, string>,
    requestsPerSecond: null,
    timeoutMs: 1000,
    readOnly: false,
  };
  const silent: Client = {
    async send(operation, testCase): Promise<Exchange> {
      return { case: testCase, operationId: operation.operationId, request: { method: operation.method, url: `${target.baseUrl}${operation.path}`, headers: {} }, transportError: { code: 'UND_ERR_SOCKET', message: 'other side closed' } };
    },
    async close() {},
  };
  const writes: WriteCaseMaker = { make: async () => ({ pathParams: { id: '00000000-0000-4000-8000-000000000002', external_id: 'cnf_x' } }) };
  // Every check of the registry on every operation it applies to, against a target that never answers (the burst needs a burst plan; its cell is covered in cell/burst.test.ts).
  const pairs = CHECKS.filter((c) => c.needs !== 'burst').flatMap((check) => bundled.operations.filter((o) => (check.appliesTo?.({ spec: bundled, operation: o }) ?? true) === true).map((o) => [check.id, o.operationId, check, o] as const));

  test.each(pairs)('%s on %s does not pass', async (_checkId, _operationId, check, operation) => {
    const unsafe = !SAFE_METHODS.has(operation.method);
    const cell = await runCell({ spec: bundled, operation, check, target, client: silent, seed: 1, runSeed: 1, runs: 2, ...(unsafe ? { writes, writeEvidence: async () => [{ exchange: await silent.send(operation, { id: 'w', operationId: operation.operationId, pathParams: {}, query: {}, headers: {}, role: 'admin' }), history: [] }] } : {}) });
    expect(cell.status, `${cell.checkId} on ${cell.operationId}: ${cell.skipReason ?? ''}`).toBe('failed');
    expect(cell.failures.map((f) => f.kind)).toContain('no_response');
  });
});
