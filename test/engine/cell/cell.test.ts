// The evidence of `roles`, `not_found` and write checks as runCell gathers it: who each request is
// sent as, what its path and body name, and the cell skipped with the reason where a role is missing;
// and a read's cases drawn once for all the cells of its operation.
import { describe, expect, test } from 'vitest';
import { memberSessionActsForCustomer } from '../../../checks/member-session-acts-for-customer.js';
import { notFoundErrorBody } from '../../../checks/not-found-error-body.js';
import { tenantIsolationLists } from '../../../checks/tenant-isolation-lists.js';
import { writeScopeAccepted } from '../../../checks/write-scope-accepted.js';
import { statusCodeConformance } from '../../../checks/status-code-conformance.js';
import { notAServerError } from '../../../checks/not-a-server-error.js';
import { tenantIsolation } from '../../../checks/tenant-isolation.js';
import { CASES_AHEAD, runCell } from '../../../engine/cell/run.js';
import { gatherEvidence, sendWriteCases } from '../../../engine/cell/evidence.js';
import { pagesDisjointAndComplete } from '../../../checks/pages-disjoint-and-complete.js';
import type { WriteCaseMaker } from '../../../engine/write-cases.js';
import type { Client } from '../../../engine/client.js';
import type { Target } from '../../../core/target.js';
import type { Check, Exchange, Role, TestCase } from '../../../core/types.js';
import { exchange, items, list, spec } from '../../checks/fixtures.js';

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

describe('walk evidence', () => {
  test('the first page without page (as the case asks for it), then page=2 on and the page past the last', async () => {
    const { client, sent } = recording((c) => {
      const page = Number(c.query.page ?? 1);
      return { status: 200, body: list(page <= 2 ? items(2, (page - 1) * 2) : [], 4, 2, 2) };
    });
    const bundled = await spec();
    const testCase: TestCase = { id: 'walk', operationId: 'products:list', pathParams: {}, query: { limit: '2', page: '7', sorting: 'name' }, headers: {}, role: 'admin' };
    const { exchange: last, history } = await gatherEvidence(client, bundled.operation('products:list'), pagesDisjointAndComplete, testCase);
    expect(sent.map((c) => c.query)).toEqual([{ limit: '2', sorting: 'name' }, { limit: '2', sorting: 'name', page: '2' }, { limit: '2', sorting: 'name', page: '3' }]);
    expect(history.map((e) => e.case.id)).toEqual(['walk/p1', 'walk/p2']);
    expect(last.case.id).toBe('walk/p3');
  });
});

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
    ['a method that changes state, with no fixture made for its cases', memberSessionActsForCustomer, 'customer_portal:orders:update', ['customer_session', 'member_session'], 'no fixture can be made for a write of this operation'],
  ])('skipped for %s', async (_name, check, operationId, roles, reason) => {
    const { client, sent } = recording(() => ({ status: 200, body: list([]) }));
    const result = await cell(check, operationId, target(roles), client);
    expect(result.status).toBe('skipped');
    expect(result.skipReason).toBe(reason);
    expect(result.skipKind).toBeDefined();
    expect(result.fix).toBeTruthy();
    expect(sent).toEqual([]);
  });
});

/** A fixture maker that names a new order per case and role, read back as its owner at `GET /v1/orders/{id}/invoice`. */
function maker(made: string[]): WriteCaseMaker {
  return {
    async make(role, n) {
      const id = `00000000-0000-4000-8000-${String(made.length).padStart(12, '0')}`;
      made.push(`${role}:${n}`);
      return { pathParams: { id }, body: { contentType: 'application/json', text: '{"billing_name":"x"}' } };
    },
  };
}

