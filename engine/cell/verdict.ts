/**
 * A cell's verdict: the findings of a check on its evidence (none without an answer), the failures
 * they become with their reproducers (minus those the baseline accepts), the cells that do not run
 * (not applicable, skipped), and what a cell observed, for spec coverage.
 * @see docs/design.md (Targets, roles and verdicts); docs/decisions.md (Harness: "A verdict needs an answer", "Five verdicts")
 */
import type { LoadedSpec, Operation } from '../../core/spec/load.js';
import type { CellMeta, Check, Exchange, Failure, Finding } from '../../core/types.js';
import { secretsOf } from '../../core/curl.js';
import { makeFailure } from '../../core/failure.js';
import { timedCheck } from '../../core/timings.js';
import { acceptedBy } from '../baseline.js';
import { noAnswerFinding, responseFindings, subjectOf } from '../judge.js';
import type { CellInput } from './input.js';
import type { SkipReason } from './skip.js';

/** A cell that does not run: not applicable, or skipped with what is missing. */
export function notRun(cell: CellMeta, status: 'not_applicable' | 'skipped', reason: string, skip?: Omit<SkipReason, 'reason'>): CellMeta {
  return { ...cell, status, skipReason: reason, ...(skip ? { skipKind: skip.kind, fix: skip.fix } : {}) };
}

/**
 * The findings of a check on its evidence: a verdict needs an answer, so evidence with an exchange
 * that got none is a `no_response` finding whatever the check would say of the rest.
 */
export function judgeEvidence(check: Check, ctx: { spec: LoadedSpec; operation: Operation }, exchange: Exchange, history: readonly Exchange[]): Finding[] {
  const silent = [exchange, ...history].map(noAnswerFinding).find((f) => f !== undefined);
  if (silent) return [silent];
  // A response check reads the answer alone: its verdict on an answer already judged is reused.
  return check.evidence === 'exchange' && history.length === 0 ? [...responseFindings(check, ctx, exchange)] : timedCheck(check.id, () => check.run(ctx, exchange, history));
}

/** Collects the statuses seen and parameters sent by a cell's exchanges, for spec coverage. */
export function observer(): { add: (exchange: Exchange) => void; result: () => NonNullable<CellMeta['observed']> } {
  const statuses = new Set<number>();
  const refusals = new Set<number>();
  const parameters = new Set<string>();
  return {
    add: (exchange) => {
      if (exchange.response) (exchange.case.refusal ? refusals : statuses).add(exchange.response.status);
      for (const name of Object.keys(exchange.case.query)) parameters.add(`query:${name.replace(/\[.*$/, '')}`);
      for (const name of Object.keys(exchange.case.pathParams)) parameters.add(`path:${name}`);
    },
    result: () => ({ statuses: [...statuses].sort((a, b) => a - b), parameters: [...parameters].sort(), ...(refusals.size ? { refusals: [...refusals].sort((a, b) => a - b) } : {}) }),
  };
}

/** Turns findings into the cell's failures (with reproducers), minus those the baseline accepts; sets the status. */
export function placeFindings(input: CellInput, cell: CellMeta, findings: Finding[], exchange: Exchange, path?: string): CellMeta {
  const { check, operation } = input;
  const secrets = secretsOf(input.target);
  const run = { seed: input.runSeed, secrets, ...(path !== undefined ? { path } : {}), ...(input.reproduction ? { reproduction: input.reproduction } : {}) };
  const failures = findings.map((finding): Failure => makeFailure(subjectOf(check, operation), finding, { exchange }, run));
  const accepted = failures.flatMap((f) => {
    const entry = acceptedBy(f, input.baseline ?? []);
    return entry ? [{ ...f, acceptedBecause: entry.reason }] : [];
  });
  cell.failures = failures.filter((f) => !acceptedBy(f, input.baseline ?? []));
  if (accepted.length) cell.accepted = accepted;
  cell.status = cell.failures.length ? 'failed' : 'passed';
  return cell;
}
