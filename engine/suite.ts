/**
 * Declares the vitest tests of a conformance suite: one `describe` per operation, one `test` per
 * check that can apply to it, each writing its matrix cell to `task.meta.conformance` for the
 * reporters, and the failed cells the one judging path found on the test's other exchanges to
 * `task.meta.judged`; the cells of the checks that cannot apply (`not_applicable`) are written
 * together by one test of the file, to `task.meta.inapplicable`.
 */
import { afterAll, beforeAll, describe, test } from 'vitest';
import { selectChecks } from '../checks/index.js';
import type { Harvest } from '../generators/query-case.js';
import { loadSpec, type LoadedSpec, type Operation } from '../core/spec/load.js';
import { type TargetAdapter } from '../core/adapter.js';
import { afterEachCall, loadAdapter } from './adapters/load.js';
import { createCachingClient, SharedReads, sharingReads } from './caching-client.js';
import { runCell } from './cell/run.js';
import { MAX_WRITE_CASES, sendWriteCases, type WriteEvidence } from './cell/evidence.js';
import { createClient, type Client } from './client.js';
import { failureRunOf, operationSeed, readRunContext, statefulRunContext, type RunContext } from './context.js';
import { harvestValues } from './harvest.js';
import { JudgedCells, judgingClient, ROUTED_CHECKS } from './judge.js';
import { SAFE_METHODS } from '../core/operation-needs.js';
import type { CellMeta, Check, CheckNeeds } from '../core/types.js';
import { writeCaseMaker } from './write-cases.js';
import { flushWork } from '../core/timings.js';
import { unitId } from './shard.js';
import { SUITE_NEEDS } from './suites.js';

/** The successful reads of this worker, by target base URL, shared by the suites that change no state (engine/caching-client.ts). */
const sharedReads = new Map<string, SharedReads>();
const sharedReadsOf = (baseUrl: string): SharedReads => sharedReads.get(baseUrl) ?? sharedReads.set(baseUrl, new SharedReads()).get(baseUrl)!;

/** Thrown by a test whose cell failed: the message is the first failure, the data is in `task.meta`. */
export class ConformanceFailure extends Error {
  constructor(cell: CellMeta) {
    const first = cell.failures[0];
    super(first ? `${first.title}: ${first.message}\nReproduce with: ${first.reproduce.curl}` : `${cell.checkId} failed`);
    this.name = 'ConformanceFailure';
  }
}

/** Thrown by a test whose cell errored: the harness failed inside it (the cell carries the error). */
export class CellError extends Error {
  readonly code: string;
  constructor(cell: CellMeta) {
    super(`${cell.checkId} on ${cell.operationId}: ${cell.error?.message ?? 'errored'}`);
    this.name = 'CellError';
    this.code = cell.error?.code ?? 'CNF_ERR_RUNNER';
  }
}

/** What a test does with its cell and the judged cells: records them and sets the test's outcome. */
export interface CellOutcome {
  task: { meta: { conformance?: CellMeta; judged?: CellMeta[] } };
  skip: (note?: string) => void;
}

/**
 * Records a cell (and the judged cells of the test's other exchanges) on the test and ends the
 * test as the cell says: skipped (also not applicable), failed when it or a judged cell failed,
 * errored when the harness failed inside it.
 */
export function settle({ task, skip }: CellOutcome, cell: CellMeta, judged: CellMeta[] = []): void {
  task.meta.conformance = cell;
  if (judged.length) task.meta.judged = judged;
  if (cell.status === 'failed') throw new ConformanceFailure(cell);
  const judgedFailure = judged.find((c) => c.status === 'failed');
  if (judgedFailure) throw new ConformanceFailure(judgedFailure);
  if (cell.status === 'errored') throw new CellError(cell);
  if (cell.status === 'skipped' || cell.status === 'not_applicable') skip(cell.skipReason);
}

/** The routed checks (response and pair checks) the run selects (`--checks`), for the one judging path. */
export function selectedRoutedChecks(run: RunContext) {
  return run.checks?.length ? ROUTED_CHECKS.filter((c) => run.checks!.includes(c.id)) : ROUTED_CHECKS;
}

/** Which operations a suite declares tests for: those that change no state, or those that do (the `writes` suite). */
export type OperationScope = 'safe' | 'unsafe';

/**
 * Declares the tests of every selected check whose `needs` is among `needs`, for every selected
 * operation of the run's document in `scope`: the generic suites take the safe operations (run in
 * parallel, with a cache of identical reads), the `writes` suite the operations that change state
 * (run with the stateful suites, each case on a fixture made for it). Every exchange is judged by
 * the response checks (engine/judge.ts). Must be awaited at the top level of a `.suite.ts` file.
 * @throws HarnessError when the run context, the document or the adapter module cannot be read
 */
