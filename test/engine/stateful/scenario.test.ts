// The scenario runner: why a scenario cannot run, how its outcome becomes a cell (passed, failed,
// skipped, a stop, a harness error), and what its failures carry (steps, reproducer, secrets hidden).
import { JudgedCells } from '../../../engine/judge.js';
import { describe, expect, test } from 'vitest';
import { scenario } from '../../../engine/stateful/registry.js';
import { type TargetAdapter } from '../../../core/adapter.js';
import { guardAdapter } from '../../../engine/adapters/load.js';
import type { Client } from '../../../engine/client.js';
import type { Target } from '../../../core/target.js';
import type { Exchange } from '../../../core/types.js';
import { BUNDLED_ROUTES, loadSpec } from '../../../core/spec/load.js';
import { documentOperationIds, runScenario, whyNot, type StatefulSuite } from '../../../engine/stateful/scenario.js';
import type { NotRunnable } from '../../../engine/stateful/runnable.js';
import type { SkipKind } from '../../../core/types.js';

const spec = await loadSpec();
const TARGET: Target = {
  baseUrl: 'http://127.0.0.1:4010',
  kind: 'embedded',
  roles: { admin: { token: 'tok_admin_0001', env: 'CONFORMANCE_ADMIN_TOKEN' }, customer_session: { token: 'tok_cs_0002', env: 'CONFORMANCE_CUSTOMER_SESSION_TOKEN' }, oauth_client: { token: 'tok_client_0003', env: 'CONFORMANCE_OAUTH_CLIENT_TOKEN' } },
  fixtures: { product_id: 'p1', other_organization_benefit_id: 'b2', customer_id: 'c1', order_id: 'o1', customer_external_id: 'cus_1', oauth_client_id: 'client' },
  requestsPerSecond: null,
  timeoutMs: 1000,
  readOnly: false,
};
const ALL = guardAdapter({ name: 'all', createOrder: async () => ({ id: 'o2', status: 'pending' }), completeOrder: async () => ({}), createSeatInvitation: async () => ({ seat: {}, invitationToken: 't' }), mintAuthorizationCode: async () => ({ code: 'c', clientId: 'client', redirectUri: null }), advanceClock: async () => {}, createWebhookEndpoint: async () => ({ id: 'w', secret: 's' }), setWebhookEndpointEnabled: async () => {}, listEvents: async () => [] }, 'test');

/** A suite whose client answers every request with `status` and `body`. */
function suiteOf(overrides: Partial<Target> = {}, adapter: TargetAdapter | null = ALL, status = 200, body: unknown = { ok: true }): StatefulSuite {
  const target = { ...TARGET, ...overrides };
  const client: Client = {
    async send(operation, testCase): Promise<Exchange> {
      return { case: testCase, operationId: operation.operationId, request: { method: operation.method, url: `${target.baseUrl}${operation.path}`, headers: { authorization: `Bearer ${target.roles.admin?.token}` }, ...(testCase.body ? { body: testCase.body.text } : {}) }, response: { status, headers: {}, body: JSON.stringify(body), json: body, elapsedMs: 1 } };
    },
    async close() {},
  };
  return { run: { target, specFile: spec.file, seed: 7, runs: 1 }, spec, target, client, adapter: adapter ?? undefined, clientFor: () => client, judged: new JudgedCells(spec), stepsFrom: () => {} };
}

/** The reason a scenario does not run, whether not applicable or skipped. */
const reasonOf = (not: NotRunnable | undefined) => (not?.status === 'skipped' ? not.skip.reason : not?.reason);

describe('whyNot', () => {
  test.each<[string, Partial<Target>, TargetAdapter | null, string, string | undefined, SkipKind | undefined]>([
    ['a read-only run', { readOnly: true }, ALL, 'receipt_fetchable', 'read-only run: the scenario changes state', 'option'],
    ['no adapter', {}, null, 'order_paid_transition', 'needs adapter capability createOrder (no adapter: pass --adapter FILE)', 'adapter'],
    ['a missing role', { roles: {} }, ALL, 'receipt_fetchable', 'needs role admin', 'role'],
    ['a missing fixture', { fixtures: {} }, ALL, 'receipt_fetchable', 'needs fixture order_id', 'fixture'],
    ['a webhook scenario against a remote host', { baseUrl: 'https://api.example.com' }, ALL, 'webhook_signed', 'needs a target on this machine: the webhook receiver listens on 127.0.0.1', 'option'],
    ['everything there', {}, ALL, 'webhook_signed', undefined, undefined],
  ])('%s', (_name, overrides, adapter, id, reason, kind) => {
    const not = whyNot(suiteOf(overrides, adapter), scenario(id));
    expect(reasonOf(not)).toBe(reason);
    expect(not?.status === 'skipped' ? not.skip.kind : undefined).toBe(kind);
  });
});

