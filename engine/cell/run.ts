/**
 * Runs one cell of the operation x check matrix: a fast-check property over generated cases of
 * the operation, each sent to the target and judged by the check; a failing case is shrunk and
 * becomes a {@link Failure} with its reproducer. Cells of writes and bursts are handed to their
 * own runners (./writes.ts, ./burst.ts).
 * @see docs/decisions.md (Harness: "One test per operation x check", "Evidence by `needs`", "Five verdicts")
 */
import fc from 'fast-check';
import type { CellMeta, Exchange, Failure, Finding } from '../../core/types.js';
import { HarnessError } from '../../core/errors.js';
import { SAFE_METHODS } from '../../core/operation-needs.js';
import { needsRole } from '../../core/skips.js';
import { boundaryExamples, queryCaseArbitrary } from '../../generators/query-case.js';
import { negativeCaseArbitrary } from '../../generators/negative/index.js';
import { requiredQuery } from '../../generators/parameter-value.js';
import { missingRoles, notCallable, WRITE_NEEDS } from './skip.js';
import { PROBES, roleOfNeeds, rolesQuery, testCase, type CaseInput } from './cases.js';
import { gatherEvidence } from './evidence.js';
import type { CellInput } from './input.js';
import { judgeEvidence, notRun, observer, placeFindings } from './verdict.js';
import { CREDENTIAL_PROBES, runWriteCell } from './writes.js';
import { runBurstCell } from './burst.js';
import { addWork, timed } from '../../core/timings.js';

/**
 * Runs the property of one check on one operation.
 * @returns the cell: `not_applicable` with the reason when the check cannot apply to the
 *   operation; `skipped` with the reason, its kind and the fix when the run lacks a role, fixture,
 *   adapter or option; `failed` with the shrunk failure; `errored` when the harness itself failed
 *   inside the cell (a check that threw, an adapter that refused): never thrown, so the run goes on
 */
export async function runCell(input: CellInput): Promise<CellMeta> {
  const { operation, check } = input;
  const cell: CellMeta = { operationId: operation.operationId, checkId: check.id, status: 'passed', cases: 0, failures: [] };
  try {
    return await judgeCell(input, cell);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return {
      ...cell,
      status: 'errored',
      failures: [],
      error: { code: typeof code === 'string' ? code : error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error) },
    };
  }
}

