/**
 * The one judging path: every exchange the harness makes with a target (a cell's cases, its
 * probes, the steps of a stateful scenario, a model-based command, a `conformance diff` sequence,
 * a fixture it creates through the API) is judged by the response checks, which hold of any answer
 * whatever was asked: no server error, a documented status code, content type, schema (error bodies
 * and `2XX`-style ranges included) and headers, and the data invariants of the records it holds.
 * A finding is reported on the exchange's own operation and check, with that exchange's reproducer.
 * @see docs/usage.md (Writes: "Every request the harness sends is judged by the response checks");
 *   docs/decisions.md (Harness: "One judging path for every exchange")
 */
import { CHECKS } from '../checks/index.js';
import type { LoadedSpec, Operation } from '../core/spec/load.js';
import type { Client } from './client.js';
import { makeFailure, type FailureRun, type FailureSubject } from '../core/failure.js';
import { countExchange, timed, timedCheck } from '../core/timings.js';
import { acceptedBy, type BaselineEntry } from './baseline.js';
import { PairFinder } from './evidence.js';
import type { CellMeta, Check, CheckContext, Exchange, Failure, Finding, HttpResponse } from '../core/types.js';

/**
 * The checks that judge any exchange of an operation, whatever the request asked (`Check.evidence`
 * `exchange`): they look at the exchange alone (its request and answer) and the operation's document.
 */
export const RESPONSE_CHECK_IDS: readonly string[] = CHECKS.filter((c) => c.evidence === 'exchange').map((c) => c.id);

/** The response checks, in report order. */
export const RESPONSE_CHECKS: readonly Check[] = CHECKS.filter((c) => RESPONSE_CHECK_IDS.includes(c.id));

/** The checks that judge two exchanges of one client (`Check.evidence` `pair`), in report order. */
export const PAIR_CHECKS: readonly Check[] = CHECKS.filter((c) => c.evidence === 'pair');

/** The checks the one judging path routes evidence to, in report order: the response checks and the pair checks. */
export const ROUTED_CHECKS: readonly Check[] = CHECKS.filter((c) => c.evidence === 'exchange' || c.evidence === 'pair');

/** The findings of the response checks on each answer already judged, by check, operation and method. */
const verdicts = new WeakMap<object, Map<string, Finding[]>>();

/**
 * The findings of a response check (`Check.evidence` `exchange`) on an exchange that got an answer:
 * run once per answer, operation and method, since such a check reads only that exchange and the
 * operation's document, and an answer belongs to one request (a read shared by the harness's
 * caches is the same request asked again) (docs/architecture.md, Checks). An answer is
 * judged again when a cell's own check is a response check the one judging path already ran,
 * and when a cached read answers another case.
 * @returns the findings, shared between callers: copy before changing them
 */
export function responseFindings(check: Check, ctx: CheckContext, exchange: Exchange): Finding[] {
  const response = exchange.response;
  if (!response || check.evidence !== 'exchange') return timedCheck(check.id, () => check.run(ctx, exchange, []));
  let known = verdicts.get(response);
  if (!known) verdicts.set(response, (known = new Map()));
  const key = `${check.id}\u0000${ctx.operation.operationId}\u0000${exchange.request.method}`;
  let findings = known.get(key);
  if (!findings) known.set(key, (findings = timedCheck(check.id, () => check.run(ctx, exchange, []))));
  return findings;
}

/**
 * Declares `copy` the same answer as `original` (the same status, headers and body bytes, another
 * exchange's timing), so that the response checks' findings on one are the other's
 * ({@link responseFindings}): an answer seen again is not judged again.
 */
export function sameAnswer(copy: HttpResponse, original: HttpResponse): void {
  let known = verdicts.get(original);
  if (!known) verdicts.set(original, (known = new Map()));
  verdicts.set(copy, known);
}

/**
 * The finding of an exchange that got no complete answer (a timeout, a reset, garbage): no check
 * can pass on it, since a verdict needs an answer.
 * @returns the finding, or undefined when a response came
 */
export function noAnswerFinding(exchange: Exchange): Finding | undefined {
  if (exchange.response) return undefined;
  const error = exchange.transportError ?? { code: 'CNF_NO_RESPONSE', message: 'no response was recorded' };
  return {
    kind: 'no_response',
    title: 'No response',
    message: `${exchange.request.method} ${exchange.request.url.replace(/\?.*$/, '')} got no complete answer (${error.code}: ${error.message}); a check needs an answer to pass.`,
    expected: 'an HTTP response',
    actual: error,
  };
}

/** Whether each check applies to each operation, as decided once (`Check.appliesTo` reads only the document). */
const applicability = new WeakMap<Operation, Map<string, boolean>>();

