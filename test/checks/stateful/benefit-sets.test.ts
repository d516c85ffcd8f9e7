// The benefit-set comparisons of the product benefits scenario: the same set in any order and case,
// exactly the set without duplicates, and the ids a product shows.
import { describe, expect, test } from 'vitest';
import { benefitIdsOf, isExactly, sameSet } from '../../../checks/stateful/benefit-sets.js';

describe('benefit sets', () => {
  test.each<[string, string[], string[], boolean, boolean]>([
    ['same ids, other order and case', ['A', 'b'], ['b', 'a'], true, true],
    ['a duplicate in the product', ['a', 'b', 'a'], ['a', 'b'], true, false],
    ['one missing', ['a'], ['a', 'b'], false, false],
    ['one more', ['a', 'b', 'c'], ['a', 'b'], false, false],
  ])('%s', (_name, ids, wanted, same, exactly) => {
    expect(sameSet(ids, wanted)).toBe(same);
    expect(isExactly(ids, wanted)).toBe(exactly);
  });

  test('benefitIdsOf reads the ids of a product, lower-cased, and [] without benefits', () => {
    expect(benefitIdsOf({ benefits: [{ id: 'AB' }, { id: 'cd' }, { nope: 1 }] })).toEqual(['ab', 'cd']);
    expect(benefitIdsOf({})).toEqual([]);
  });
});
