/**
 * Spec coverage of a run: which documented operations the cells exercised, which documented
 * response status keys they observed, and which documented parameters they sent; and whether
 * that meets `--min-coverage`.
 *
 * Coverage is always measured against the whole document, also when `--operations`, `--checks`
 * or `--suites` narrowed the run: it says how much of the API the run has shown to conform.
 * A falling short of `--min-coverage` is neither a cell (no operation x check is at fault) nor a
 * harness error (nothing went wrong): it is {@link Coverage.belowMinimum}, which `exitCodeFor`
 * turns into exit 1 and every report shows.
 * @see https://spec.openapis.org/oas/v3.1.0#responses-object (status keys, ranges, `default`)
 * @see https://spec.openapis.org/oas/v3.1.0#parameter-object (a parameter is unique by `in` and `name`)
 */
import { isDocumentedStatus } from '../checks/status-code-conformance.js';
import type { CellMeta } from '../core/types.js';
import type { LoadedSpec } from '../core/spec/load.js';

/** The three things coverage counts, in the order reports show them. */
export const COVERAGE_MEASURES = ['operations', 'statuses', 'parameters'] as const;

/** One of {@link COVERAGE_MEASURES}. */
export type CoverageMeasure = (typeof COVERAGE_MEASURES)[number];

/** Covered out of total for one measure. */
export interface CoverageTotal {
  covered: number;
  total: number;
  /**
   * `covered / total` in percent, rounded down to one decimal so that a report never shows more
   * than was covered (2/3 is 66.6); 100 when `total` is 0, since nothing was left uncovered.
   */
  percent: number;
}

/** Coverage of one documented operation. */
export interface OperationCoverage {
  operationId: string;
  /** Upper-case HTTP method and the path template, as documented. */
  method: string;
  path: string;
  /** Whether a passed or failed cell with at least one case ran on the operation. */
  exercised: boolean;
  /**
   * Status keys as documented (`200`, `4XX`, `default`), in document order; the documented keys
   * that an observed status maps to (`spec.matchStatus`), in document order; and observed statuses
   * that no key documents, ascending (status_code_conformance reports those as failures).
   */
  statuses: { documented: string[]; observed: string[]; undocumented: number[] };
  /** Documented parameters as `in:name` (`query:limit`, `path:id`), in document order, and those sent. */
  parameters: { documented: string[]; sent: string[] };
}

/** Spec coverage of a run; see {@link computeCoverage}. */
export interface Coverage {
  /** One entry per documented operation, in document order. */
  operations: OperationCoverage[];
  /** Operations exercised, documented status keys observed, documented parameters sent, over the document. */
  totals: Record<CoverageMeasure, CoverageTotal>;
  /** `--min-coverage` in percent (0 to 100), when one was asked for. */
  minPercent?: number;
  /** The measures whose exact ratio is below `minPercent`, in {@link COVERAGE_MEASURES} order; empty without one. */
  belowMinimum: CoverageMeasure[];
}

/**
 * Computes the spec coverage of a run's cells.
 *
 * An operation counts as exercised when any of its cells passed or failed with `cases > 0`
 * (a skipped cell, or one that checked nothing, does not). Statuses and parameters come from the
 * cells' `observed` field, from every cell of the operation (a failed cell's responses were
 * observed all the same); a status counts for the documented key `spec.matchStatus` maps it to,
 * so a 201 covers `2XX` and any status covers `default` when no closer key documents it.
 * Cells of operations the document does not have are ignored.
 * @param spec the document the run checked against
 * @param cells the run's cells (`RunResults.cells`)
 * @param minPercent `--min-coverage` in percent; a measure whose exact ratio `covered / total` is
 *   below it is listed in `belowMinimum` (the exact ratio, not the rounded `percent`, decides)
 * @throws RangeError when `minPercent` is not a number from 0 to 100 (a caller's bug: the CLI
 *   and `runConformance` validate the option first)
 */
