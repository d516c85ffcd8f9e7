/**
 * The operation x check matrix that every reporter shows: operations as rows, check ids as
 * columns, each cell's status or nothing when that check did not run on that operation.
 */
import type { CellMeta, CellStatus } from '../core/types.js';
import { REPORT_ORDER } from '../engine/conformance.js';

/**
 * The matrix of a run. `statuses[row][column]` is the status of check `checks[column]` on
 * operation `operations[row]`, or `undefined` when no cell was recorded for the pair (not run).
 */
export interface Matrix {
  /** Row labels: operation ids in the order they were first seen. */
  operations: string[];
  /** Column labels: check ids in the order they were first seen. */
  checks: string[];
  statuses: (CellStatus | undefined)[][];
}

// When one (operation, check) pair has several cells (shards, several roles), the worst wins:
// a failure anywhere fails the pair, and a pass beats a skip since the check did run.
const PRECEDENCE: Record<CellStatus, number> = { not_applicable: 0, skipped: 1, passed: 2, errored: 3, failed: 4 };

/**
 * Builds the matrix from cells. Rows are operations in alphabetical order; columns follow
 * `checkOrder` (the report order: the checks, the stateful scenarios, the model families), checks it
 * does not name coming after in first-seen order, so that a report looks the same whichever suite finished first. Several cells
 * for one (operation, check) pair merge to the worst status (failed > errored > passed > skipped > not applicable).
 */
export function buildMatrix(cells: readonly CellMeta[], checkOrder: readonly string[] = REPORT_ORDER): Matrix {
  const rank = (checkId: string): number => {
    const at = checkOrder.indexOf(checkId);
    return at === -1 ? checkOrder.length : at;
  };
  const operations = [...new Set(cells.map((c) => c.operationId))].sort();
  // Array.prototype.sort is stable, so checks outside checkOrder keep their first-seen order.
  const checks = [...new Set(cells.map((c) => c.checkId))].sort((a, b) => rank(a) - rank(b));
  const rowOf = new Map(operations.map((o, i) => [o, i]));
  const columnOf = new Map(checks.map((c, i) => [c, i]));
  const statuses: (CellStatus | undefined)[][] = operations.map(() => []);

  for (const cell of cells) {
    const row = rowOf.get(cell.operationId)!;
    const column = columnOf.get(cell.checkId)!;
    const line = statuses[row]!;
    const previous = line[column];
    if (previous === undefined || PRECEDENCE[cell.status] > PRECEDENCE[previous]) line[column] = cell.status;
  }
  // Rows are padded to full width so that every row has one entry per check, without holes.
  const padded = statuses.map((line) => Array.from({ length: checks.length }, (_, column) => line[column]));
  return { operations, checks, statuses: padded };
}

/** The status of `checkId` on `operationId`, or `undefined` when it did not run. */
export function statusAt(matrix: Matrix, operationId: string, checkId: string): CellStatus | undefined {
  const row = matrix.operations.indexOf(operationId);
  const column = matrix.checks.indexOf(checkId);
  if (row < 0 || column < 0) return undefined;
  return matrix.statuses[row]?.[column];
}
