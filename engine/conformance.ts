/**
 * The conformance statement a run's reports open with: per conformance class (core, pagination,
 * auth, tenancy, state, webhooks, versions, limits), whether the target conforms, with the cells
 * failed at `must` level counted apart from those failed at `should` level. A class in which no
 * cell ran (every one skipped or not applicable) is `not shown`: nothing was judged, so nothing is
 * claimed. `--fail-on must` makes only must-level failures fail the run.
 * @see docs/reports.md (Conformance statement); docs/architecture.md (Checks)
 */
import { CHECKS } from '../checks/index.js';
import { CONFORMANCE_CLASSES, type CellMeta, type ConformanceClass, type RequirementLevel } from '../core/types.js';
import { MODEL_FAMILIES } from './stateful/registry.js';
import { SCENARIOS } from './stateful/registry.js';

/** What decides a cell's weight in the statement: its class and requirement level. */
export interface CheckFacts {
  conformanceClass: ConformanceClass;
  level: RequirementLevel;
}

const FACTS = new Map<string, CheckFacts>([
  ...CHECKS.map((c) => [c.id, c] as const),
  ...SCENARIOS.map((s) => [s.id, s] as const),
  ...MODEL_FAMILIES.map((f) => [f.checkId, f] as const),
]);

/** Every check id in report order: the checks, then the stateful scenarios, then the model families. */
export const REPORT_ORDER: readonly string[] = [...FACTS.keys()];

/** The class and level of a check, scenario or model family by its id; an id none of them has (a check of a later version) counts as a core, must-level one. */
export function factsOf(checkId: string): CheckFacts {
  const facts = FACTS.get(checkId);
  return facts ? { conformanceClass: facts.conformanceClass, level: facts.level } : { conformanceClass: 'core', level: 'must' };
}

/** `conformant` (no must-level failure), `not conformant`, or `not shown` (no cell of the class ran). */
export type ClassVerdict = 'conformant' | 'not conformant' | 'not shown';

/** One class of the statement. */
export interface ClassStatement {
  conformanceClass: ConformanceClass;
  verdict: ClassVerdict;
  /** Cells that ran (passed or failed). */
  judged: number;
  /** Failed cells of must-level checks. */
  mustFailed: number;
  /** Failed cells of should-level checks: deviations that fail the run only with `--fail-on should` (the default). */
  shouldFailed: number;
}

/** The statement of a run: one entry per class in {@link CONFORMANCE_CLASSES} order, and the verdict over all. */
export interface ConformanceStatement {
  /** No must-level failure in any class (harness errors aside, which the exit code reports). */
  conformant: boolean;
  classes: ClassStatement[];
}

/** The statement of a run's cells. */
export function conformanceStatement(cells: readonly Pick<CellMeta, 'checkId' | 'status'>[]): ConformanceStatement {
  const classes = new Map<ConformanceClass, ClassStatement>(CONFORMANCE_CLASSES.map((c) => [c, { conformanceClass: c, verdict: 'not shown', judged: 0, mustFailed: 0, shouldFailed: 0 }]));
  for (const cell of cells) {
    if (cell.status !== 'passed' && cell.status !== 'failed') continue;
    const facts = factsOf(cell.checkId);
    const entry = classes.get(facts.conformanceClass)!;
    entry.judged++;
    if (cell.status === 'failed') {
      if (facts.level === 'must') entry.mustFailed++;
      else entry.shouldFailed++;
    }
  }
  for (const entry of classes.values()) entry.verdict = entry.judged === 0 ? 'not shown' : entry.mustFailed > 0 ? 'not conformant' : 'conformant';
  const list = [...classes.values()];
  return { conformant: list.every((c) => c.mustFailed === 0), classes: list };
}

/** The failure levels that make a run fail (`--fail-on`): `should` (default) any failed cell, `must` only must-level ones. */
export type FailOn = RequirementLevel;

/** Whether a failed cell fails the run under `failOn`. */
export function failsRun(cell: Pick<CellMeta, 'checkId' | 'status'>, failOn: FailOn = 'should'): boolean {
  return cell.status === 'failed' && (failOn === 'should' || factsOf(cell.checkId).level === 'must');
}
