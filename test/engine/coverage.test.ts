import { beforeAll, describe, expect, test } from 'vitest';
import type { CellMeta } from '../../core/types.js';
import { computeCoverage, describeShortfall, formatCoverageTotal, formatPercent, isPercent, type Coverage, type CoverageTotal, type OperationCoverage } from '../../engine/coverage.js';
import type { LoadedSpec } from '../../core/spec/load.js';
import { finishResults } from '../../engine/results.js';
import { cell, failure, skipped } from '../reporters/fixtures/cells.js';
import { loadCoverageSpec } from '../reporters/fixtures/spec.js';

// coverage.openapi.yaml: products:list (200 401 422; query:page query:limit query:metadata),
// orders:update (404 2XX default; path:id header:x-request-id), webhooks:list_endpoints (200; none).
let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadCoverageSpec();
});

const observed = (statuses: number[], parameters: string[] = []): Partial<CellMeta> => ({ observed: { statuses, parameters } });

const NOTHING: OperationCoverage[] = [
  { operationId: 'products:list', method: 'GET', path: '/v1/products/', exercised: false, statuses: { documented: ['200', '401', '422'], observed: [], undocumented: [] }, parameters: { documented: ['query:page', 'query:limit', 'query:metadata'], sent: [] } },
  { operationId: 'orders:update', method: 'PATCH', path: '/v1/orders/{id}', exercised: false, statuses: { documented: ['404', '2XX', 'default'], observed: [], undocumented: [] }, parameters: { documented: ['path:id', 'header:x-request-id'], sent: [] } },
  { operationId: 'webhooks:list_endpoints', method: 'GET', path: '/v1/webhooks/endpoints', exercised: false, statuses: { documented: ['200'], observed: [], undocumented: [] }, parameters: { documented: [], sent: [] } },
];

function with_(operationId: string, change: Partial<OperationCoverage>): OperationCoverage[] {
  return NOTHING.map((op) => (op.operationId === operationId ? { ...op, ...change } : op));
}

const t = (covered: number, total: number, percent: number): CoverageTotal => ({ covered, total, percent });