export async function defineChecksSuite(needs: readonly CheckNeeds[], scope: OperationScope = 'safe'): Promise<void> {
  // The writes suite belongs to the stateful group, and runs against its target.
  const run = scope === 'unsafe' ? statefulRunContext(readRunContext()) : readRunContext();
  const spec = await loadSpec(run.specFile);
  const checks = selectChecks(run.checks).checks.filter((c) => needs.includes(c.needs));
  const inScope = (o: Operation) => SAFE_METHODS.has(o.method) === (scope === 'safe');
  // A shard runs the blocks of the operations it was given (engine/shard.ts).
  const suite = Object.entries(SUITE_NEEDS).find(([, listed]) => listed.length === needs.length && listed.every((n, i) => n === needs[i]))?.[0];
  const inShard = (o: Operation) => !run.shardUnits || (suite !== undefined && run.shardUnits.includes(unitId(suite, o.operationId)));
  const operations = spec.operations.filter((o) => inScope(o) && inShard(o) && (!run.operations || run.operations.includes(o.operationId)));
  if (checks.length === 0 || operations.length === 0) return;
  const judged = new JudgedCells(spec, selectedRoutedChecks(run), run.baseline ?? []);
  // Reads are cached only where nothing changes state; writes and their read-backs must see the
  // target as it is now. A 2xx read is shared with the other such suites of this worker (below the
  // judging client: each suite judges what it gets), and asked once per suite otherwise (above it).
  const sending = createClient(run.target);
  const raw = judgingClient(scope === 'safe' ? sharingReads(sending, run.target, sharedReadsOf(run.target.baseUrl)) : sending, judged, () => failureRunOf(run));
  const client: Client = scope === 'safe' ? createCachingClient(raw, run.target) : raw;
  let adapter: Promise<TargetAdapter | undefined> | undefined;
  afterAll(async () => {
    await client.close();
    await (await adapter)?.close?.();
    flushWork(run.timingsDir);
  });

  // Cells of the safe operations run side by side (vitest's maxConcurrency at a time), so that one
  // cell's judging overlaps another's wait on the target; the verdicts do not depend on it (each
  // cell draws from its own seed, reads change nothing, and judged cells are kept by operation and
  // check). A paced target keeps one cell at a time: pacing is per process, and cells side by side
  // would share the rate and wait out their timeouts. Bursts and writes are one at a time too.
  const concurrent = scope === 'safe' && !run.target.requestsPerSecond && !needs.includes('burst');
  const block = concurrent ? describe.concurrent : describe;
  // A check that cannot apply to an operation (decided from the document alone) gets its cell here,
  // and the file's such cells are recorded by one test: a test each cost the run more than the rest
  // of their work (vitest's bookkeeping of about 500 tests).
  const inapplicable: CellMeta[] = [];
  const applicableChecks = new Map<Operation, typeof checks>();
  for (const operation of operations) {
    applicableChecks.set(operation, checks.filter((check) => {
      const reason = inapplicableReason(check, spec, operation);
      if (reason !== undefined) inapplicable.push({ operationId: operation.operationId, checkId: check.id, status: 'not_applicable', cases: 0, failures: [], skipReason: reason });
      return reason === undefined;
    }));
  }
  if (inapplicable.length > 0) {
    test('checks that do not apply', ({ task }) => {
      task.meta.inapplicable = inapplicable;
    });
  }
  for (const operation of operations) {
    const applicable = applicableChecks.get(operation)!;
    if (applicable.length === 0) continue;
    block(operation.operationId, () => {
      let harvest: Harvest | undefined;
      let evidence: Promise<WriteEvidence[]> | undefined;
      // Cases drawn once for the operation's cells, where reads are cached (a failing case replayed
      // by its cell is asked again, of the cache).
      const draws = scope === 'safe' ? new Map<string, readonly unknown[]>() : undefined;
      beforeAll(async () => {
        // A burst sends one fixed request; only generated cases use harvested filter values.
        if (scope === 'safe' && applicable.some((c) => c.needs !== 'burst')) harvest = await harvestValues(client, operation);
      });
      for (const check of applicable) {
        test(check.id, async (context) => {
          const writes = scope === 'unsafe' ? writeCaseMaker(spec, operation, run.target, await (adapter ??= loadAdapter(run.adapter, run.target).then((loaded) => loaded && afterEachCall(loaded, () => judged.forget())))) : undefined;
          const cell = await runCell({
            spec,
            operation,
            check,
            target: run.target,
            client,
            harvest,
            ...(draws ? { draws } : {}),
            seed: operationSeed(run.seed, operation.operationId),
            runSeed: run.seed,
            ...(run.reproduction ? { reproduction: run.reproduction } : {}),
            runs: run.runs,
            ...(run.baseline ? { baseline: run.baseline } : {}),
            judge: (op, exchange) => judged.judge(op, exchange, failureRunOf(run)),
            ...(writes ? { writes, writeEvidence: () => (evidence ??= sendWriteCases(client, operation, writes, Math.min(run.runs, MAX_WRITE_CASES))) } : {}),
          });
          settle(context, cell, judged.take());
        });
      }
    });
  }
}

/**
 * Why a check cannot apply to an operation (`Check.appliesTo`, which reads only the document), or
 * undefined when it can. A check whose `appliesTo` throws is left to its test, whose cell then
 * says `errored` as it would have.
 */
function inapplicableReason(check: Check, spec: LoadedSpec, operation: Operation): string | undefined {
  try {
    const applies = check.appliesTo?.({ spec, operation }) ?? true;
    return applies === true ? undefined : applies;
  } catch {
    return undefined;
  }
}

/** The document a suite judges against, for suites that load it themselves. */
export type { LoadedSpec };
