// Proves the suites are not vacuous: the clean reference passes every cell, and each fault of the
// catalogue makes the run exit 1 with a failure of the check the catalogue names.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, test } from 'vitest';
import { runConformance } from '../../harness/run.js';
import { FAULTS, type FaultDefinition } from '../../server/faults.js';
import { loadSpec } from '../../spec/load.js';

const RUNS = 15;
const SEED = 20261122;
const sink = () => new Writable({ write: (_chunk, _enc, done) => done() });
const detected: string[] = [];
// Faults that only a check or suite of a later issue can catch say so (`pending:#N`); they are
// counted, not run, so that the score stays honest.
const checkable = FAULTS.filter((f) => !f.detectedBy.startsWith('pending:'));
const pending = FAULTS.filter((f) => f.detectedBy.startsWith('pending:'));

describe('fault catalogue', () => {
  test('the clean reference passes every cell', async () => {
    const outputDir = mkdtempSync(path.join(tmpdir(), 'cnf-clean-'));
    const outcome = await runConformance({ seed: SEED, runs: RUNS, reporters: ['json'], outputDir, out: sink() });
    expect(outcome.results.errors).toEqual([]);
    expect(outcome.results.cells.filter((c) => c.status === 'failed').map((c) => `${c.operationId} ${c.checkId}: ${c.failures[0]?.message}`)).toEqual([]);
    // A skipped cell is never silent: it says why (a check that does not apply, a state change).
    expect(outcome.results.cells.filter((c) => c.status === 'skipped' && !c.skipReason)).toEqual([]);
    // Every operation of the document is exercised by a cell that ran.
    const spec = await loadSpec();
    const ran = new Set(outcome.results.cells.filter((c) => c.status === 'passed').map((c) => c.operationId));
    expect(spec.operations.filter((o) => !ran.has(o.operationId)).map((o) => o.operationId)).toEqual([]);
    expect(outcome.exitCode).toBe(0);
    const report = JSON.parse(readFileSync(path.join(outputDir, 'report.json'), 'utf8'));
    expect(report.summary.failed).toBe(0);
  }, 120_000);

  test.each(checkable.map((f) => [f.id, f.detectedBy, (f as FaultDefinition).apiVersion] as const))('%s is caught by %s', async (fault, checkId, apiVersion) => {
    // Only the named check runs: the question is whether it catches the fault, and a whole run per
    // fault would make this file the slowest of the project by minutes. A fault of one API version
    // runs against that version (the reference serves it, the harness checks against its document).
    const outcome = await runConformance({ seed: SEED, runs: RUNS, faults: [fault], checks: [checkId], reporters: [], out: sink(), ...(apiVersion ? { apiVersion } : {}) });
    const caughtBy = [...new Set(outcome.results.cells.filter((c) => c.status === 'failed').map((c) => c.checkId))];
    expect(outcome.results.errors).toEqual([]);
    expect(outcome.exitCode).toBe(1);
    expect(caughtBy).toContain(checkId);
    detected.push(fault);
  }, 120_000);

  afterAll(() => {
    const waiting = pending.map((f) => `${f.id} (${f.detectedBy})`).join(', ');
    process.stdout.write(`fault catalogue: ${detected.length}/${checkable.length} faults detected${pending.length ? `; ${pending.length} waiting for their check: ${waiting}` : ''}\n`);
  });
});
