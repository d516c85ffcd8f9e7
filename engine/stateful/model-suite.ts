/**
 * The runner of the model-based suites: declares one vitest test per family of
 * engine/stateful/registry.ts (in a `describe` named after the operation its cell is reported under),
 * runs the family against the run's target with fast-check, and writes its cell to
 * `task.meta.conformance`. A failure's message carries the shrunk command list, the seed and the
 * path that replays it.
 * @see https://fast-check.dev/docs/advanced/model-based-testing/; docs/architecture.md (Stateful engine; A finding's way)
 */
import { describe, test } from 'vitest';
import type { Family } from './family.js';
import { selectFamilies } from './registry.js';
import type { CommandEnv } from './real.js';
import { failureLines, runFamily, sequencesFor, type FamilyOutcome } from './run-family.js';
import { readRunContext, statefulRunContext } from '../context.js';
import { makeFailure } from '../../core/failure.js';
import type { ReproductionInfo } from '../../core/reproducer.js';
import { settle } from '../suite.js';
import type { CellMeta, Failure } from '../../core/types.js';
import { statefulSuite } from './scenario.js';

/**
 * The cell of a family's outcome: one case per sequence drawn, the shrunk failure as a
 * {@link Failure} whose message ends with the command list and the replay command.
 */
export function familyCell(family: Family<object>, outcome: FamilyOutcome, adapterName = 'none', reproduction?: ReproductionInfo): CellMeta {
  const base = { operationId: family.operationId, checkId: family.checkId };
  if (outcome.status === 'skipped' || outcome.status === 'not_applicable') {
    const { skip } = outcome;
    return { ...base, status: outcome.status, skipReason: skip?.reason ?? 'not runnable', ...(outcome.status === 'skipped' && skip ? { skipKind: skip.kind, fix: skip.fix } : {}), cases: 0, failures: [] };
  }
  const failures: Failure[] = [];
  const failure = outcome.failure;
  if (failure) {
    const { rule, ...finding } = failure.finding;
    const exchange = failure.exchange;
    const requests = failure.steps.flatMap((step) => step.observations.flatMap((o) => (o.exchange ? [o.exchange] : [])));
    const until = exchange ? requests.indexOf(exchange) : -1;
    failures.push(
      makeFailure(
        { checkId: family.checkId, severity: family.severity, rule, operationId: family.operationId },
        finding,
        {
          ...(exchange ? { exchange } : {}),
          // The shrunk sequence's requests, in order (the adapter's calls are in the message's command list).
          trail: until >= 0 ? requests.slice(0, until + 1) : requests,
          lines: failureLines(family, failure),
          caseId: `${family.checkId}#shrunk`,
          withoutExchange: { request: { method: 'ADAPTER', url: `adapter:${adapterName}`, headers: {} }, curl: `# no single request shows this; the commands were: ${failure.commands}` },
        },
        { seed: failure.seed, secrets: failure.secrets, path: failure.path, ...(reproduction ? { reproduction } : {}) },
      ),
    );
  }
  return { ...base, status: outcome.status, cases: outcome.runs, failures, observed: outcome.observed, transitions: outcome.transitions };
}

/**
 * Declares the test of a family, unless the run does not select it (`--checks`, `--operations`).
 * Must be awaited at the top level of a `.suite.ts` file.
 * @throws HarnessError when the run context, the document or the adapter module cannot be read
 */
export async function defineFamilySuite<M extends object>(family: Family<M>): Promise<void> {
  const run = statefulRunContext(readRunContext());
  if (!selectFamilies(run.checks, run.operations).some((f) => f.id === family.id)) return;
  // The same target, clients and adapter as the stateful scenarios, closed after the family's test.
  const suite = await statefulSuite();
  const { adapter } = suite;
  // A failure found by the response checks prints its own exchange; the command list is the family's.
  suite.stepsFrom(() => []);
  const env: CommandEnv = { spec: suite.spec, target: suite.target, client: suite.client, clientFor: suite.clientFor, adapter, seed: run.seed };
  describe(family.operationId, () => {
    test(family.checkId, async (context) => {
      const outcome = await runFamily({ family, env, runSeed: run.seed, numRuns: sequencesFor(family, run.runs), ...(run.path ? { path: run.path } : {}) });
      const cell = familyCell(family as Family<object>, outcome, adapter?.name, run.reproduction);
      settle(context, cell, suite.judged.take());
    });
  });
}
