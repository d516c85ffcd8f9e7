// Proves the suites are not vacuous: the clean reference passes every cell of the full default run,
// and every fault of the catalogue, switched on in the default run narrowed to the suites that hold
// its check and the operations it touches (the same cells as the full run's, from the same seeds),
// makes it exit 1 with a failure of the check the catalogue names, on an operation the fault
// touches. Faults that touch disjoint operations share a run (server/faults.ts, batchFaults): a
// failure on a fault's own operations can then only be that fault's, and the clean run shows the
// rest of the matrix green. This file runs the clean run and the first half of the batches,
// fault-catalogue-second-half.test.ts the rest; `npm run bench:faults` runs each fault alone.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { RESPONSE_CHECK_IDS } from '../../engine/judge.js';
import { SAFE_METHODS } from '../../core/operation-needs.js';
import { runConformance } from '../../cli/run.js';
import { batches, checkable, expectBatchCaught, half, pending, RUNS, SEED, sink, spec, touched } from './fault-catalogue-support.js';

const detected: string[] = [];

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

  test.each(half(0).map((batch) => [batch.map((f) => f.id).join(', '), batch] as const))('the default run narrowed to its faults, with %s', async (_names, batch) => {
    detected.push(...(await expectBatchCaught(batch)));
  }, 180_000);

  afterAll(() => {
    const waiting = pending.map((f) => `${f.id} (${f.detectedBy})`).join(', ');
    process.stdout.write(`fault catalogue, first half: ${detected.length} of ${checkable.length} faults detected in ${half(0).length} of ${batches.length} runs narrowed to their faults${pending.length ? `; ${pending.length} waiting for their check: ${waiting}` : ''}\n`);
  });
});
