// The preflight: printed before the first request, naming each role's variable and what it
// unlocks; a remote run without the admin token stops with exit 2 unless --allow-missing-roles;
// --fail-on-skipped fails a run whose cells were skipped for a missing role.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHECKS } from '../../checks/index.js';
import { SCENARIOS } from '../../engine/stateful/registry.js';
import { formatPreflight, preflight, unlocks, type PreflightInput } from '../../cli/preflight.js';
import { runConformance, skippedForLack } from '../../cli/run.js';
import type { Target } from '../../core/target.js';
import { loadSpec, specPath, type LoadedSpec } from '../../core/spec/load.js';

const capture = () => {
  const chunks: string[] = [];
  const stream = new Writable({ write: (chunk, _e, done) => (chunks.push(String(chunk)), done()) });
  return { stream, text: () => chunks.join('') };
};

const remote = (roles: Target['roles']): Target => ({ baseUrl: 'http://127.0.0.1:9', kind: 'remote', roles, fixtures: {}, requestsPerSecond: null, timeoutMs: 1000, readOnly: false });

describe('preflight', () => {
  let spec: LoadedSpec;
  let input: (target: Target, operationIds?: string[]) => PreflightInput;
  beforeAll(async () => {
    spec = await loadSpec();
    input = (target, operationIds = spec.operations.map((o) => o.operationId)) => ({ target, specFile: specPath(), spec, seed: 42, operationIds, checks: CHECKS, statefulIds: [] });
  });

  test('a remote target without tokens misses admin, and every role names its variable', () => {
    const result = preflight(input(remote({})));
    expect(result.missingRequired.map((r) => r.role)).toEqual(['admin']);
    expect(result.roles.find((r) => r.role === 'admin')).toMatchObject({ present: false, env: 'CONFORMANCE_ADMIN_TOKEN' });
    expect(result.roles.find((r) => r.role === 'admin')!.operations).toBeGreaterThan(0);
    expect(result.roles.find((r) => r.role === 'other_org')!.checks).toContain('tenant_isolation');
    const text = formatPreflight(input(remote({})));
    expect(text).toContain('target   http://127.0.0.1:9 (remote)');
    expect(text).toContain('seed     42');
    expect(text).toMatch(/    ✗ admin +not set  CONFORMANCE_ADMIN_TOKEN\n        unlocks valid requests of \d+ operations; tenant_isolation_lists/);
    expect(text).toContain('    export CONFORMANCE_OTHER_ORG_TOKEN=…');
    // An 80-column terminal: no line is wider (the spec path aside, which is as long as it is).
    for (const line of text.split('\n').filter((l) => !l.startsWith('  spec'))) expect(line.length).toBeLessThanOrEqual(80);
  });

  test('the embedded reference provides every role: one line', () => {
    const roles = Object.fromEntries(['admin', 'reader', 'writer', 'no_scope', 'other_org', 'pat', 'customer_session', 'member_session', 'oauth_client'].map((r) => [r, { token: 't', env: 'V' }]));
    const text = formatPreflight(input({ ...remote(roles), kind: 'embedded' }));
    expect(text).toContain('  roles    all 9 provided by the embedded reference\n');
    expect(text).not.toContain('export');
  });

  test.each([
    [{ operations: 0, checks: [] }, 'nothing selected uses it'],
    [{ operations: 2, checks: ['a', 'b'] }, 'valid requests of 2 operations; a, b'],
    [{ operations: 1, checks: ['aaaa', 'bbbb', 'cccc'] }, 'valid requests of 1 operation; 3 checks'],
    [{ operations: 0, checks: ['aaaaaaaaaa', 'bbbbbbbbbb', 'cccccccccc', 'dddddddddd'] }, 'aaaaaaaaaa, bbbbbbbbbb and 2 more'],
    [{ operations: 0, checks: ['a'.repeat(41), 'b'] }, '2 checks'],
  ] as const)('unlocks %o within 40 characters', (counts, want) => {
    expect(unlocks({ role: 'admin', present: false, env: 'V', ...counts, checks: [...counts.checks] }, 40)).toBe(want);
  });

  test('the variable a config names is shown, and a present admin is not missing', () => {
    const target = remote({ admin: { token: 't', env: 'BILLING_ADMIN_TOKEN' } });
    const result = preflight({ ...input(target), configuredEnv: { reader: 'BILLING_READER_TOKEN' } });
    expect(result.missingRequired).toEqual([]);
    expect(result.roles.find((r) => r.role === 'admin')).toMatchObject({ present: true, env: 'BILLING_ADMIN_TOKEN' });
    expect(result.roles.find((r) => r.role === 'reader')).toMatchObject({ present: false, env: 'BILLING_READER_TOKEN' });
  });

  test('admin is not required when no selected operation takes its token', () => {
    const portal = spec.operations.filter((o) => o.operationId.startsWith('customer_portal')).map((o) => o.operationId);
    expect(portal.length).toBeGreaterThan(0);
    const scenario = SCENARIOS.find((s) => s.roles.includes('admin'))!;
    const result = preflight({ ...input(remote({}), portal), statefulIds: [scenario.id] });
    expect(result.missingRequired).toEqual([]);
    // Still shown as missing, with what it would unlock.
    expect(result.roles.find((r) => r.role === 'admin')).toMatchObject({ present: false, operations: 0, checks: expect.arrayContaining(['tenant_isolation_lists', scenario.id]) });
  });
});

