/**
 * The one function that makes a failure: a check's finding placed on the exchange that shows it,
 * with the check's severity and rule, the case, the request and response, and its reproducer made
 * runnable then and there (for an embedded run, the `conformance serve` line and the token exports;
 * for every run, the `conformance run` line of its one cell). Nothing changes a failure afterwards.
 * @see docs/architecture.md (A finding's way)
 */
import { toCurl, type SecretRef } from './curl.js';
import { runnableReproducer, type ReproductionInfo } from './reproducer.js';
import type { Exchange, Failure, Finding, HttpRequest, Reproducer, Severity, TestCase } from './types.js';

/** Who reports the finding: a check, a scenario or a model family, on the operation its cell is reported under. */
export interface FailureSubject {
  checkId: string;
  severity: Severity;
  rule: string;
  operationId: string;
}

/** Where the finding shows. */
export interface FailurePlace {
  /** The exchange that shows it; absent when only the adapter's answers show it. */
  exchange?: Exchange;
  /** Every request that led to it, oldest first and `exchange` last: a multi-step reproducer when there are two or more. */
  trail?: readonly Exchange[];
  /** Lines added to the finding's message (the steps before it, a family's commands and replay). */
  lines?: readonly string[];
  /** The case id when not the exchange's (`<check>#shrunk`). */
  caseId?: string;
  /** Without an exchange: the request the failure names (`ADAPTER adapter:<name>`) and the comment its curl is. */
  withoutExchange?: { request: HttpRequest; curl: string };
}

/** What the run knows that makes a failure reproducible. */
export interface FailureRun {
  /** The run's seed. */
  seed: number;
  /** Secrets hidden from curl commands, each as its variable. */
  secrets: readonly SecretRef[];
  /** fast-check's counterexample path (model families). */
  path?: string;
  /** The run's reproduction facts; absent in unit tests and library use without a run, which keep the plain curl. */
  reproduction?: ReproductionInfo;
}

/**
 * Makes the failure of `finding`, reported by `subject`, at `place`, in `run`.
 * @returns a complete failure; its `reproduce` is runnable as printed when `run.reproduction` is given
 */
export function makeFailure(subject: FailureSubject, finding: Finding, place: FailurePlace, run: FailureRun): Failure {
  const { exchange } = place;
  const trail = place.trail ?? [];
  const steps = trail.length > 1 ? trail.map((e) => toCurl(e.request, run.secrets)) : undefined;
  const testCase: TestCase = exchange?.case ?? { id: `${subject.checkId}#adapter`, operationId: subject.operationId, pathParams: {}, query: {}, headers: {}, role: null };
  const plain: Reproducer = {
    curl: exchange ? toCurl(exchange.request, run.secrets) : (place.withoutExchange?.curl ?? '# no single request shows this'),
    seed: run.seed,
    ...(run.path !== undefined ? { path: run.path } : {}),
    ...(steps ? { steps } : {}),
  };
  const failure: Failure = {
    ...finding,
    message: [finding.message, ...(place.lines ?? [])].join('\n'),
    checkId: subject.checkId,
    severity: subject.severity,
    rule: subject.rule,
    operationId: subject.operationId,
    caseId: place.caseId ?? testCase.id,
    case: testCase,
    request: exchange?.request ?? place.withoutExchange?.request ?? { method: 'ADAPTER', url: 'adapter:none', headers: {} },
    ...(exchange?.response ? { response: exchange.response } : {}),
    reproduce: plain,
  };
  if (run.reproduction) failure.reproduce = runnableReproducer(failure, run.reproduction);
  return failure;
}
