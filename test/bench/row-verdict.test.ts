// A row is judged on the reference's figure unless the ceiling misses the bar too: then it is
// bounded outside the process (the machine's), not the reference's failure.
// @see bench/row-verdict.ts; docs/performance.md (Rows bounded by the machine)
import { describe, expect, it } from 'vitest';
import { rowVerdict, type RowVerdict } from '../../bench/row-verdict.js';

describe('rowVerdict', () => {
  const table: [string, { referenceMeets: boolean; ceilingMeets: boolean }, RowVerdict][] = [
    ['the reference meets the bar', { referenceMeets: true, ceilingMeets: true }, 'pass'],
    ['the reference meets the bar its ceiling misses (noise, or the ceiling measured at a worse moment)', { referenceMeets: true, ceilingMeets: false }, 'pass'],
    ['the reference misses a bar its ceiling meets', { referenceMeets: false, ceilingMeets: true }, 'fail'],
    ['both miss the bar', { referenceMeets: false, ceilingMeets: false }, 'bounded'],
  ];
  it.each(table)('%s', (_name, given, want) => {
    expect(rowVerdict(given.referenceMeets, given.ceilingMeets)).toBe(want);
  });
});
