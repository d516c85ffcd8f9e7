// `conformance replay`: a report's failures still fail against the faulty server and are fixed
// against the clean one, with credentials from the environment and fixtures from the same seed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { replayReport } from '../../harness/replay.js';
import { runConformance } from '../../harness/run.js';
import { HarnessError } from '../../harness/errors.js';
import { startReferenceServer, type RunningReference } from '../../server/index.js';

const SEED = 7;
const sink = () => new Writable({ write: (_c, _e, done) => done() });
const running: RunningReference[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

async function reportWithFault(fault: string): Promise<string> {
  const outputDir = mkdtempSync(path.join(tmpdir(), 'cnf-replay-'));
  const outcome = await runConformance({ seed: SEED, runs: 10, faults: [fault], suites: ['exchange', 'pagination'], reporters: ['json'], outputDir, out: sink() });
  expect(outcome.exitCode).toBe(1);
  return path.join(outputDir, 'report.json');
}

async function serve(faults: string[]): Promise<{ url: string; env: NodeJS.ProcessEnv }> {
  const reference = await startReferenceServer({ seed: SEED, port: 0, faults, rateLimit: false });
  running.push(reference);
  const env = Object.fromEntries(Object.entries(reference.credentials).map(([role, token]) => [`CONFORMANCE_${role.toUpperCase()}_TOKEN`, token]));
  return { url: reference.url, env };
}

describe('replayReport', () => {
  test('failures still fail on the faulty server and are fixed on the clean one', async () => {
    const report = await reportWithFault('limit_unbounded');
    const faulty = await serve(['limit_unbounded']);
    const again = await replayReport({ report, target: faulty.url, env: faulty.env, out: sink() });
    expect(again.exitCode).toBe(1);
    expect(again.replayed.some((r) => r.checkId === 'pagination_limit_respected' && r.stillFailing)).toBe(true);

    const clean = await serve([]);
    const fixed = await replayReport({ report, target: clean.url, env: clean.env, out: sink() });
    expect(fixed.replayed.length).toBe(again.replayed.length);
    expect(fixed.replayed.filter((r) => r.stillFailing)).toEqual([]);
    expect(fixed.exitCode).toBe(0);
  }, 120_000);

  test('walk failures are walked again', async () => {
    const report = await reportWithFault('pages_overlap');
    const clean = await serve([]);
    const fixed = await replayReport({ report, target: clean.url, env: clean.env, out: sink() });
    expect(fixed.replayed.some((r) => r.checkId === 'pages_disjoint_and_complete')).toBe(true);
    expect(fixed.exitCode).toBe(0);
  }, 120_000);

  test('a report whose embedded target is gone asks for --target', async () => {
    const report = await reportWithFault('limit_unbounded');
    await expect(replayReport({ report, out: sink() })).rejects.toThrow(/pass --target URL/);
    await expect(replayReport({ report: '/nonexistent/report.json', out: sink() })).rejects.toBeInstanceOf(HarnessError);
  }, 120_000);

  test('a stateful scenario failure is named, not replayed', async () => {
    const outputDir = mkdtempSync(path.join(tmpdir(), 'cnf-replay-'));
    const run = await runConformance({ seed: SEED, runs: 5, faults: ['event_skipped'], checks: ['order_paid_transition'], reporters: ['json'], outputDir, out: sink() });
    expect(run.exitCode).toBe(1);
    const clean = await serve([]);
    const lines: string[] = [];
    const out = new Writable({ write: (chunk, _e, done) => { lines.push(String(chunk)); done(); } });
    const outcome = await replayReport({ report: path.join(outputDir, 'report.json'), target: clean.url, env: clean.env, out });
    expect(outcome.replayed).toEqual([]);
    expect(lines.join('')).toContain('not replayed     order_paid_transition');
    expect(outcome.exitCode).toBe(0);
  }, 120_000);
});