/** `Check.appliesTo` of an operation, decided once per check and operation: it walks the operation's schemas, and every exchange asks. */
function appliesTo(check: Check, ctx: CheckContext): boolean {
  let known = applicability.get(ctx.operation);
  if (!known) applicability.set(ctx.operation, (known = new Map()));
  let applies = known.get(check.id);
  if (applies === undefined) known.set(check.id, (applies = (check.appliesTo?.(ctx) ?? true) === true));
  return applies;
}

/** What {@link JudgedCells} records besides the exchange: the run (seed, secrets, reproduction facts) and the steps that led to it. */
export interface JudgedSource extends FailureRun {
  /** The steps before this exchange (a scenario's, a command sequence's), printed with the finding. */
  steps?: readonly string[];
}

/** The subject of a check's failures on an operation. */
export function subjectOf(check: Pick<Check, 'id' | 'severity' | 'rule'>, operation: Pick<Operation, 'operationId'>): FailureSubject {
  return { checkId: check.id, severity: check.severity, rule: check.rule, operationId: operation.operationId };
}

/** The message line of the steps before an exchange (`Steps: 1) …; 2) …`), none without steps. */
export function stepLines(steps: readonly string[] | undefined): string[] {
  return steps?.length ? [`Steps: ${steps.map((s, i) => `${i + 1}) ${s}`).join('; ')}`] : [];
}

/** Most failures one judged cell keeps per finding kind; the rest are counted in the first one's message. */
const KEEP_PER_KIND = 1;

/**
 * Judges exchanges with the routed checks and keeps, per (operation, check), the failures found
 * (at most {@link KEEP_PER_KIND} per finding kind, the others counted): each exchange with the
 * response checks, and each pair of exchanges it completes (engine/evidence.ts `PairFinder`: a
 * write and its read, a record read twice, a list under two shapes, a token and its
 * introspection) with the pair checks of that relation, on the pair's subject. Cells that found
 * nothing are not emitted: they would only repeat the cells of the check-driven suites. Exchanges
 * of a request outside the document (a URL the target handed out, the reference's control API)
 * are not judged: the document says nothing of them.
 */
export class JudgedCells {
  readonly #spec: LoadedSpec;
  readonly #cells = new Map<string, CellMeta>();
  readonly #seen = new Map<string, number>();
  readonly #checks: readonly Check[];
  readonly #pairChecks: readonly Check[];
  readonly #pairs = new PairFinder();

  readonly #baseline: readonly BaselineEntry[];
  readonly #onPairJudged: ((operation: Operation, check: Check) => void) | undefined;

  /**
   * @param checks the routed checks to apply (default all of {@link ROUTED_CHECKS}, e.g. narrowed by `--checks`): the response checks judge each exchange, the pair checks each pair
   * @param baseline accepted deviations: a failure one accepts is kept in a passed cell's `accepted`, never failing it
   * @param onPairJudged told of each pair a pair check judged, with the pair's subject operation (an observed run counts them)
   */
  constructor(spec: LoadedSpec, checks: readonly Check[] = ROUTED_CHECKS, baseline: readonly BaselineEntry[] = [], onPairJudged?: (operation: Operation, check: Check) => void) {
    this.#spec = spec;
    // Each exchange is judged by the checks given that do not judge pairs (an observed run hands probe and walk checks the exchanges they judge).
    this.#checks = checks.filter((c) => c.evidence !== 'pair');
    this.#pairChecks = checks.filter((c) => c.evidence === 'pair');
    this.#baseline = baseline;
    this.#onPairJudged = onPairJudged;
  }