describe('binding to a document', () => {
  const other = { ...spec, apiRules: false } as typeof spec;
  // The bundled document renamed: the same routes under other operationIds, opted in to the rules.
  const renamed = { ...spec, apiRules: true, operations: spec.operations.map((o) => ({ ...o, operationId: `x_${o.operationId}` })), document: { ...spec.document, webhooks: {} } } as typeof spec;

  test("on a document without the bundled API's rules every scenario is not applicable, whatever its operationIds", () => {
    const suite = { ...suiteOf(), spec: other };
    expect(whyNot(suite, scenario('receipt_fetchable'))).toMatchObject({ status: 'not_applicable', reason: expect.stringMatching(/^a scenario of the bundled API's rules \(spec\/rules.yaml\), not of this document/) });
  });

  test('a document that opts in finds the scenario operations by method and path pattern', () => {
    const ids = documentOperationIds(renamed);
    expect(ids.has('orders:get_receipt')).toBe(true);
    expect(ids.has('x_orders:get_receipt')).toBe(true);
    expect(ids.has('webhooks:order_paid')).toBe(false);
    expect(whyNot({ ...suiteOf(), spec: renamed }, scenario('receipt_fetchable'))).toBeUndefined();
    expect(whyNot({ ...suiteOf(), spec: renamed }, scenario('webhook_signed'))).toEqual({ status: 'not_applicable', reason: 'the document has no operation webhooks:order_created' });
  });

  test('BUNDLED_ROUTES is the bundled document, operation by operation', () => {
    const routes = Object.fromEntries(spec.operations.map((o) => [o.operationId, `${o.method} ${o.path}`]));
    for (const [name, item] of Object.entries<Record<string, { operationId: string }>>(spec.document.webhooks ?? {})) for (const op of Object.values(item)) routes[op.operationId] = `WEBHOOK ${name}`;
    expect(BUNDLED_ROUTES).toEqual(routes);
  });
});

describe('runScenario', () => {
  const receipt = scenario('receipt_fetchable');

  test('a scenario that finds nothing passes, with what it observed of its own operation', async () => {
    const cell = await runScenario(suiteOf(), receipt, async (s) => {
      await s.send('orders:get_receipt', { role: 'admin', pathParams: { id: 'o1' } });
      await s.send('products:list', { role: 'admin', query: { limit: '1' } });
      s.transition('order', 'pending', 'paid');
    });
    expect(cell).toEqual({ operationId: 'orders:get_receipt', checkId: 'receipt_fetchable', status: 'passed', cases: 1, failures: [], observed: { statuses: [200], parameters: ['path:id'] }, transitions: ['order: pending→paid'] });
  });

  test('a failure is data: steps, the request, and a reproducer with every secret hidden', async () => {
    const cell = await runScenario(suiteOf(), receipt, async (s) => {
      s.secret('tok_session_0004', 'SESSION');
      const exchange = await s.send('oauth2:token', { form: { client_secret: 'tok_session_0004', code: 'x' } });
      s.check(false, { kind: 'k', title: 'T', message: 'M' }, exchange);
    });
    expect(cell.status).toBe('failed');
    const [failure] = cell.failures;
    expect(failure).toMatchObject({ checkId: 'receipt_fetchable', rule: 'orders.receipt_presigned_url', severity: 'medium', operationId: 'orders:get_receipt', kind: 'k', caseId: 'receipt_fetchable#0', message: 'M\nSteps: 1) POST /v1/oauth2/token → 200', reproduce: { seed: 7 } });
    expect(failure!.reproduce.curl).toContain('${SESSION}');
    expect(failure!.reproduce.curl).toContain('${CONFORMANCE_ADMIN_TOKEN}');
    expect(failure!.reproduce.curl).not.toContain('tok_session_0004');
  });

  test('a failure without any request names the adapter steps instead', async () => {
    const cell = await runScenario(suiteOf(), scenario('order_paid_transition'), async (s) => {
      await s.adapter('createOrder')({});
      s.fail({ kind: 'k', title: 'T', message: 'M' });
    });
    expect(cell.failures[0]).toMatchObject({ request: { method: 'ADAPTER', url: 'adapter:all' }, reproduce: { curl: '# no single request shows this; the steps were: adapter.createOrder({})' } });
  });

  test('stop ends the scenario with its failure; skip ends it skipped, unless a failure came first', async () => {
    let after = false;
    const stopped = await runScenario(suiteOf(), receipt, async (s) => {
      s.stop({ kind: 'k', title: 'T', message: 'M' });
      after = true;
    });
    expect([stopped.status, stopped.failures.length, after]).toEqual(['failed', 1, false]);
    expect(await runScenario(suiteOf(), receipt, async (s) => s.skip('no such thing'))).toMatchObject({ status: 'skipped', skipReason: 'no such thing', cases: 0 });
    const failedFirst = await runScenario(suiteOf(), receipt, async (s) => {
      s.fail({ kind: 'k', title: 'T', message: 'M' });
      s.skip('no such thing');
    });
    expect(failedFirst.status).toBe('failed');
  });

  test('require stops on a refusal with the step named', async () => {
    const cell = await runScenario(suiteOf({}, ALL, 404, { error: 'ResourceNotFound' }), receipt, async (s) => {
      s.require(await s.send('orders:get_receipt', { role: 'admin', pathParams: { id: 'o1' } }), 'GET the receipt');
    });
    expect(cell.failures[0]).toMatchObject({ kind: 'step_refused', actual: 404, message: expect.stringContaining('GET the receipt answered 404') });
  });

  test('an adapter error or a bug propagates: a harness error, never a cell', async () => {
    const failing = guardAdapter({ name: 'x', createOrder: async () => { throw new Error('down'); } }, 'test');
    await expect(runScenario(suiteOf({}, failing), scenario('portal_isolation'), async (s) => { await s.adapter('createOrder')({}); })).rejects.toMatchObject({ code: 'CNF_ERR_ADAPTER' });
    await expect(runScenario(suiteOf(), receipt, async (s) => s.transition('order', 'paid', 'pending'))).rejects.toThrow(/no transition table has/);
  });
});
