/**
 * What the HTML report shows, decided before any section is drawn: the verdict and its reasons,
 * the symbol of each cell status, the failures grouped by operation (each with the anchor the
 * matrix links to), the skipped and not-applicable cells grouped by reason, and the harness
 * errors with the errored cells among them.
 * @see docs/reports.md (HTML)
 */
import type { CellMeta, CellStatus, Failure, SkipKind } from '../../core/types.js';
import { describeShortfall, type Coverage } from '../../engine/coverage.js';
import { exitCodeFor, summarize, type HarnessProblem, type RunResults } from '../../engine/results.js';
import { groupFailures, plural } from '../format.js';
import type { Matrix } from '../matrix.js';
import { html, type Html } from './template.js';

/** The verdict a report shows, from `exitCodeFor`: 0 conformant, 1 not conformant, 2 inconclusive. */
export type Verdict = 'Conformant' | 'Not conformant' | 'Inconclusive';

/** The symbol of each cell status in the HTML matrix, shown beside its name for people who cannot tell the colours apart. */
export const HTML_STATUS_SYMBOLS: Readonly<Record<CellStatus, string>> = { passed: '✓', failed: '✗', skipped: '–', not_applicable: '·', errored: '!' };

/** How the verdict shows: its label, tone, symbol and the reasons behind it. */
export interface VerdictView {
  label: Verdict;
  tone: 'pass' | 'fail' | 'error';
  symbol: string;
  reasons: Html[];
}

/** The verdict of a run (from `exitCodeFor`: conformant, not conformant, inconclusive) and the reasons to show. */
export function verdictOf(results: RunResults, coverage: Coverage | undefined): VerdictView {
  const summary = summarize(results);
  const code = exitCodeFor(results, coverage);
  const reasons: Html[] = [];
  if (summary.errors > 0) {
    reasons.push(html`<a href="#errors">${plural(summary.errors, 'harness error')}</a>: the harness could not check everything, so the run shows neither conformance nor its absence`);
  }
  if (summary.failed > 0) {
    reasons.push(html`<a href="#failures">${plural(summary.failed, 'failed cell')}</a> (${plural(summary.failures, 'failure')})`);
  }
  const shortfall = coverage ? describeShortfall(coverage) : '';
  if (shortfall) reasons.push(html`<a href="#coverage">${shortfall}</a>`);
  if (code === 0) {
    reasons.push(html`every check that ran passed (${plural(summary.passed, 'cell')}, ${plural(summary.cases, 'case')})`);
    if (summary.skipped > 0) reasons.push(html`<a href="#skipped">${plural(summary.skipped, 'cell')} skipped</a>: not checked`);
  }
  if (code === 2) return { label: 'Inconclusive', tone: 'error', symbol: '!', reasons };
  if (code === 1) return { label: 'Not conformant', tone: 'fail', symbol: '✗', reasons };
  return { label: 'Conformant', tone: 'pass', symbol: '✓', reasons };
}

/** One failure group as the page shows it, with the anchor the matrix links to. */
export interface FailureEntry {
  id: string;
  checkId: string;
  operationId: string;
  /** The first failure of a de-duplication group and how often it occurred; absent for a failed cell without failures. */
  first?: Failure;
  count: number;
}

/** The failure groups of a run and, per matrix cell, the anchor of its first failure. */
export interface FailurePlan {
  /** Operation id to its entries, operations in matrix row order, entries in check column order. */
  byOperation: Map<string, FailureEntry[]>;
  /** `operationId\0checkId` to the id of the first entry of that pair, the target of the matrix link. */
  anchorOf: Map<string, string>;
}

/** The key of an (operation, check) pair in the page's lookups. */
export function pairKey(operationId: string, checkId: string): string {
  return `${operationId}\u0000${checkId}`;
}

