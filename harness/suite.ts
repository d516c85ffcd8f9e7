/**
 * Declares the vitest tests of a conformance suite: one `describe` per operation, one `test` per
 * check, each writing its matrix cell to `task.meta.conformance` for the reporters.
 */
import { afterAll, beforeAll, describe, test } from 'vitest';
import { selectChecks } from '../checks/index.js';
import type { Harvest } from '../generators/query-case.js';
import { loadSpec } from '../spec/load.js';
import { createCachingClient } from './caching-client.js';
import { runCell } from './cell.js';
import { createClient } from './client.js';
import { operationSeed, readRunContext } from './context.js';
import { harvestValues } from './harvest.js';
import type { CellMeta, CheckNeeds } from './types.js';

/** Thrown by a test whose cell failed: the message is the first failure, the data is in `task.meta`. */
export class ConformanceFailure extends Error {
  constructor(cell: CellMeta) {
    const first = cell.failures[0];
    super(first ? `${first.title}: ${first.message}\nReproduce with: ${first.reproduce.curl}` : `${cell.checkId} failed`);
    this.name = 'ConformanceFailure';
  }
}

/**
 * Declares the tests of every selected check whose `needs` is among `needs`, for every selected
 * operation of the run's document. Must be awaited at the top level of a `.suite.ts` file.
 * @throws HarnessError when the run context or the document cannot be read
 */
export async function defineChecksSuite(needs: readonly CheckNeeds[]): Promise<void> {
  const run = readRunContext();
  const spec = await loadSpec(run.specFile);
  const checks = selectChecks(run.checks).checks.filter((c) => needs.includes(c.needs));
  const operations = spec.operations.filter((o) => !run.operations || run.operations.includes(o.operationId));
  if (checks.length === 0) return;
  const client = createCachingClient(createClient(run.target), run.target);
  afterAll(() => client.close());

  for (const operation of operations) {
    describe(operation.operationId, () => {
      let harvest: Harvest | undefined;
      beforeAll(async () => {
        // A burst sends one fixed request; only generated cases use harvested filter values.
        if (checks.some((c) => c.needs !== 'burst')) harvest = await harvestValues(client, operation);
      });
      for (const check of checks) {
        test(check.id, async ({ task, skip }) => {
          const cell = await runCell({
            spec,
            operation,
            check,
            target: run.target,
            client,
            harvest,
            seed: operationSeed(run.seed, operation.operationId),
            runSeed: run.seed,
            runs: run.runs,
            ...(run.baseline ? { baseline: run.baseline } : {}),
          });
          task.meta.conformance = cell;
          if (cell.status === 'skipped') skip(cell.skipReason);
          if (cell.status === 'failed') throw new ConformanceFailure(cell);
        });
      }
    });
  }
}