async function judgeCell(input: CellInput, cell: CellMeta): Promise<CellMeta> {
  const { spec, operation, check, target, client } = input;
  const ctx = { spec, operation };
  const applies = check.appliesTo?.(ctx) ?? true;
  if (applies !== true) return notRun(cell, 'not_applicable', applies);
  const role = roleOfNeeds(check, operation);
  const callable = notCallable(operation, target, check.needs, input.writes);
  if (callable) return notRun(cell, 'skipped', callable.reason, callable);
  const [missing] = missingRoles(check, role, target);
  if (missing) return notRun(cell, 'skipped', needsRole(missing, input.target).reason, needsRole(missing, input.target));
  if (check.needs === 'burst') return runBurstCell(input, cell, role);
  if (!SAFE_METHODS.has(operation.method) && input.writes && !input.writes.unavailable && (WRITE_NEEDS.has(check.needs) || CREDENTIAL_PROBES.has(check.needs))) {
    return runWriteCell(input, cell, role);
  }

  const isWalk = check.needs === 'walk';
  let inputs: fc.Arbitrary<CaseInput>;
  let examples: [CaseInput][] = [];
  if (check.needs === 'negative') {
    const negatives = negativeCaseArbitrary(operation);
    if (!negatives) return notRun(cell, 'not_applicable', 'no query parameter or body field whose schema rejects a value');
    inputs = negatives.map((negative) => ({ query: negative.query, negative }));
  } else if (PROBES.has(check.needs)) {
    // A probe asks one thing (are these credentials refused?); varying the query would only let a
    // correct target answer 422 first, which says nothing about the credentials.
    inputs = fc.constant({ query: { ...requiredQuery(operation), ...(check.needs === 'roles' ? rolesQuery(operation) : {}) } });
  } else {
    const omit = isWalk ? ['page'] : check.needs === 'defaults' ? ['page', 'limit'] : [];
    inputs = queryCaseArbitrary(operation, { harvest: input.harvest, omit }).map((query) => ({ query }));
    examples = boundaryExamples(operation, { invalid: check.needs === 'exchange', page: !isWalk, ...(input.harvest ? { harvest: input.harvest } : {}) })
      .filter((query) => check.needs !== 'defaults' || (query.page === undefined && query.limit === undefined))
      .map((query) => [{ query }]);
  }
  let n = 0;
  const observed = observer();
  // A case drawn again asks a read the same question: for a check of that one exchange its passing
  // verdict is the one judged before (the read caches share the answer, and a response check's
  // findings are kept per answer), so it is counted and observed again without being built, sent
  // and looked up again.
  const memo = input.draws && check.needs === 'exchange' && check.evidence === 'exchange' && SAFE_METHODS.has(operation.method) ? new Map<string, { findings: Finding[]; exchange: Exchange }>() : undefined;
  const evaluate = async (caseInput: CaseInput): Promise<{ findings: Finding[]; exchange: Exchange }> => {
    const key = memo ? JSON.stringify(caseInput) : undefined;
    const known = key === undefined ? undefined : memo!.get(key);
    if (known) {
      n++;
      cell.cases++;
      observed.add(known.exchange);
      return known;
    }
    const base = testCase(operation, target, caseInput, role, check.needs, n++);
    cell.cases++;
    const { exchange, history } = await gatherEvidence(client, operation, check, base);
    [...history, exchange].forEach(observed.add);
    const findings = timed('judging', () => judgeEvidence(check, ctx, exchange, history));
    // Only a passing verdict is kept: a failing case is judged anew, so that its failure names the case as numbered then.
    if (key !== undefined && findings.length === 0) memo!.set(key, { findings, exchange });
    return { findings, exchange };
  };

  const numRuns = PROBES.has(check.needs) ? 1 : isWalk ? Math.max(3, Math.round(input.runs / 10)) : input.runs;
  const params = { seed: input.seed, numRuns: numRuns + examples.length, examples };
  // A read's cases are the same for every check of its operation with the same kind of evidence:
  // drawn once (fc.sample gives the values fc.check would run) and judged in order; the first
  // failing one is replayed by fast-check from its index and shrunk as a run from the start would.
  let replayFrom: number | undefined;
  if (input.draws && SAFE_METHODS.has(operation.method)) {
    const kind = check.needs === 'negative' ? 'negative' : PROBES.has(check.needs) ? `probe ${check.needs}` : `query ${check.needs === 'exchange' ? 'invalid' : 'valid'} ${isWalk ? 'walk' : check.needs === 'defaults' ? 'defaults' : 'pages'}`;
    const key = `${kind} ${input.seed} ${params.numRuns}`;
    let drawn = input.draws.get(key) as CaseInput[] | undefined;
    if (!drawn) input.draws.set(key, (drawn = fc.sample(timedDrawing(inputs), { ...params, examples: examples.map(([example]) => example) })));
    replayFrom = await firstFailingAhead(drawn, caseKeys(drawn), {
      gather: (caseInput, number) => gatherEvidence(client, operation, check, testCase(operation, target, caseInput, role, check.needs, number)),
      reusesVerdicts: memo !== undefined,
      known: (caseKey) => memo?.get(caseKey),
      judge: (caseInput, caseKey, { exchange, history }) => {
        [...history, exchange].forEach(observed.add);
        const findings = timed('judging', () => judgeEvidence(check, ctx, exchange, history));
        if (memo && findings.length === 0) memo.set(caseKey, { findings, exchange });
        return findings;
      },
      // A verdict reused is of an exchange this cell observed when it judged it first.
      counted: () => {
        cell.cases++;
      },
    });
    if (replayFrom === undefined) {
      cell.observed = observed.result();
      return cell;
    }
    // The replay judges the failing case again, under the number it had.
    n = cell.cases = replayFrom;
  }
  const details = await fc.check(
    fc.asyncProperty(timedDrawing(inputs), async (caseInput) => (await evaluate(caseInput)).findings.length === 0),
    replayFrom === undefined ? params : { ...params, path: String(replayFrom), numRuns: params.numRuns - replayFrom },
  );
  cell.observed = observed.result();
  if (!details.failed) return cell;
  if (!details.counterexample) {
    throw new HarnessError('CNF_ERR_RUNNER', `check ${check.id} threw on ${operation.operationId}: ${String(details.errorInstance)}`, { cause: details.errorInstance });
  }
  const [failing] = details.counterexample;
  const { findings, exchange } = await evaluate(failing);
  return placeFindings(input, cell, findings, exchange, details.counterexamplePath ?? undefined);
}