  /**
   * Judges one exchange of `operation` with every response check that applies to it, and the
   * pairs it completes with the pair checks.
   * @returns the failures found (also kept for {@link take})
   */
  judge(operation: Operation, exchange: Exchange, source: JudgedSource): Failure[] {
    if (!this.#spec.operations.includes(operation)) return [];
    countExchange();
    return timed('judging', () => [...this.#judge(operation, exchange, source), ...this.#judgePairs(operation, exchange, source)]);
  }

  /**
   * Forgets the exchanges awaiting their pair that a change the judging path did not see may have
   * made stale (an adapter's call, a request outside the document that changes state).
   */
  forget(): void {
    this.#pairs.forget();
  }

  /**
   * Takes a list answer judged elsewhere (by another judging thread of a pool) as the last answer
   * of its list, without judging it: the next answer of that list pairs with it (engine/evidence.ts
   * `PairFinder.recall`).
   * @param replace forget what was kept of that list first
   */
  recall(operation: Operation, exchange: Exchange, replace: boolean): void {
    if (this.#spec.operations.includes(operation)) this.#pairs.recall(operation, exchange, replace);
  }

  #judge(operation: Operation, exchange: Exchange, source: JudgedSource): Failure[] {
    const ctx = { spec: this.#spec, operation };
    const found: Failure[] = [];
    const silent = noAnswerFinding(exchange);
    for (const check of this.#checks) {
      if (!appliesTo(check, ctx)) continue;
      // A case the harness made to be refused is judged for its status by the probing check.
      if (exchange.case.refusal && check.id === 'status_code_conformance') continue;
      // Without an answer only not_a_server_error speaks (once), rather than every check repeating it.
      if (silent && check.id !== 'not_a_server_error') continue;
      const findings = silent ? [silent] : responseFindings(check, ctx, exchange);
      for (const finding of findings) {
        const failure = makeFailure(subjectOf(check, operation), finding, { exchange, lines: stepLines(source.steps) }, source);
        found.push(failure);
        this.#keep(failure);
      }
    }
    return found;
  }

  #judgePairs(operation: Operation, exchange: Exchange, source: JudgedSource): Failure[] {
    const pairs = this.#pairs.observe(operation, exchange);
    if (pairs.length === 0 || this.#pairChecks.length === 0) return [];
    const found: Failure[] = [];
    for (const pair of pairs) {
      const ctx = { spec: this.#spec, operation: pair.subject.operation };
      for (const check of this.#pairChecks) {
        if (check.pair !== pair.relation || !appliesTo(check, ctx)) continue;
        this.#onPairJudged?.(pair.subject.operation, check);
        for (const finding of timedCheck(check.id, () => check.run(ctx, pair.subject.exchange, [pair.other.exchange]))) {
          const other = pair.other.exchange.request;
          const lines = [...stepLines(source.steps), `Judged with ${other.method} ${other.url} (${pair.relation.replace(/_/g, ' ')}): ${pair.other.exchange.response?.status ?? 'no answer'}`];
          // The reproducer's steps are the two requests in the order they were sent.
          const trail = pair.relation === 'write_then_read' || pair.relation === 'token_then_introspection' ? [pair.subject.exchange, pair.other.exchange] : [pair.other.exchange, pair.subject.exchange];
          const failure = makeFailure(subjectOf(check, pair.subject.operation), finding, { exchange: pair.subject.exchange, trail, lines }, source);
          found.push(failure);
          this.#keep(failure);
        }
      }
    }
    return found;
  }

  #keep(failure: Failure): void {
    const entry = acceptedBy(failure, this.#baseline);
    if (entry) {
      const key = `${failure.operationId}\u0000${failure.checkId}\u0000accepted`;
      const cell = this.#cells.get(key) ?? { operationId: failure.operationId, checkId: failure.checkId, status: 'passed', cases: 0, failures: [], accepted: [] };
      this.#cells.set(key, cell);
      cell.cases++;
      if (cell.accepted!.length < KEEP_PER_KIND) cell.accepted!.push({ ...failure, acceptedBecause: entry.reason });
      return;
    }
    const key = `${failure.operationId}\u0000${failure.checkId}`;
    const kindKey = `${key}\u0000${failure.kind}`;
    const seen = (this.#seen.get(kindKey) ?? 0) + 1;
    this.#seen.set(kindKey, seen);
    const cell = this.#cells.get(key);
    if (seen > KEEP_PER_KIND) {
      // Counted on the failure kept, while its cell has not been taken yet.
      const first = cell?.failures.find((f) => f.kind === failure.kind);
      if (first) {
        cell!.cases++;
        first.message = `${first.message.replace(/ \(seen on \d+ exchanges\)$/, '')} (seen on ${seen} exchanges)`;
      }
      return;
    }
    if (cell) {
      cell.cases++;
      cell.failures.push(failure);
    } else {
      this.#cells.set(key, { operationId: failure.operationId, checkId: failure.checkId, status: 'failed', cases: 1, failures: [failure] });
    }
  }

  /**
   * The failed cells judged since the last call (and the passed cells of failures a baseline
   * accepts), and forgets them. A finding kind already reported
   * on an (operation, check) is not reported again by a later call, only counted.
   */
  take(): CellMeta[] {
    const cells = [...this.#cells.values()];
    this.#cells.clear();
    return cells;
  }
}

/**
 * A client whose every exchange of a document operation is judged by `judged` before it is
 * returned: the one judging path for the suites, scenarios, commands and sequences that send
 * through it.
 * @param source the seed, secrets and steps of the exchange being judged, read at each send
 */
export function judgingClient(client: Client, judged: JudgedCells, source: () => JudgedSource): Client {
  return {
    async send(operation, testCase) {
      const exchange = await client.send(operation, testCase);
      judged.judge(operation, exchange, source());
      return exchange;
    },
    close: () => client.close(),
  };
}