describe('skippedForLack', () => {
  test.each([
    [{ status: 'skipped', skipKind: 'role' }, true],
    [{ status: 'skipped', skipKind: 'fixture' }, true],
    [{ status: 'skipped', skipKind: 'adapter' }, true],
    [{ status: 'skipped', skipKind: 'option' }, false],
    // The kind is what counts, never the reason's words.
    [{ status: 'skipped', skipReason: 'needs role other_org' }, false],
    [{ status: 'not_applicable', skipKind: 'role' }, false],
    [{ status: 'passed' }, false],
  ] as const)('%o → %s', (cell, want) => expect(skippedForLack(cell)).toBe(want));
});

describe('a remote run without tokens', () => {
  let server: Server;
  let url: string;
  let requests = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests++;
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"ResourceNotFound","detail":"Not found"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('stops with CNF_ERR_ROLE_MISSING after the preflight, before any request', async () => {
    const out = capture();
    await expect(runConformance({ target: url, env: {}, seed: 1, reporters: [], out: out.stream })).rejects.toMatchObject({
      code: 'CNF_ERR_ROLE_MISSING',
      message: expect.stringContaining('export CONFORMANCE_ADMIN_TOKEN=…'),
    });
    expect(out.text()).toContain('conformance preflight');
    expect(out.text()).toMatch(/✗ admin +not set  CONFORMANCE_ADMIN_TOKEN/);
    expect(requests).toBe(0);
  });

  test('with --allow-missing-roles it runs, its cells skipped; --fail-on-skipped makes that exit 1', async () => {
    const options = { target: url, env: {}, seed: 1, runs: 1, checks: ['not_a_server_error'], operations: ['products:list'], reporters: [], allowMissingRoles: true };
    const out = capture();
    const outcome = await runConformance({ ...options, failOnSkipped: true, out: out.stream });
    expect(requests).toBeGreaterThan(0);
    expect(outcome.results.cells).toEqual([
      expect.objectContaining({ operationId: 'products:list', checkId: 'not_a_server_error', status: 'skipped', skipReason: 'needs role admin', skipKind: 'role', fix: 'export CONFORMANCE_ADMIN_TOKEN=…' }),
    ]);
    expect(outcome.exitCode).toBe(1);
    expect(out.text()).toContain('--fail-on-skipped: 1 cell skipped for a missing role, fixture or adapter');
  }, 60_000);

  test('--fail-on must: a run whose only failure is of a should-level check exits 0, and 1 without it', async () => {
    // positive_data_acceptance is should-level: a target that refuses every valid request with 422 fails it.
    const refusing = createServer((_req, res) => res.writeHead(422, { 'content-type': 'application/json' }).end('{"detail":[{"loc":["query","limit"],"msg":"refused","type":"value_error"}]}'));
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const target = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
      const options = { target, env: { CONFORMANCE_ADMIN_TOKEN: 'x' }, seed: 1, runs: 1, checks: ['positive_data_acceptance'], operations: ['products:list'], reporters: [] };
      const strict = await runConformance(options);
      expect(strict.results.cells.map((c) => [c.checkId, c.status])).toEqual([['positive_data_acceptance', 'failed']]);
      expect(strict.exitCode).toBe(1);
      expect((await runConformance({ ...options, failOn: 'must' })).exitCode).toBe(0);
    } finally {
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  }, 60_000);
});