/** Groups the failed cells of each operation (reporters/format.ts `groupFailures`), in matrix order, and numbers each entry as its anchor (`failure-1`, ...). */
export function planFailures(cells: readonly CellMeta[], matrix: Matrix): FailurePlan {
  const byOperation = new Map<string, FailureEntry[]>();
  const anchorOf = new Map<string, string>();
  let next = 1;
  for (const operationId of matrix.operations) {
    const failed = cells.filter((cell) => cell.operationId === operationId && cell.status === 'failed');
    if (failed.length === 0) continue;
    const entries: FailureEntry[] = groupFailures(failed).map(({ first, count }) => ({ id: '', checkId: first.checkId, operationId, first, count }));
    for (const cell of failed.filter((candidate) => candidate.failures.length === 0)) {
      if (!entries.some((entry) => !entry.first && entry.checkId === cell.checkId)) entries.push({ id: '', checkId: cell.checkId, operationId, count: 1 });
    }
    // Entries of one check stay together, checks in matrix column order.
    entries.sort((a, b) => matrix.checks.indexOf(a.checkId) - matrix.checks.indexOf(b.checkId));
    for (const entry of entries) {
      entry.id = `failure-${next++}`;
      const key = pairKey(operationId, entry.checkId);
      if (!anchorOf.has(key)) anchorOf.set(key, entry.id);
    }
    byOperation.set(operationId, entries);
  }
  return { byOperation, anchorOf };
}

/** Skipped or not-applicable cells grouped by reason, with the matrix cells each reason covers. */
export interface SkipPlan {
  /**
   * Reason to its anchor id, what is missing and how to provide it (skipped cells), and the
   * operations with their check ids; the commonest reason first, ties in first-seen order.
   */
  reasons: { id: string; reason: string; count: number; kind?: SkipKind; fixes: string[]; byOperation: Map<string, string[]> }[];
  /** `operationId\0checkId` to the anchor of the pair's first skip reason. */
  anchorOf: Map<string, string>;
}

/** Groups the cells of one status (skipped or not applicable) by reason, commonest first. */
export function planSkips(cells: readonly CellMeta[], status: 'skipped' | 'not_applicable', prefix: string): SkipPlan {
  const found: SkipPlan['reasons'] = [];
  for (const cell of cells) {
    if (cell.status !== status) continue;
    const reason = cell.skipReason ?? 'no reason given';
    let entry = found.find((candidate) => candidate.reason === reason);
    if (!entry) found.push((entry = { id: '', reason, count: 0, ...(cell.skipKind ? { kind: cell.skipKind } : {}), fixes: [], byOperation: new Map() }));
    entry.count += 1;
    if (cell.fix && !entry.fixes.includes(cell.fix)) entry.fixes.push(cell.fix);
    const checks = entry.byOperation.get(cell.operationId) ?? [];
    if (!checks.includes(cell.checkId)) checks.push(cell.checkId);
    entry.byOperation.set(cell.operationId, checks);
  }
  // Array.prototype.sort is stable: equal counts keep their first-seen order.
  const reasons = found.sort((a, b) => b.count - a.count).map((entry, index) => ({ ...entry, id: `${prefix}-${index + 1}` }));
  const anchorOf = new Map<string, string>();
  for (const entry of reasons) {
    for (const [operationId, checks] of entry.byOperation) {
      for (const checkId of checks) {
        const key = pairKey(operationId, checkId);
        if (!anchorOf.has(key)) anchorOf.set(key, entry.id);
      }
    }
  }
  return { reasons, anchorOf };
}

// Errored cells are harness problems inside one cell: listed with the others, by the cell's name.
/** The harness errors plus one per errored cell, so that an errored cell is never silent. */
export function withErroredCells(results: RunResults): HarnessProblem[] {
  const errored = results.cells
    .filter((cell) => cell.status === 'errored')
    .map((cell): HarnessProblem => ({ where: `${cell.checkId} on ${cell.operationId}`, message: cell.error?.message ?? 'the cell errored without saying why', ...(cell.error ? { code: cell.error.code } : {}) }));
  return [...results.errors, ...errored];
}
