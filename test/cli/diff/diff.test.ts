// `conformance diff`: whole diffs between reference servers (127.0.0.1, free ports): a faulted one
// against the embedded clean one reports the difference with a short shrunk sequence that names the
// faulted command and replays; two clean ones report none; a target that stops answering fails.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runDiff, type DiffOptions } from '../../../cli/diff/run.js';
import { startReferenceServer, type RunningReference } from '../../../server/index.js';
import { startChaosTarget } from '../chaos-target.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SEED = 20261122;

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