describe('computeCoverage', () => {
  const table: [string, { given: CellMeta[]; want: Pick<Coverage, 'operations' | 'totals'> }][] = [
    ['no cells: nothing covered', {
      given: [],
      want: { operations: NOTHING, totals: { operations: t(0, 3, 0), statuses: t(0, 7, 0), parameters: t(0, 5, 0) } },
    }],
    ['a passed cell exercises its operation; statuses and parameters come from observed', {
      given: [cell('products:list', 'status_code_conformance', observed([200, 422], ['query:limit', 'query:page']))],
      want: {
        operations: with_('products:list', {
          exercised: true,
          statuses: { documented: ['200', '401', '422'], observed: ['200', '422'], undocumented: [] },
          parameters: { documented: ['query:page', 'query:limit', 'query:metadata'], sent: ['query:page', 'query:limit'] },
        }),
        totals: { operations: t(1, 3, 33.3), statuses: t(2, 7, 28.5), parameters: t(2, 5, 40) },
      },
    }],
    ['a failed cell exercises too, and an undocumented status is listed, not counted', {
      given: [cell('products:list', 'status_code_conformance', { failures: [failure()], ...observed([500, 200, 204]) })],
      want: {
        operations: with_('products:list', { exercised: true, statuses: { documented: ['200', '401', '422'], observed: ['200'], undocumented: [204, 500] } }),
        totals: { operations: t(1, 3, 33.3), statuses: t(1, 7, 14.2), parameters: t(0, 5, 0) },
      },
    }],
    ['statuses map through matchStatus: a range, then default; several cells merge', {
      given: [
        cell('orders:update', 'missing_auth_rejected', observed([401], ['path:id'])),
        cell('orders:update', 'status_code_conformance', observed([201, 204], ['path:id', 'query:unknown'])),
      ],
      want: {
        operations: with_('orders:update', {
          exercised: true,
          statuses: { documented: ['404', '2XX', 'default'], observed: ['2XX', 'default'], undocumented: [] },
          parameters: { documented: ['path:id', 'header:x-request-id'], sent: ['path:id'] },
        }),
        totals: { operations: t(1, 3, 33.3), statuses: t(2, 7, 28.5), parameters: t(1, 5, 20) },
      },
    }],
    ['skipped cells and cells with no case do not exercise; what they observed still counts', {
      given: [
        skipped('webhooks:list_endpoints', 'status_code_conformance', 'needs role admin'),
        cell('webhooks:list_endpoints', 'sorting_respected', { cases: 0, ...observed([200]) }),
      ],
      want: {
        operations: with_('webhooks:list_endpoints', { statuses: { documented: ['200'], observed: ['200'], undocumented: [] } }),
        totals: { operations: t(0, 3, 0), statuses: t(1, 7, 14.2), parameters: t(0, 5, 0) },
      },
    }],
    ['cells without observed exercise but cover no status or parameter', {
      given: [cell('webhooks:list_endpoints', 'status_code_conformance')],
      want: { operations: with_('webhooks:list_endpoints', { exercised: true }), totals: { operations: t(1, 3, 33.3), statuses: t(0, 7, 0), parameters: t(0, 5, 0) } },
    }],
    ['cells of operations the document does not have are ignored', {
      given: [cell('refunds:list', 'status_code_conformance', observed([200], ['query:limit']))],
      want: { operations: NOTHING, totals: { operations: t(0, 3, 0), statuses: t(0, 7, 0), parameters: t(0, 5, 0) } },
    }],
  ];
  test.each(table)('%s', (_name, { given, want }) => {
    expect(computeCoverage(spec, given)).toEqual({ ...want, belowMinimum: [] });
  });

  const everything: CellMeta[] = [
    cell('products:list', 'a', observed([200, 401, 422], ['query:page', 'query:limit', 'query:metadata'])),
    cell('orders:update', 'a', observed([200, 404, 500], ['path:id', 'header:x-request-id'])),
    cell('webhooks:list_endpoints', 'a', observed([200])),
  ];
  // Operations 2/3 (66.66…%), statuses 3/7 (42.85…%: 200, 401 and 2XX), parameters 3/5 (60%).
  const partial: CellMeta[] = [cell('products:list', 'a', observed([200, 401], ['query:page'])), cell('orders:update', 'a', observed([204], ['path:id', 'header:x-request-id']))];
  const minimums: [string, { cells: CellMeta[]; min: number; below: string[] }][] = [
    ['full coverage meets 100', { cells: everything, min: 100, below: [] }],
    ['0 is met by nothing at all', { cells: [], min: 0, below: [] }],
    ['each measure below is named, in order', { cells: partial, min: 61, below: ['statuses', 'parameters'] }],
    ['exactly at the minimum is not below (3/5 = 60%)', { cells: partial, min: 60, below: ['statuses'] }],
    ['the exact ratio decides: 2/3 (shown 66.6%) meets 66.65', { cells: partial, min: 66.65, below: ['statuses', 'parameters'] }],
    ['… and is below 66.67', { cells: partial, min: 66.67, below: ['operations', 'statuses', 'parameters'] }],
    ['every measure below', { cells: [], min: 0.1, below: ['operations', 'statuses', 'parameters'] }],
  ];
  test.each(minimums)('minimum: %s', (_name, { cells, min, below }) => {
    const coverage = computeCoverage(spec, cells, min);
    expect(coverage.minPercent).toBe(min);
    expect(coverage.belowMinimum).toEqual(below);
  });

  test('2/3 operations with minimum 66.65 is met: the exact ratio is 66.66…', () => {
    const coverage = computeCoverage(spec, partial, 66.65);
    expect(coverage.totals.operations).toEqual(t(2, 3, 66.6));
    expect(coverage.belowMinimum).not.toContain('operations');
  });

  test('without a minimum, nothing is below and minPercent is absent', () => {
    const coverage = computeCoverage(spec, []);
    expect(coverage).not.toHaveProperty('minPercent');
    expect(coverage.belowMinimum).toEqual([]);
  });

  test.each([-1, 100.5, Number.NaN, Number.POSITIVE_INFINITY])('a minimum of %s is a RangeError', (min) => {
    expect(() => computeCoverage(spec, [], min)).toThrow(RangeError);
  });

  test('a document without operations or parameters is fully covered (0 of 0 is 100%)', () => {
    const empty = { ...spec, operations: [] } as LoadedSpec;
    expect(computeCoverage(empty, [], 100)).toEqual({
      operations: [],
      totals: { operations: t(0, 0, 100), statuses: t(0, 0, 100), parameters: t(0, 0, 100) },
      minPercent: 100,
      belowMinimum: [],
    });
  });
});

describe('the coverage of finished results', () => {
  test('measures with a spec, passing the minimum on; nothing without one', () => {
    const cells = [cell('products:list', 'a', observed([200]))];
    expect(finishResults({ cells, errors: [] }, { spec, minCoverage: 50 }).coverage).toEqual(computeCoverage(spec, cells, 50));
    expect(finishResults({ cells, errors: [] }, { minCoverage: 50 }).coverage).toBeUndefined();
  });
});

describe('formatting', () => {
  const table: [string, string, string][] = [
    ['2 of 3', formatCoverageTotal(t(2, 3, 66.6)), '2/3 (66.6%)'],
    ['0 of 0', formatCoverageTotal(t(0, 0, 100)), '0/0 (100.0%)'],
    ['a whole percent', formatPercent(40), '40.0%'],
  ];
  test.each(table)('%s', (_name, got, want) => {
    expect(got).toBe(want);
  });

  test('describeShortfall names the measures below the minimum, or nothing', () => {
    const cells = [cell('products:list', 'a', observed([200], ['query:page', 'query:limit', 'query:metadata', 'x']))];
    expect(describeShortfall(computeCoverage(spec, cells, 50))).toBe('coverage below the minimum of 50%: operations 33.3%, statuses 14.2%');
    expect(describeShortfall(computeCoverage(spec, cells, 10))).toBe('');
    expect(describeShortfall(computeCoverage(spec, cells))).toBe('');
  });

  test.each([
    [0, true], [100, true], [62.5, true], [-0.1, false], [101, false], [Number.NaN, false], ['80', false],
  ] as [unknown, boolean][])('isPercent(%s) is %s', (value, want) => {
    expect(isPercent(value)).toBe(want);
  });
});
