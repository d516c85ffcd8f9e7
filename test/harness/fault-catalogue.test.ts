// Proves the suites are not vacuous: the clean reference passes every cell, and each fault of the
// catalogue makes the run exit 1 with a failure of the check the catalogue names.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, test } from 'vitest';
import { runConformance } from '../../harness/run.js';
import { FAULTS } from '../../server/faults.js';

const RUNS = 15;
const SEED = 20261122;
const sink = () => new Writable({ write: (_chunk, _enc, done) => done() });
const detected: string[] = [];

describe('fault catalogue', () => {
  test('the clean reference passes every cell', async () => {
    const outputDir = mkdtempSync(path.join(tmpdir(), 'cnf-clean-'));
    const outcome = await runConformance({ seed: SEED, runs: RUNS, reporters: ['json'], outputDir, out: sink() });
    expect(outcome.results.errors).toEqual([]);
    expect(outcome.results.cells.filter((c) => c.status !== 'passed').map((c) => `${c.operationId} ${c.checkId} ${c.status}`)).toEqual([]);
    expect(outcome.exitCode).toBe(0);
    const report = JSON.parse(readFileSync(path.join(outputDir, 'report.json'), 'utf8'));
    expect(report.summary.failed).toBe(0);
  }, 120_000);

  test.each(FAULTS.map((f) => [f.id, f.detectedBy] as const))('%s is caught by %s', async (fault, checkId) => {
    const outcome = await runConformance({ seed: SEED, runs: RUNS, faults: [fault], reporters: [], out: sink() });
    const caughtBy = [...new Set(outcome.results.cells.filter((c) => c.status === 'failed').map((c) => c.checkId))];
    expect(outcome.results.errors).toEqual([]);
    expect(outcome.exitCode).toBe(1);
    expect(caughtBy).toContain(checkId);
    detected.push(fault);
  }, 120_000);

  afterAll(() => {
    process.stdout.write(`fault catalogue: ${detected.length}/${FAULTS.length} faults detected\n`);
  });
});
