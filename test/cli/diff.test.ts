// `conformance diff`: the normalization that makes two targets' answers comparable, and whole
// diffs between reference servers (127.0.0.1, free ports): a faulted one against the embedded
// clean one reports the difference with a short shrunk sequence that names the faulted command and
// replays; two clean ones report none.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Observation } from '../../engine/stateful/real.js';
import { compareStep, IdMap, normalize, runDiff, type DiffOptions } from '../../cli/diff.js';
import type { Exchange } from '../../core/types.js';
import { startReferenceServer, type RunningReference } from '../../server/index.js';
import { startChaosTarget } from './chaos-target.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SEED = 20261122;

/** An observation of a request answered `status` with `json`. */
function answered(what: string, status: number, json: unknown): Observation {
  const exchange = { response: { status, headers: {}, body: JSON.stringify(json), json, elapsedMs: 1 } } as unknown as Exchange;
  return { what, exchange };
}

const compare = (target: Observation[], reference: Observation[]) => compareStep(target, reference, { target: new IdMap(), reference: new IdMap() });

describe('normalization', () => {
  test('paths carry JSON types, uuids and date-times as such; booleans, states and mapped ids as values', () => {
    const normalized = normalize({ id: '9b2f6a52-9d1c-4a0e-8d2e-0c6a1c1e2f3a', status: 'paid', paid: true, created_at: '2026-11-22T10:00:00.123456Z', name: 'x', items: [{ amount: 5 }] }, new IdMap());
    expect(Object.fromEntries(normalized)).toEqual({
      body: { type: 'object' },
      'body.created_at': { type: 'date-time' },
      'body.id': { type: 'uuid', value: '#1' },
      'body.items': { type: 'array', value: 1 },
      'body.items[0]': { type: 'object' },
      'body.items[0].amount': { type: 'integer' },
      'body.name': { type: 'string' },
      'body.paid': { type: 'boolean', value: true },
      'body.status': { type: 'string', value: 'paid' },
    });
  });

  test.each([
    ['ids differ but appear in the same order', { id: 'aaaaaaaa-0000-4000-8000-000000000001', order_id: 'aaaaaaaa-0000-4000-8000-000000000002' }, { id: 'bbbbbbbb-0000-4000-8000-000000000009', order_id: 'bbbbbbbb-0000-4000-8000-000000000008' }],
    ['timestamps differ in value, not in format', { created_at: '2026-11-22T10:00:00.000001Z' }, { created_at: '2027-01-01T00:00:00.999999Z' }],
    ['free text differs', { detail: 'The token is invalid.' }, { detail: 'Invitation unknown.' }],
  ])('no difference when %s', (_name, target, reference) => {
    expect(compare([answered('GET /x', 200, target)], [answered('GET /x', 200, reference)])).toEqual([]);
  });

  test.each([
    ['the status', answered('POST /c', 200, {}), answered('POST /c', 422, {}), [{ where: 'POST /c', kind: 'status', target: '200', reference: '422' }]],
    ['a status field', answered('GET /o', 200, { status: 'paid' }), answered('GET /o', 200, { status: 'pending' }), [{ where: 'GET /o body.status', kind: 'value', target: 'paid', reference: 'pending' }]],
    ['a timestamp that is null on one side', answered('GET /s', 200, { ended_at: null }), answered('GET /s', 200, { ended_at: '2026-11-22T10:00:00Z' }), [{ where: 'GET /s body.ended_at', kind: 'shape', target: 'null', reference: 'date-time' }]],
    ['an object absent on one side, reported once, not per field', answered('POST /c', 200, { seat: { id: 'x', status: 'claimed' } }), answered('POST /c', 200, {}), [{ where: 'POST /c body.seat', kind: 'shape', target: 'object', reference: 'absent' }]],
    ['ids in another order', answered('GET /l', 200, { a_id: 'aaaaaaaa-0000-4000-8000-000000000001', b_id: 'aaaaaaaa-0000-4000-8000-000000000002' }), answered('GET /l', 200, { a_id: 'aaaaaaaa-0000-4000-8000-000000000001', b_id: 'aaaaaaaa-0000-4000-8000-000000000001' }), [{ where: 'GET /l body.b_id', kind: 'value', target: '#2', reference: '#1' }]],
    ['a noted count', { what: 'events about o1', value: { 'order.paid': 1 } }, { what: 'events about o1', value: { 'order.paid': 0 } }, [{ where: 'events about o1 value.order.paid', kind: 'value', target: 1, reference: 0 }]],
    ['another request', answered('GET /a', 200, {}), answered('GET /b', 200, {}), [{ where: 'observation 1', kind: 'request', target: 'GET /a', reference: 'GET /b' }]],
  ])('a difference in %s', (_name, target, reference, want) => {
    expect(compare([target as Observation], [reference as Observation])).toEqual(want);
  });

  test('an adapter refusal on one side is a difference of status', () => {
    const done: Observation = { what: 'adapter.completeOrder', adapter: { capability: 'completeOrder', result: { status: 'paid' } } };
    const refused: Observation = { what: 'adapter.completeOrder', adapter: { capability: 'completeOrder', refused: 'answered 409' } };
    expect(compare([done], [refused])).toEqual([
      { where: 'adapter.completeOrder', kind: 'status', target: 'done', reference: 'refused' },
      { where: 'adapter.completeOrder result', kind: 'shape', target: 'object', reference: 'absent' },
    ]);
  });
});

