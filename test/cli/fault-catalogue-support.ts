// What the two files of the fault catalogue test share: the runs' settings, the faults' touched
// operations, and the batches of faults whose operations are disjoint (server/faults.ts), split in
// two halves so that vitest runs them in two workers.
import { Writable } from 'node:stream';
import { expect } from 'vitest';
import { CHECKS } from '../../checks/index.js';
import { runConformance, type RunOutcome } from '../../cli/run.js';
import { SUITE_NEEDS, STATEFUL_SUITE } from '../../engine/suites.js';
import { batchFaults, FAULTS, touchedOperations, type FaultDefinition } from '../../server/faults.js';
import { loadSpec } from '../../core/spec/load.js';
import { documentOperationIds } from '../../engine/stateful/scenario.js';

/** Property runs per cell: the catalogue asks whether a fault is caught, which a few cases show. */
export const RUNS = 5;
export const SEED = 20261122;
export const sink = () => new Writable({ write: (_chunk, _enc, done) => done() });
export const spec = await loadSpec();
const webhookIds = [...documentOperationIds(spec)].filter((id) => !spec.operations.some((o) => o.operationId === id));
/** The operations of the bundled document a fault can change. */
export const touched = (fault: FaultDefinition) => touchedOperations(spec, fault, webhookIds);
// Faults that only a check or suite of a later issue can catch say so (`pending:#N`); they are
// counted, not run, so that the score stays honest.
// Faults of the server itself (`test:<file>`) are caught by that test, not by a run.
export const checkable = FAULTS.filter((f) => !f.detectedBy.startsWith('pending:') && !f.detectedBy.startsWith('test:'));
export const pending = FAULTS.filter((f) => f.detectedBy.startsWith('pending:'));
/** Every checkable fault, in batches of faults that touch disjoint operations. */
export const batches = batchFaults(checkable, touched);
/** The batches one of the two files runs: 0 the first half, 1 the second. */
export const half = (which: 0 | 1) => batches.filter((_, i) => i % 2 === which);

/** The failed (operation, check) pairs of a run. */
const failedPairs = (outcome: RunOutcome) => outcome.results.cells.filter((c) => c.status === 'failed').map((c) => ({ operationId: c.operationId, checkId: c.checkId }));

/**
 * The suites that hold a fault's check: for a check of checks/index.ts, every check-driven suite
 * that stages its evidence (`Check.needs`, engine/suites.ts: the suite of the safe operations and
 * the writes suite); for a stateful scenario or model family, the stateful group.
 */
export function suitesOf(fault: FaultDefinition): string[] {
  const check = CHECKS.find((c) => c.id === fault.detectedBy);
  if (!check) return [STATEFUL_SUITE];
  return Object.entries(SUITE_NEEDS).filter(([, needs]) => (needs as readonly string[]).includes(check.needs)).map(([name]) => name);
}

/**
 * The run a batch is judged in: the default run (every check, the default seed and runs) narrowed
 * to the suites that hold the batch's checks and to the operations its faults touch. Each cell
 * left is the full default run's own (a cell draws from its operation's seed), so a fault it
 * catches, the full run catches; narrowing only removes exchanges, so it cannot make a failure
 * that the full run would not have. `npm run bench:faults` runs each fault in the whole default run.
 */
export function narrowedRun(batch: readonly FaultDefinition[]): { suites: string[]; operations?: string[] } {
  const suites = [...new Set(batch.flatMap(suitesOf))];
  const operations = new Set(batch.flatMap((fault) => [...touched(fault)]));
  // A document's webhooks are no operation `--operations` selects: a batch touching one keeps every operation.
  const everyOperation = spec.operations.every((o) => operations.has(o.operationId)) || [...operations].some((id) => !spec.operations.some((o) => o.operationId === id));
  return { suites, ...(everyOperation ? {} : { operations: [...operations] }) };
}

/**
 * Runs the default run narrowed to the batch ({@link narrowedRun}) with the batch's faults switched
 * on and asserts that each fault is caught by its check on an operation it touches, with no
 * harness error.
 * @returns the ids of the faults caught
 */
export async function expectBatchCaught(batch: readonly FaultDefinition[]): Promise<string[]> {
  const apiVersion = batch[0]!.apiVersion;
  const outcome = await runConformance({ seed: SEED, runs: RUNS, faults: batch.map((f) => f.id), reporters: [], out: sink(), ...narrowedRun(batch), ...(apiVersion ? { apiVersion } : {}) });
  // A fault that makes the run error is a harness bug: a target's defect is a failure (exit 1).
  expect(outcome.results.errors.map((e) => `${e.where}: ${e.message}`)).toEqual([]);
  expect(outcome.results.cells.filter((c) => c.status === 'errored').map((c) => `${c.operationId} ${c.checkId}: ${c.error?.message}`)).toEqual([]);
  expect(outcome.exitCode).toBe(1);
  const failed = failedPairs(outcome);
  for (const fault of batch) {
    const own = touched(fault);
    const caught = failed.some((pair) => pair.checkId === fault.detectedBy && own.has(pair.operationId));
    expect(caught, `${fault.id} is caught by ${fault.detectedBy} on ${[...own].join(', ')}; failed: ${failed.map((p) => `${p.operationId} ${p.checkId}`).join('; ')}`).toBe(true);
  }
  return batch.map((f) => f.id);
}
