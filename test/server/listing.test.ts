import { describe, expect, it } from 'vitest';
import { comparatorFor, listParamsOf, matchesMetadata, parseSorting, visibleOrganizations } from '../../server/listing.js';
import type { BaseRecord } from '../../server/records.js';

type Row = BaseRecord & { n: number | null; s: string };
const row = (id: string, n: number | null, s = ''): Row => ({ id, organization_id: 'o', created_at: '', modified_at: null, n, s });
const keys = { n: (r: Row) => r.n, s: (r: Row) => r.s };
const order = (rows: Row[], sorting: string[]) => [...rows].sort(comparatorFor(parseSorting(sorting), keys)).map((r) => r.id);

describe('comparatorFor', () => {
  const rows = [row('d', 2, 'x'), row('a', null, 'y'), row('c', 1, 'x'), row('b', 2, 'y'), row('e', null, 'x')];
  it.each<[string[], string[]]>([
    [['n'], ['c', 'b', 'd', 'a', 'e']],
    [['-n'], ['b', 'd', 'c', 'a', 'e']],
    [['s', '-n'], ['d', 'c', 'e', 'b', 'a']],
    [[], ['a', 'b', 'c', 'd', 'e']],
  ])('%j orders nulls last and ties by id', (sorting, expected) => {
    expect(order(rows, sorting)).toEqual(expected);
  });

  it('throws for a key the resource does not have', () => {
    expect(() => comparatorFor(parseSorting(['nope']), keys)).toThrow('no sort key nope');
  });
});

describe('matchesMetadata', () => {
  it.each<[Record<string, string[]>, boolean]>([
    [{}, true],
    [{ tier: ['pro'] }, true],
    [{ tier: ['free', 'pro'] }, true],
    [{ tier: ['free'] }, false],
    [{ featured: ['true'], priority: ['3'] }, true],
    [{ featured: ['true'], priority: ['4'] }, false],
    [{ missing: ['x'] }, false],
    [{ toString: ['x'] }, false],
  ])('%j', (filter, expected) => {
    expect(matchesMetadata({ tier: 'pro', featured: true, priority: 3 }, filter)).toBe(expected);
  });
});

describe('visibleOrganizations', () => {
  it.each<[string[] | undefined, string[]]>([
    [undefined, ['a', 'b']],
    [['b'], ['b']],
    [['c'], []],
  ])('filter %j', (filter, expected) => {
    expect(visibleOrganizations(['a', 'b'], filter)).toEqual(expected);
  });
});

describe('listParamsOf', () => {
  it('reads page, limit and sorting, defaulting to page 1 and limit 10', () => {
    expect(listParamsOf({ values: {}, deepObjects: {} })).toEqual({ page: 1, limit: 10, sorting: [] });
    expect(listParamsOf({ values: { page: 2, limit: 5, sorting: ['-name'] }, deepObjects: {} })).toEqual({ page: 2, limit: 5, sorting: [{ key: 'name', descending: true }] });
  });
});
