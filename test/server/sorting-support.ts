/** An independent statement of the reference server's list orders, for the sorting tests. */
import { expect } from 'vitest';

/** A criterion of the expected order. */
export interface Expected {
  value: (item: any) => string | number | null;
  descending: boolean;
}

/** Compares two items the way the reference documents: criteria in order, nulls last both ways, then id ascending. */
export function expectedCompare(criteria: Expected[]): (a: any, b: any) => number {
  return (a, b) => {
    for (const { value, descending } of criteria) {
      const x = value(a);
      const y = value(b);
      if (x === y) continue;
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * (descending ? -1 : 1);
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

/** Asserts that `items` are in strictly increasing expected order (ties are broken by id). */
export function expectSorted(items: any[], criteria: Expected[]): void {
  const compare = expectedCompare(criteria);
  const misplaced = items.findIndex((item, i) => i > 0 && compare(items[i - 1], item) >= 0);
  expect(misplaced, `first item out of order at index ${misplaced}`).toBe(-1);
}