describe('write evidence (operations that change state)', () => {
  test('roles: each role writes on a fixture made for it', async () => {
    const made: string[] = [];
    const { client, sent } = recording(() => ({ status: 200, body: { id: 'x' } }));
    const bundled = await spec();
    const result = await runCell({ spec: bundled, operation: bundled.operation('customer_portal:orders:update'), check: memberSessionActsForCustomer, target: target(['customer_session', 'member_session']), client, seed: 1, runSeed: 1, runs: 5, writes: maker(made) });
    expect(result.status).toBe('passed');
    expect(made).toEqual(['customer_session:0', 'member_session:1']);
    expect(sent.map((c) => c.role)).toEqual(['customer_session', 'member_session']);
    expect(new Set(sent.map((c) => c.pathParams.id)).size).toBe(2);
  });

  test('other_org: the owner\'s read-back before and after must be the same', async () => {
    const bundled = await spec();
    const readBack = { operation: bundled.operation('orders:get_invoice'), pathParams: { id: FIXTURES.order_id }, query: {}, role: 'admin' as const };
    let written = false;
    const { client, sent } = recording((c) => {
      if (c.role === 'other_org') {
        written = true;
        return { status: 404, body: { error: 'ResourceNotFound', detail: 'x' } };
      }
      return { status: 200, body: { url: written ? 'https://changed' : 'https://before' } };
    });
    const writes: WriteCaseMaker = { make: async () => ({ pathParams: { id: FIXTURES.order_id }, readBack }) };
    const result = await runCell({ spec: bundled, operation: bundled.operation('orders:generate_invoice'), check: tenantIsolation, target: target(['admin', 'other_org']), client, seed: 1, runSeed: 1, runs: 5, writes });
    expect(sent.map((c) => c.role)).toEqual(['admin', 'other_org', 'admin']);
    expect(result.failures.map((f) => f.kind)).toEqual(['cross_tenant_write']);
  });

  test('exchange checks judge the shared write cases; no answer is a failure, never a pass', async () => {
    const bundled = await spec();
    const operation = bundled.operation('orders:update');
    const silent: Client = {
      async send(op, testCase) {
        return { case: testCase, operationId: op.operationId, request: { method: op.method, url: 'http://127.0.0.1:9/v1/orders/x', headers: {} }, transportError: { code: 'UND_ERR_SOCKET', message: 'other side closed' } };
      },
      async close() {},
    };
    const writes = maker([]);
    const result = await runCell({ spec: bundled, operation, check: statusCodeConformance, target: target(['admin']), client: silent, seed: 1, runSeed: 1, runs: 5, writes, writeEvidence: () => sendWriteCases(silent, operation, writes, 2) });
    expect(result.status).toBe('failed');
    expect(result.failures.map((f) => f.kind)).toEqual(['no_response']);
  });

  test('a read-only run skips every write cell with that reason', async () => {
    const { client, sent } = recording(() => ({ status: 200, body: {} }));
    const bundled = await spec();
    const result = await runCell({ spec: bundled, operation: bundled.operation('orders:update'), check: statusCodeConformance, target: target(['admin'], true), client, seed: 1, runSeed: 1, runs: 5, writes: maker([]) });
    expect(result).toMatchObject({ status: 'skipped', skipReason: 'read-only run: the operation may change state', skipKind: 'option' });
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

// A read's cases drawn once for all the cells of its operation (CellInput.draws): each cell judges
// the cases fc.check would have run, and a failing one is shrunk as a run from the start would.
/** A cell of products:list, 40 runs, its cases drawn in `draws` when given (CellInput.draws). */
async function listCell(check: Check, client: Client, draws?: Map<string, readonly unknown[]>) {
  const bundled = await spec();
  return runCell({ spec: bundled, operation: bundled.operation('products:list'), check, target: target(['admin']), client, seed: 7, runSeed: 7, runs: 40, ...(draws ? { draws } : {}) });
}

const limitAbove = (c: TestCase, bound: number) => Number(c.query.limit ?? 0) > bound;

/** The cases sent, each request once, in the order first sent (a cell judges a case drawn again from its first drawing's verdict). */
const distinct = (sent: readonly TestCase[]) => {
  const seen = new Set<string>();
  return sent.filter((c) => {
    const key = JSON.stringify([c.role, c.pathParams, c.query, c.headers, c.body ?? null]);
    return !seen.has(key) && seen.add(key) !== undefined;
  });
};

describe('cases drawn once per operation', () => {
  test('a passing cell sends the cases fc.check sends (a case drawn again once), and a second check of the same kind draws nothing more', async () => {
    const alone = recording(() => ({ status: 200, body: list([]) }));
    const shared = recording(() => ({ status: 200, body: list([]) }));
    const draws = new Map<string, readonly unknown[]>();
    const before = await listCell(statusCodeConformance, alone.client);
    const after = await listCell(statusCodeConformance, shared.client, draws);
    expect(after).toEqual(before);
    expect(shared.sent).toEqual(distinct(alone.sent));
    expect(shared.sent.length).toBeLessThan(alone.sent.length);
    expect(after.cases).toBeGreaterThan(40);
    expect(draws.size).toBe(1);
    const [drawn] = [...draws.values()];
    await listCell(notAServerError, recording(() => ({ status: 200, body: list([]) })).client, draws);
    expect(draws.size).toBe(1);
    expect([...draws.values()][0]).toBe(drawn);
  });

  test('a failing case is shrunk to the counterexample, path, case numbers and count of a run from the start', async () => {
    // A generated limit from 2 to 9 fails (no example's limit does), so the failure is shrunk.
    const failing = (c: TestCase) => limitAbove(c, 1) && !limitAbove(c, 9);
    const answer = (c: TestCase) => (failing(c) ? { status: 418, body: { detail: 'teapot' } } : { status: 200, body: list([]) });
    const alone = recording(answer);
    const shared = recording(answer);
    const before = await listCell(statusCodeConformance, alone.client);
    const after = await listCell(statusCodeConformance, shared.client, new Map());
    expect(before.status).toBe('failed');
    expect(after).toEqual(before);
    // The failing case is not the first one, so the replay starts past passing cases, judged from
    // their first drawing's verdicts. Sending the next cases ahead of their judging sends a few the
    // run from the start did not need (CASES_AHEAD at most), and nothing else.
    expect(before.failures[0]!.case.query.limit).toBe('2');
    expect(alone.sent.findIndex(failing)).toBeGreaterThan(0);
    expect(shared.sent.findIndex(failing)).toBeGreaterThan(0);
    const asked = new Set(distinct(alone.sent).map((c) => JSON.stringify(c.query)));
    expect(distinct(shared.sent).filter((c) => !asked.has(JSON.stringify(c.query))).length).toBeLessThanOrEqual(CASES_AHEAD);
  });

  test('a case whose judging throws gives the same errored cell as a run from the start', async () => {
    const answer = (c: TestCase) => {
      if (limitAbove(c, 30)) throw new Error('the target went away');
      return { status: 200, body: list([]) };
    };
    const before = await listCell(statusCodeConformance, recording(answer).client);
    const after = await listCell(statusCodeConformance, recording(answer).client, new Map());
    expect(before.status).toBe('errored');
    expect(after).toEqual(before);
  });
});
