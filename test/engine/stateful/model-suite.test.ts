// The model-based suites as `conformance run` runs them: against the clean embedded reference every
// family's cell passes; against a faulted one the family's cell fails with the shrunk command list,
// the seed and the path, and `--seed N --path P` replays that sequence.
import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { MODEL_CHECK_IDS, MODEL_FAMILIES } from '../../../engine/stateful/registry.js';
import { runConformance } from '../../../cli/run.js';

const SEED = 20261122;
const sink = () => new Writable({ write: (_chunk, _enc, done) => done() });

describe('the model-based suites', () => {
  test('pass against the clean reference: one cell per family, with transitions', async () => {
    const outcome = await runConformance({ seed: SEED, runs: 15, checks: [...MODEL_CHECK_IDS], reporters: [], out: sink() });
    expect(outcome.results.errors).toEqual([]);
    expect(outcome.results.cells.map((c) => [c.operationId, c.checkId, c.status, c.failures[0]?.message]).sort()).toEqual(MODEL_FAMILIES.map((f) => [f.operationId, f.checkId, 'passed', undefined]).sort());
    expect(outcome.results.cells.find((c) => c.checkId === 'model_seats')?.transitions).toContain('seat: pending→claimed');
    expect(outcome.exitCode).toBe(0);
  }, 60_000);

  test('fail against a faulted reference with a readable shrunk command list, and replay from the seed and path', async () => {
    const options = { seed: SEED, runs: 50, checks: ['model_seats'], faults: ['invitation_token_reusable'], reporters: [], out: sink() };
    const outcome = await runConformance(options);
    expect(outcome.results.errors).toEqual([]);
    expect(outcome.exitCode).toBe(1);
    const [failure] = outcome.results.cells.find((c) => c.checkId === 'model_seats')!.failures;
    expect(failure).toMatchObject({ kind: 'invitation_token_reused', rule: 'seats.invitation_single_use', reproduce: { seed: SEED, path: expect.stringMatching(/@/) } });
    const commands = /^Commands \(shrunk[^)]*\): (.+)$/m.exec(failure!.message)?.[1];
    expect(commands?.split(' → ').length).toBeLessThanOrEqual(4);
    expect(commands).toMatch(/inviteSeat → .*claimSeat\(s1\)\[reused\]$/);
    expect(failure!.message).toContain(`Replay: npx conformance run --checks model_seats --seed ${SEED} --path "${failure!.reproduce.path}"`);

    const replayed = await runConformance({ ...options, path: failure!.reproduce.path! });
    expect(replayed.exitCode).toBe(1);
    expect(replayed.results.cells[0]!.failures[0]!.message).toContain(`): ${commands}\n`);
  }, 60_000);

  test('--path needs exactly one model check selected (a harness error)', async () => {
    await expect(runConformance({ seed: SEED, path: '1@A:B', reporters: [], out: sink() })).rejects.toMatchObject({ code: 'CNF_ERR_CONFIG_INVALID' });
  });
});