export function computeCoverage(spec: LoadedSpec, cells: readonly CellMeta[], minPercent?: number): Coverage {
  if (minPercent !== undefined && !isPercent(minPercent)) {
    throw new RangeError(`a coverage minimum is a percentage from 0 to 100, not ${String(minPercent)}`);
  }
  const byOperation = new Map<string, CellMeta[]>();
  for (const cell of cells) {
    const list = byOperation.get(cell.operationId);
    if (list) list.push(cell);
    else byOperation.set(cell.operationId, [cell]);
  }

  const operations = spec.operations.map((operation): OperationCoverage => {
    const own = byOperation.get(operation.operationId) ?? [];
    const statuses = new Set<number>();
    const parameters = new Set<string>();
    for (const cell of own) {
      for (const status of cell.observed?.statuses ?? []) statuses.add(status);
      for (const parameter of cell.observed?.parameters ?? []) parameters.add(parameter);
    }
    const observedKeys = new Set<string>();
    const undocumented: number[] = [];
    for (const status of statuses) {
      const key = spec.matchStatus(operation, status);
      if (key !== undefined) observedKeys.add(key);
      else if (!isDocumentedStatus(spec, operation, status)) undocumented.push(status);
    }
    // A refusal the harness provoked (a probe, invalid data) is judged by the probing check, not
    // by status_code_conformance: it counts for the documented statuses it shows, never as undocumented.
    for (const cell of own) {
      for (const status of cell.observed?.refusals ?? []) {
        const key = spec.matchStatus(operation, status);
        if (key !== undefined) observedKeys.add(key);
      }
    }
    const documentedParameters = operation.parameters.map((parameter) => `${parameter.in}:${parameter.name}`);
    return {
      operationId: operation.operationId,
      method: operation.method,
      path: operation.path,
      exercised: own.some((cell) => cell.status !== 'skipped' && cell.cases > 0),
      statuses: {
        documented: [...operation.responseStatuses],
        observed: operation.responseStatuses.filter((key) => observedKeys.has(key)),
        undocumented: undocumented.sort((a, b) => a - b),
      },
      parameters: {
        documented: documentedParameters,
        sent: documentedParameters.filter((parameter) => parameters.has(parameter)),
      },
    };
  });

  const totals: Record<CoverageMeasure, CoverageTotal> = {
    operations: total(operations.filter((op) => op.exercised).length, operations.length),
    statuses: total(sum(operations, (op) => op.statuses.observed.length), sum(operations, (op) => op.statuses.documented.length)),
    parameters: total(sum(operations, (op) => op.parameters.sent.length), sum(operations, (op) => op.parameters.documented.length)),
  };
  const coverage: Coverage = { operations, totals, belowMinimum: [] };
  if (minPercent !== undefined) {
    coverage.minPercent = minPercent;
    // covered / total < min / 100, without the rounding of `percent`; a total of 0 is never below.
    coverage.belowMinimum = COVERAGE_MEASURES.filter((measure) => totals[measure].covered * 100 < minPercent * totals[measure].total);
  }
  return coverage;
}

/** `12/20 (60.0%)`: covered out of total with the percentage, as the reports write a total. */
export function formatCoverageTotal(value: CoverageTotal): string {
  return `${value.covered}/${value.total} (${formatPercent(value.percent)})`;
}

/** A percentage with one decimal and a `%` sign (`66.6%`, `100.0%`). */
export function formatPercent(percent: number): string {
  return `${percent.toFixed(1)}%`;
}

/**
 * `--min-coverage` as a report's sentence: `coverage below the minimum of 80%: statuses 66.6%,
 * parameters 12.5%`; an empty string when nothing is below.
 */
export function describeShortfall(coverage: Coverage): string {
  if (coverage.belowMinimum.length === 0 || coverage.minPercent === undefined) return '';
  const measures = coverage.belowMinimum.map((measure) => `${measure} ${formatPercent(coverage.totals[measure].percent)}`);
  return `coverage below the minimum of ${coverage.minPercent}%: ${measures.join(', ')}`;
}

/** Whether `value` is a valid `--min-coverage`: a finite number from 0 to 100. */
export function isPercent(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100;
}

function total(covered: number, all: number): CoverageTotal {
  // Integer arithmetic first, so that 29/30 gives 96.6 and not 96.66666 rounded the wrong way.
  const percent = all === 0 ? 100 : Math.floor((covered * 1000) / all) / 10;
  return { covered, total: all, percent };
}

function sum<T>(items: readonly T[], count: (item: T) => number): number {
  return items.reduce((acc, item) => acc + count(item), 0);
}
