// The evidence of `roles` and `not_found` checks as runCell gathers it: who each request is sent
// as, what its path and body name, and the cell skipped with the reason where a role is missing.
import { describe, expect, test } from 'vitest';
import { memberSessionActsForCustomer } from '../../checks/member-session-acts-for-customer.js';
import { notFoundErrorBody } from '../../checks/not-found-error-body.js';
import { tenantIsolationLists } from '../../checks/tenant-isolation-lists.js';
import { writeScopeAccepted } from '../../checks/write-scope-accepted.js';
import { runCell } from '../../harness/cell.js';
import type { Client } from '../../harness/client.js';
import type { Target } from '../../harness/target.js';
import type { Check, Exchange, Role, TestCase } from '../../harness/types.js';
import { exchange, list, spec } from '../checks/fixtures.js';

const FIXTURES = { product_id: '10509a7b-8b3b-48b7-9807-226952bfb1d1', order_id: 'd6ad361b-2b16-416c-880d-34081fce7457' };

function target(roles: Role[], readOnly = false): Target {
  return {
    baseUrl: 'http://127.0.0.1:9',
    kind: 'remote',
    roles: Object.fromEntries(roles.map((role) => [role, { token: `token-${role}` }])),
    fixtures: FIXTURES,
    requestsPerSecond: null,
    timeoutMs: 1000,
    readOnly,
  };
}

/** A client that records each case and answers it with `answer(case)`. */
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

async function cell(check: Check, operationId: string, given: Target, client: Client) {
  const bundled = await spec();
  return runCell({ spec: bundled, operation: bundled.operation(operationId), check, target: given, client, seed: 1, runSeed: 1, runs: 5 });
}

describe('roles evidence', () => {
  test('one request per role, in order, with limit=100 on a list; the last is judged', async () => {
    const { client, sent } = recording((c) => ({ status: c.role === 'member_session' ? 403 : 200, body: list([]) }));
    const result = await cell(memberSessionActsForCustomer, 'customer_portal:license_keys:list', target(['customer_session', 'member_session']), client);
    expect(sent.map((c) => c.role)).toEqual(['customer_session', 'member_session', 'customer_session', 'member_session']);
    expect(sent.every((c) => c.query.limit === '100')).toBe(true);
    expect(result.status).toBe('failed');
    expect(result.failures.map((f) => f.kind)).toEqual(['member_session_refused']);
    expect(result.failures[0]!.case.role).toBe('member_session');
  });

  test('fixtures in the path of a safe method', async () => {
    const { client, sent } = recording(() => ({ status: 404, body: { error: 'ResourceNotFound', detail: 'no invoice yet' } }));
    const result = await cell(memberSessionActsForCustomer, 'customer_portal:orders:get_invoice', target(['customer_session', 'member_session']), client);
    expect(result.status).toBe('passed');
    expect(sent.map((c) => c.pathParams.id)).toEqual([FIXTURES.order_id, FIXTURES.order_id]);
    expect(sent.every((c) => Object.keys(c.query).length === 0)).toBe(true);
  });

  test.each<[string, Check, string, Role[], string]>([
    ['a missing writer role', writeScopeAccepted, 'products:list', ['admin'], 'needs role writer'],
    ['a missing first role', tenantIsolationLists, 'products:list', ['other_org'], 'needs role admin'],
    ['a missing second role', tenantIsolationLists, 'products:list', ['admin'], 'needs role other_org'],
    ['a method that changes state', memberSessionActsForCustomer, 'customer_portal:orders:update', ['customer_session', 'member_session'], 'changes state: exercised by the stateful suites'],
  ])('skipped for %s', async (_name, check, operationId, roles, reason) => {
    const { client, sent } = recording(() => ({ status: 200, body: list([]) }));
    const result = await cell(check, operationId, target(roles), client);
    expect(result.status).toBe('skipped');
    expect(result.skipReason).toBe(reason);
    expect(sent).toEqual([]);
  });
});

describe('not_found evidence', () => {
  test('a path id that is not the fixture, and a valid body, on a method that changes state', async () => {
    const { client, sent } = recording(() => ({ status: 404, body: { error: 'ResourceNotFound', detail: 'x' } }));
    const result = await cell(notFoundErrorBody, 'products:update_benefits', target(['admin']), client);
    expect(result.status).toBe('passed');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.role).toBe('admin');
    expect(sent[0]!.pathParams.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(sent[0]!.pathParams.id).not.toBe(FIXTURES.product_id);
    expect(sent[0]!.body?.contentType).toBe('application/json');
    expect(Array.isArray(JSON.parse(sent[0]!.body!.text).benefits)).toBe(true);
  });

  test('a path id that is not the fixture on a safe method too; a wrong body fails', async () => {
    const { client, sent } = recording(() => ({ status: 404, body: { error: 'NotFound', detail: 'x' } }));
    const result = await cell(notFoundErrorBody, 'orders:get_receipt', target(['admin']), client);
    expect(sent[0]!.pathParams.id).not.toBe(FIXTURES.order_id);
    expect(sent[0]!.body).toBeUndefined();
    expect(result.failures.map((f) => f.kind)).toEqual(['wrong_error_body']);
  });

  test('skipped on a method that changes state in a read-only run', async () => {
    const { client, sent } = recording(() => ({ status: 404, body: {} }));
    const result = await cell(notFoundErrorBody, 'orders:generate_invoice', target(['admin'], true), client);
    expect(result.skipReason).toBe('read-only run: the operation may change state');
    expect(sent).toEqual([]);
  });
});