/** A reference served as `conformance serve` would (control API on), and the environment holding its demo tokens as `CONFORMANCE_<ROLE>_TOKEN`. */
async function servedReference(faults: string[] = []): Promise<{ running: RunningReference; env: NodeJS.ProcessEnv }> {
  const running = await startReferenceServer({ host: '127.0.0.1', port: 0, seed: 1, rateLimit: false, faults });
  const env: NodeJS.ProcessEnv = {};
  for (const [role, token] of Object.entries(running.credentials)) env[`CONFORMANCE_${role.toUpperCase()}_TOKEN`] = token;
  return { running, env };
}

/** Runs a diff against `target`, its report captured. */
async function diff(target: { running: RunningReference; env: NodeJS.ProcessEnv }, options: Partial<DiffOptions>) {
  let printed = '';
  const out = new Writable({ write: (chunk, _enc, done) => ((printed += String(chunk)), done()) });
  const outcome = await runDiff({ target: target.running.url, adapter: 'reference', env: target.env, seed: SEED, rate: null, out, ...options });
  return { outcome, printed };
}

describe('a reference with invitation_token_reusable against the clean embedded one', () => {
  let faulted: Awaited<ReturnType<typeof servedReference>>;
  beforeAll(async () => {
    faulted = await servedReference(['invitation_token_reusable']);
  });
  afterAll(() => faulted?.running.close());

  test('differs at the second claim of a seat, shrunk to a short sequence, printed with both sides, the seed and the path', async () => {
    const { outcome, printed } = await diff(faulted, { families: ['seats'], runs: 10 });
    expect(outcome.exitCode).toBe(1);
    const [seats] = outcome.families;
    expect(seats).toMatchObject({ family: 'seats', status: 'different' });
    const difference = seats!.difference!;
    expect(difference.length).toBeLessThanOrEqual(4);
    expect(difference.step.command).toMatch(/^claimSeat\(s\d\)\[reused\]$/);
    expect(difference.commands.split(' → ')).toHaveLength(difference.length);
    expect(difference.differences).toContainEqual({ where: 'POST /v1/customer-seats/claim', kind: 'status', target: '200', reference: '422' });
    expect(printed).toContain(`Commands (shrunk`);
    expect(printed).toContain(`First differing step: ${difference.step.index}. ${difference.step.command}`);
    expect(printed).toMatch(/target: {4}200 .*\n\s+reference: 422 /);
    expect(printed).toContain(`--families seats --seed ${SEED} --path "${difference.path}"`);

    const replayed = await diff(faulted, { families: ['seats'], runs: 10, path: difference.path });
    expect(replayed.outcome.families[0]!.difference!.commands).toBe(difference.commands);
  });

  test('the command line exits 1 and prints the difference', async () => {
    const args = ['bin/conformance.js', 'diff', '--target', faulted.running.url, '--adapter', 'reference', '--families', 'model_seats', '--seed', String(SEED), '--runs', '10', '--rate', '0'];
    const failed = await promisify(execFile)(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...faulted.env } }).then(() => ({ code: 0, stdout: '' }), (error: { code: number; stdout: string }) => error);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/claimSeat\(s\d\)\[reused\]/);
  });
});

