// The observed judge: scope judged for tokens of a known role, cells of what the traffic did not
// show skipped "not observed" (never passed), the document chosen by the version the answer names.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { API_VERSIONS, loadSpec, specPath, type LoadedSpec } from '../../../core/spec/load.js';
import { ObservedJudge, type ObservedVerdict } from '../../../engine/observed/judge.js';
import { judgedFetch } from '../../../engine/observed/library.js';
import { startReferenceServer, type RunningReference } from '../../../server/index.js';
import type { Role } from '../../../core/types.js';

let specs: LoadedSpec[];
let clean: RunningReference;
let faulty: RunningReference;
beforeAll(async () => {
  specs = await Promise.all(API_VERSIONS.map((v) => loadSpec(specPath(v))));
  clean = await startReferenceServer({ host: '127.0.0.1', port: 0, rateLimit: false, control: false });
  faulty = await startReferenceServer({ host: '127.0.0.1', port: 0, rateLimit: false, control: false, faults: ['scopes_ignored'] });
});
afterAll(async () => {
  await clean.close();
  await faulty.close();
});

/** A judge knowing the reference's no_scope and reader tokens, and a fetch judged by it. */
function judging(reference: RunningReference) {
  const roles = (['no_scope', 'reader'] as Role[]).map((role) => ({ token: (reference.tokens as Record<string, string>)[role]!, role, env: `CONFORMANCE_${role.toUpperCase()}_TOKEN` }));
  const judge = new ObservedJudge({ specs, roles });
  const verdicts: ObservedVerdict[] = [];
  const pending = new Set<Promise<void>>();
  const send = async (method: string, path: string, role: Role, body?: unknown) => {
    const judged = judgedFetch(judge, (v) => verdicts.push(v), fetch, pending);
    const response = await judged(`${reference.url}${path}`, { method, headers: { authorization: `Bearer ${(reference.tokens as Record<string, string>)[role]}`, 'polar-version': '2026-10', 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    await response.arrayBuffer();
    await Promise.all([...pending]);
    return response.status;
  };
  return { judge, verdicts, send };
}

const FILE = { name: 'a.png', mime_type: 'image/png', size: 10, service: 'product_media', upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 9 }] } };
const cell = (judge: ObservedJudge, operationId: string, checkId: string) => judge.results().cells.find((c) => c.operationId === operationId && c.checkId === checkId);

describe('ObservedJudge', () => {
  test('tokens of a known role on the clean reference: the scope checks pass', async () => {
    const { judge, send } = judging(clean);
    expect(await send('GET', '/v1/products/?limit=2', 'no_scope')).toBe(403);
    expect(await send('GET', '/v1/products/?limit=2', 'reader')).toBe(200);
    expect(await send('POST', '/v1/files/', 'reader', FILE)).toBe(403);
    expect(cell(judge, 'products:list', 'insufficient_scope_rejected')?.status).toBe('passed');
    expect(cell(judge, 'products:list', 'read_scope_accepted')?.status).toBe('passed');
    expect(cell(judge, 'files:create', 'write_scope_required')?.status).toBe('passed');
    expect(judge.results().cells.filter((c) => c.status === 'failed')).toEqual([]);
  });

  test('with scopes_ignored: a no_scope token served is scope_ignored, a reader served a write is write_scope_ignored', async () => {
    const { judge, send } = judging(faulty);
    expect(await send('GET', '/v1/products/?limit=2', 'no_scope')).toBe(200);
    expect(await send('POST', '/v1/files/', 'reader', FILE)).toBe(200);
    expect(cell(judge, 'products:list', 'insufficient_scope_rejected')?.failures.map((f) => f.kind)).toEqual(['scope_ignored']);
    expect(cell(judge, 'files:create', 'write_scope_required')?.failures.map((f) => f.kind)).toEqual(['write_scope_ignored']);
    // Reproducers name the role's variable, never the token.
    expect(cell(judge, 'products:list', 'insufficient_scope_rejected')?.failures[0]?.reproduce.curl).toContain('${CONFORMANCE_NO_SCOPE_TOKEN}');
  });

  test.each([
    ['the clean reference', 'passed', [], []],
    ['benefits_update_not_persisted', 'failed', ['benefits_update_not_persisted'], ['write_not_persisted']],
  ])('a write read back by its client, against %s: write_effect_visible %s', async (_name, status, faults, kinds) => {
    const reference = await startReferenceServer({ host: '127.0.0.1', port: 0, rateLimit: false, control: false, faults });
    try {
      const judge = new ObservedJudge({ specs });
      const pending = new Set<Promise<void>>();
      const judged = judgedFetch(judge, () => undefined, fetch, pending);
      const headers = { authorization: `Bearer ${reference.tokens.admin}`, 'polar-version': '2026-10', 'content-type': 'application/json' };
      const product = reference.fixtures.product_id!;
      // A set other than the product's own, so that a write that stores nothing shows.
      const before = (await (await fetch(`${reference.url}/v1/products/${product}`, { headers })).json()) as { benefits: unknown[] };
      const benefits = before.benefits.length > 0 ? [] : [reference.fixtures.benefit_id];
      const write = await judged(`${reference.url}/v1/products/${product}/benefits`, { method: 'POST', headers, body: JSON.stringify({ benefits }) });
      expect(write.status).toBe(200);
      await write.arrayBuffer();
      await Promise.all([...pending]);
      await (await judged(`${reference.url}/v1/products/${product}`, { headers })).arrayBuffer();
      await Promise.all([...pending]);
      const effect = cell(judge, 'products:update_benefits', 'write_effect_visible');
      expect(effect?.status).toBe(status);
      expect(effect?.failures.map((f) => f.kind)).toEqual(kinds);
    } finally {
      await reference.close();
    }
  });

  test('a refused write is not judged for its effect: not observed', async () => {
    const { judge, send } = judging(clean);
    const product = clean.fixtures.product_id!;
    await send('POST', `/v1/products/${product}/benefits`, 'reader', { benefits: [] });
    expect(cell(judge, 'products:update_benefits', 'write_effect_visible')?.status).toBe('skipped');
  });

  test('what the traffic did not show is skipped "not observed", never passed', async () => {
    const { judge, send } = judging(clean);
    await send('GET', '/v1/products/?limit=2', 'reader');
    const results = judge.results();
    expect(cell(judge, 'products:list', 'missing_auth_rejected')).toMatchObject({ status: 'skipped', skipReason: 'not observed: no request without credentials' });
    expect(cell(judge, 'orders:get', 'response_schema_conformance')).toMatchObject({ status: 'skipped', skipReason: 'not observed: no exchange of this operation in the traffic' });
    expect(results.cells.filter((c) => c.status === 'passed').every((c) => c.operationId === 'products:list' && c.cases > 0)).toBe(true);
    expect(results.coverage?.totals.operations.covered).toBe(1);
  });

  test('the document is the version the answer names, else the request\'s, else 2026-04', () => {
    const judge = new ObservedJudge({ specs });
    const request = (version?: string): { headers: Record<string, string> } => ({ headers: version ? { 'polar-version': version } : {} });
    expect(judge.documentOf(request('2026-10')).version).toBe('2026-10');
    expect(judge.documentOf(request()).version).toBe('2026-04');
    expect(judge.documentOf(request('2026-10'), { headers: { 'polar-version': '2026-04' } }).version).toBe('2026-04');
  });
});
