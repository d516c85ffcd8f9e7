/**
 * The runner of the model-based suites: declares one vitest test per family of
 * generators/commands/ (in a `describe` named after the operation its cell is reported under),
 * runs the family against the run's target with fast-check, and writes its cell to
 * `task.meta.conformance`. A failure's message carries the shrunk command list, the seed and the
 * path that replays it.
 * @see ../../../shared/style.md, fast-check (model-based commands); "A failure is data"
 */
import { describe, test } from 'vitest';
import type { Family } from './family.js';
import { selectFamilies } from './index.js';
import type { CommandEnv } from './real.js';
import { failureLines, runFamily, sequencesFor, type FamilyOutcome } from './run-family.js';
import { readRunContext } from '../context.js';
import { toCurl } from '../../core/curl.js';
import { settle } from '../suite.js';
import type { CellMeta, Failure, TestCase } from '../../core/types.js';
import { statefulSuite } from './scenario.js';

/**
 * The cell of a family's outcome: one case per sequence drawn, the shrunk failure as a
 * {@link Failure} whose message ends with the command list and the replay command.
 */
export function familyCell(family: Family<object>, outcome: FamilyOutcome, adapterName = 'none'): CellMeta {
  const base = { operationId: family.operationId, checkId: family.checkId };
  if (outcome.status === 'skipped' || outcome.status === 'not_applicable') return { ...base, status: outcome.status, skipReason: outcome.skipReason ?? 'not runnable', cases: 0, failures: [] };
  const failures: Failure[] = [];
  const failure = outcome.failure;
  if (failure) {
    const { rule, ...finding } = failure.finding;
    const exchange = failure.exchange;
    const requests = failure.steps.flatMap((step) => step.observations.flatMap((o) => (o.exchange ? [o.exchange] : [])));
    const until = exchange ? requests.indexOf(exchange) : -1;
    const steps = (until >= 0 ? requests.slice(0, until + 1) : requests).map((e) => toCurl(e.request, failure.secrets));
    const testCase: TestCase = exchange?.case ?? { id: `${family.checkId}#adapter`, operationId: family.operationId, pathParams: {}, query: {}, headers: {}, role: null };
    failures.push({
      ...finding,
      message: [finding.message, ...failureLines(family, failure)].join('\n'),
      checkId: family.checkId,
      severity: family.severity,
      rule,
      operationId: family.operationId,
      caseId: `${family.checkId}#shrunk`,
      case: testCase,
      request: exchange?.request ?? { method: 'ADAPTER', url: `adapter:${adapterName}`, headers: {} },
      ...(exchange?.response ? { response: exchange.response } : {}),
      reproduce: {
        curl: exchange ? toCurl(exchange.request, failure.secrets) : `# no single request shows this; the commands were: ${failure.commands}`,
        seed: failure.seed,
        path: failure.path,
        // The shrunk sequence's requests, in order (the adapter's calls are in the message's command list).
        ...(steps.length > 1 ? { steps } : {}),
      },
    });
  }
  return { ...base, status: outcome.status, cases: outcome.runs, failures, observed: outcome.observed, transitions: outcome.transitions };
}

/**
 * Declares the test of a family, unless the run does not select it (`--checks`, `--operations`).
 * Must be awaited at the top level of a `.suite.ts` file.
 * @throws HarnessError when the run context, the document or the adapter module cannot be read
 */
export async function defineFamilySuite<M extends object>(family: Family<M>): Promise<void> {
  const run = readRunContext();
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
      const cell = familyCell(family as Family<object>, outcome, adapter?.name);
      settle(context, cell, suite.judged.take());
    });
  });
}