describe('a reference whose seat claims answer text/plain against the clean embedded one', () => {
  let faulted: Awaited<ReturnType<typeof servedReference>>;
  beforeAll(async () => {
    faulted = await servedReference(['seats_claim_text_plain']);
  });
  afterAll(() => faulted?.running.close());

  test('the same sequences, but the target\'s answers fail content_type_conformance: exit 1', async () => {
    const { outcome, printed } = await diff(faulted, { families: ['seats'], runs: 2 });
    expect(outcome.families[0]).toMatchObject({ family: 'seats', status: 'same' });
    expect(outcome.judged.map((c) => [c.operationId, c.checkId])).toContainEqual(['customer_seats:claim', 'content_type_conformance']);
    expect(outcome.exitCode).toBe(1);
    expect(printed).toMatch(/✗ customer_seats:claim content_type_conformance/);
  });
});

describe('two clean references', () => {
  let clean: Awaited<ReturnType<typeof servedReference>>;
  beforeAll(async () => {
    clean = await servedReference();
  });
  afterAll(() => clean?.running.close());

  test('report no difference in any family', async () => {
    const { outcome, printed } = await diff(clean, { runs: 2 });
    expect(outcome.families.map((f) => [f.family, f.status, f.skipReason])).toEqual([
      ['orders', 'same', undefined],
      ['seats', 'same', undefined],
      ['product-benefits', 'same', undefined],
      ['customers', 'same', undefined],
      ['files', 'same', undefined],
    ]);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.judged).toEqual([]);
    expect(printed).toContain('0 families differ, 5 same, 0 skipped; 0 response checks failed');
  });

  test.each([
    ['an unknown family', { families: ['nope'] }],
    ['a path with more than one family', { families: ['seats', 'files'], path: '1@A:B' }],
    ['a path that is not a model path', { families: ['seats'], path: 'nope' }],
  ])('%s is a harness error (exit 2)', async (_name, options) => {
    await expect(diff(clean, options)).rejects.toMatchObject({ code: 'CNF_ERR_CONFIG_INVALID' });
  });
});

describe('a target that stops answering', () => {
  test('is declared unresponsive after --unresponsive-after requests without an answer; later requests fail at once, unsent; no family is "same"; the diff fails', async () => {
    const chaos = await startChaosTarget({ behaviour: 'hang' });
    const env = Object.fromEntries(['admin', 'reader', 'writer', 'other_org'].map((role) => [`CONFORMANCE_${role.toUpperCase()}_TOKEN`, 'token']));
    const chunks: string[] = [];
    const out = new Writable({ write: (chunk, _e, done) => (chunks.push(String(chunk)), done()) });
    const outcome = await runDiff({ target: chaos.url, env, seed: SEED, runs: 2, families: ['customers', 'files'], rate: null, timeoutMs: 300, unresponsiveAfter: 2, out }).finally(() => chaos.close());
    expect(chaos.requests() - chaos.requests('/')).toBe(2);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.judged.length).toBeGreaterThan(0);
    // No family is "same" on a target that answered nothing: the customers family drew nothing to compare from its unanswered read.
    expect(outcome.families.map((f) => [f.family, f.status])).toEqual([['customers', 'unanswered'], ['files', 'different']]);
    expect(outcome.families[0]!.unanswered).toBeGreaterThan(0);
    expect(chunks.join('')).toContain('NO ANSWER');
    expect(chunks.join('')).toContain('the target was declared unresponsive');
  });
});
