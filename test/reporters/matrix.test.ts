import { describe, expect, test } from 'vitest';
import type { CellMeta } from '../../core/types.js';
import { buildMatrix, statusAt, type Matrix } from '../../reporters/matrix.js';
import { cell, failure, skipped } from './fixtures/cells.js';

describe('buildMatrix', () => {
  const table: [string, { given: CellMeta[]; want: Matrix }][] = [
    ['no cells', { given: [], want: { operations: [], checks: [], statuses: [] } }],
    ['operations alphabetical, checks in registry order then first-seen, holes are undefined', {
      given: [
        cell('orders:list', 'status_code_conformance'),
        cell('products:get', 'response_schema_conformance', { failures: [failure()] }),
        skipped('orders:list', 'ignored_auth', 'needs role other_org'),
      ],
      want: {
        operations: ['orders:list', 'products:get'],
        checks: ['status_code_conformance', 'response_schema_conformance', 'ignored_auth'],
        statuses: [
          ['passed', undefined, 'skipped'],
          [undefined, 'failed', undefined],
        ],
      },
    }],
    ['the worst of several cells for one pair wins', {
      given: [
        skipped('a', 'x', 'r'), cell('a', 'x'),
        cell('a', 'y'), cell('a', 'y', { failures: [failure()] }), cell('a', 'y'),
        skipped('a', 'z', 'r'), skipped('a', 'z', 'q'),
      ],
      want: { operations: ['a'], checks: ['x', 'y', 'z'], statuses: [['passed', 'failed', 'skipped']] },
    }],
  ];
  test.each(table)('%s', (_name, { given, want }) => {
    const matrix = buildMatrix(given);
    expect(matrix).toEqual(want);
    for (const row of matrix.statuses) expect(row).toHaveLength(matrix.checks.length);
  });
});

describe('statusAt', () => {
  const matrix = buildMatrix([cell('a', 'x'), skipped('b', 'y', 'r')]);
  const table: [string, string, string | undefined][] = [
    ['a', 'x', 'passed'],
    ['b', 'y', 'skipped'],
    ['a', 'y', undefined],
    ['c', 'x', undefined],
  ];
  test.each(table)('%s x %s is %s', (operationId, checkId, want) => {
    expect(statusAt(matrix, operationId, checkId)).toBe(want);
  });
});