/** Cases whose evidence is sent ahead of their judging, at most, in one cell (the reads change nothing, so sending ahead changes no answer). */
export const CASES_AHEAD = 4;

/** What {@link firstFailingAhead} does with a case: send its evidence, find a verdict already judged, judge it, count it. */
interface AheadSteps {
  gather(caseInput: CaseInput, number: number): Promise<{ exchange: Exchange; history: Exchange[] }>;
  /** Whether a passing verdict is reused for a case drawn again ({@link known}). */
  reusesVerdicts: boolean;
  /** A passing verdict already judged for the same case (by its key, {@link caseKeys}), if any. */
  known(caseKey: string): { findings: Finding[]; exchange: Exchange } | undefined;
  judge(caseInput: CaseInput, caseKey: string, evidence: { exchange: Exchange; history: Exchange[] }): Finding[];
  /** Called once per case judged, in order, with the verdict reused when there was one. */
  counted(known: { findings: Finding[]; exchange: Exchange } | undefined): void;
}

/** The keys of drawn cases, made once per drawn list (shared by the cells of an operation). */
const drawnKeys = new WeakMap<readonly CaseInput[], readonly string[]>();

/** Each drawn case's key (its JSON): equal cases ask the same question. */
function caseKeys(cases: readonly CaseInput[]): readonly string[] {
  let keys = drawnKeys.get(cases);
  if (!keys) drawnKeys.set(cases, (keys = cases.map((caseInput) => JSON.stringify(caseInput))));
  return keys;
}

/**
 * The index of the first case with a finding or whose evidence could not be gathered or judged
 * (as fc.check counts a failure), or undefined when every case passed: the cases judged in order,
 * each numbered by its index, as fc.check would judge them one after another, with the evidence of
 * the next {@link CASES_AHEAD} cases sent meanwhile. A case whose verdict is known (drawn again) is
 * not sent. Only for reads, whose evidence does not depend on what was sent before.
 * @see docs/decisions.md (Harness: cases drawn once per operation)
 */
async function firstFailingAhead(cases: readonly CaseInput[], keys: readonly string[], steps: AheadSteps): Promise<number | undefined> {
  const sent = new Map<number, Promise<{ exchange: Exchange; history: Exchange[] }>>();
  const pendingKeys = new Set<string>();
  let next = 0;
  const sendUpTo = (last: number) => {
    for (; next <= Math.min(last, cases.length - 1); next++) {
      const key = keys[next]!;
      if (steps.known(key)) continue;
      // The same case in flight already: its verdict will be known when this one is judged, or it fails first.
      if (steps.reusesVerdicts && pendingKeys.has(key)) continue;
      pendingKeys.add(key);
      const gathering = steps.gather(cases[next]!, next);
      // A case sent ahead of a failure is never awaited: its rejection must not go unhandled.
      gathering.catch(() => undefined);
      sent.set(next, gathering);
    }
  };
  for (let i = 0; i < cases.length; i++) {
    sendUpTo(i + CASES_AHEAD);
    const caseInput = cases[i]!;
    const known = steps.known(keys[i]!);
    if (known) {
      steps.counted(known);
      continue;
    }
    steps.counted(undefined);
    try {
      const evidence = await (sent.get(i) ?? steps.gather(caseInput, i));
      if (steps.judge(caseInput, keys[i]!, evidence).length > 0) return i;
    } catch {
      return i;
    }
  }
  return undefined;
}

/**
 * The same arbitrary, its drawing and shrinking timed as `generation` (core/timings.ts): the time
 * fast-check spends in the arbitrary itself, which cells running side by side (engine/suite.ts)
 * cannot blur as they would the time between two cases.
 */
function timedDrawing<T>(inner: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return new TimedArbitrary(inner);
}

class TimedArbitrary<T> extends fc.Arbitrary<T> {
  readonly #inner: fc.Arbitrary<T>;

  constructor(inner: fc.Arbitrary<T>) {
    super();
    this.#inner = inner;
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    const started = performance.now();
    try {
      return this.#inner.generate(mrng, biasFactor);
    } finally {
      addWork('generation', performance.now() - started);
    }
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.#inner.canShrinkWithoutContext(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    const candidates = this.#inner.shrink(value, context)[Symbol.iterator]();
    function* timedCandidates(): Generator<fc.Value<T>> {
      for (;;) {
        const started = performance.now();
        const next = candidates.next();
        addWork('generation', performance.now() - started);
        if (next.done) return;
        yield next.value;
      }
    }
    return new fc.Stream(timedCandidates());
  }
}
