// Proves the suites are not vacuous: the clean reference passes every cell of the full default run,
// and every fault of the catalogue, switched on in a full default run (every suite, every check),
// makes it exit 1 with a failure of the check the catalogue names, on an operation the fault
// touches. Faults that touch disjoint operations share a run (server/faults.ts, batchFaults): a
// failure on a fault's own operations can then only be that fault's, and the clean run shows the
// rest of the matrix green. `npm run bench:faults` runs each fault alone instead (slower).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, test } from 'vitest';
import { RESPONSE_CHECK_IDS } from '../../harness/judge.js';
import { SAFE_METHODS } from '../../harness/operation-inputs.js';
import { runConformance, type RunOutcome } from '../../harness/run.js';
import { batchFaults, FAULTS, touchedOperations, type FaultDefinition } from '../../server/faults.js';
import { loadSpec } from '../../spec/load.js';
import { documentOperationIds } from '../../suites/stateful/scenario.js';

const RUNS = 5;
const SEED = 20261122;
const sink = () => new Writable({ write: (_chunk, _enc, done) => done() });
const spec = await loadSpec();
const webhookIds = [...documentOperationIds(spec)].filter((id) => !spec.operations.some((o) => o.operationId === id));
const touched = (fault: FaultDefinition) => touchedOperations(spec, fault, webhookIds);
// Faults that only a check or suite of a later issue can catch say so (`pending:#N`); they are
// counted, not run, so that the score stays honest.
const checkable = FAULTS.filter((f) => !f.detectedBy.startsWith('pending:'));
const pending = FAULTS.filter((f) => f.detectedBy.startsWith('pending:'));
const batches = batchFaults(checkable, touched);
const detected: string[] = [];

/** The failed (operation, check) pairs of a run. */
const failedPairs = (outcome: RunOutcome) => outcome.results.cells.filter((c) => c.status === 'failed').map((c) => ({ operationId: c.operationId, checkId: c.checkId }));

describe('fault catalogue', () => {
  test('the clean reference passes every cell of the full default run, writes included', async () => {
    const outputDir = mkdtempSync(path.join(tmpdir(), 'cnf-clean-'));
    const outcome = await runConformance({ seed: SEED, runs: RUNS, reporters: ['json'], outputDir, out: sink() });
    expect(outcome.results.errors).toEqual([]);
    expect(outcome.results.cells.filter((c) => c.status === 'failed' || c.status === 'errored').map((c) => `${c.operationId} ${c.checkId}: ${c.failures[0]?.message ?? c.error?.message}`)).toEqual([]);
    // The embedded reference provides every role, fixture and adapter capability: nothing is skipped, and a cell that does not run says why.
    expect(outcome.results.cells.filter((c) => c.status === 'skipped').map((c) => `${c.operationId} ${c.checkId}: ${c.skipReason}`)).toEqual([]);
    expect(outcome.results.cells.filter((c) => c.status === 'not_applicable' && !c.skipReason)).toEqual([]);
    // Every operation of the document is exercised by a cell that ran.
    const ran = new Set(outcome.results.cells.filter((c) => c.status === 'passed').map((c) => c.operationId));
    expect(spec.operations.filter((o) => !ran.has(o.operationId)).map((o) => o.operationId)).toEqual([]);
    // Every write operation's answers are judged: each has response checks that ran and passed, none skipped.
    for (const operation of spec.operations.filter((o) => !SAFE_METHODS.has(o.method))) {
      const responseCells = outcome.results.cells.filter((c) => c.operationId === operation.operationId && RESPONSE_CHECK_IDS.includes(c.checkId));
      expect(responseCells.filter((c) => c.status === 'passed' && c.cases > 0).map((c) => c.checkId), operation.operationId).toEqual(expect.arrayContaining(['not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance', 'response_headers_conformance']));
      expect(responseCells.filter((c) => c.status === 'skipped'), operation.operationId).toEqual([]);
    }
    expect(outcome.exitCode).toBe(0);
    const report = JSON.parse(readFileSync(path.join(outputDir, 'report.json'), 'utf8'));
    expect(report.summary.failed).toBe(0);
  }, 180_000);

  test('batches: every fault runs once, with faults whose operations it shares none of', () => {
    expect(batches.flat().map((f) => f.id).sort()).toEqual(checkable.map((f) => f.id).sort());
    for (const batch of batches) {
      const seen = new Set<string>();
      for (const fault of batch) {
        for (const op of touched(fault)) {
          expect(seen.has(op), `${fault.id} shares ${op} in its batch`).toBe(false);
          seen.add(op);
        }
      }
    }
  });

  test.each(batches.map((batch) => [batch.map((f) => f.id).join(', '), batch] as const))('full default run with %s', async (_names, batch) => {
    const apiVersion = batch[0]!.apiVersion;
    const outcome = await runConformance({ seed: SEED, runs: RUNS, faults: batch.map((f) => f.id), reporters: [], out: sink(), ...(apiVersion ? { apiVersion } : {}) });
    // A fault that makes the run error is a harness bug: a target's defect is a failure (exit 1).
    expect(outcome.results.errors.map((e) => `${e.where}: ${e.message}`)).toEqual([]);
    expect(outcome.results.cells.filter((c) => c.status === 'errored').map((c) => `${c.operationId} ${c.checkId}: ${c.error?.message}`)).toEqual([]);
    expect(outcome.exitCode).toBe(1);
    const failed = failedPairs(outcome);
    for (const fault of batch) {
      const own = touched(fault);
      const caught = failed.some((pair) => pair.checkId === fault.detectedBy && own.has(pair.operationId));
      expect(caught, `${fault.id} is caught by ${fault.detectedBy} on ${[...own].join(', ')}; failed: ${failed.map((p) => `${p.operationId} ${p.checkId}`).join('; ')}`).toBe(true);
      detected.push(fault.id);
    }
  }, 180_000);

  afterAll(() => {
    const waiting = pending.map((f) => `${f.id} (${f.detectedBy})`).join(', ');
    process.stdout.write(`fault catalogue: ${detected.length}/${checkable.length} faults detected in ${batches.length} full default runs${pending.length ? `; ${pending.length} waiting for their check: ${waiting}` : ''}\n`);
  });
});
