import { describe, expect, it } from 'vitest';
import { addIntervals, subtractIntervals } from '../../../server/clock/calendar.js';

const at = (iso: string) => Date.parse(iso);

describe('addIntervals', () => {
  it.each<[string, string, 'day' | 'week' | 'month' | 'year', number, string]>([
    ['days', '2027-01-31T09:00:00Z', 'day', 3, '2027-02-03T09:00:00.000Z'],
    ['weeks', '2027-01-31T09:00:00Z', 'week', 2, '2027-02-14T09:00:00.000Z'],
    ['a month from 31 January: the last day of February', '2027-01-31T09:00:00Z', 'month', 1, '2027-02-28T09:00:00.000Z'],
    ['a month from 31 January in a leap year', '2028-01-31T09:00:00Z', 'month', 1, '2028-02-29T09:00:00.000Z'],
    ['two months from 31 January: 31 March (from the anchor, not the clamped end)', '2027-01-31T09:00:00Z', 'month', 2, '2027-03-31T09:00:00.000Z'],
    ['a month from 31 March: 30 April', '2027-03-31T23:59:59Z', 'month', 1, '2027-04-30T23:59:59.000Z'],
    ['across a year end', '2027-11-30T00:00:00Z', 'month', 3, '2028-02-29T00:00:00.000Z'],
    ['a year from 29 February: 28 February', '2028-02-29T12:00:00Z', 'year', 1, '2029-02-28T12:00:00.000Z'],
    ['zero intervals', '2027-01-31T09:00:00Z', 'month', 0, '2027-01-31T09:00:00.000Z'],
  ])('%s', (_name, anchor, interval, count, want) => {
    expect(new Date(addIntervals(at(anchor), interval, count)).toISOString()).toBe(want);
  });

  it('refuses a negative or fractional count', () => {
    expect(() => addIntervals(0, 'month', -1)).toThrow(RangeError);
    expect(() => addIntervals(0, 'day', 1.5)).toThrow(RangeError);
  });
});

describe('subtractIntervals', () => {
  it.each<[string, string, 'day' | 'week' | 'month' | 'year', number, string]>([
    ['days', '2027-02-03T09:00:00Z', 'day', 3, '2027-01-31T09:00:00.000Z'],
    ['weeks', '2027-02-14T09:00:00Z', 'week', 2, '2027-01-31T09:00:00.000Z'],
    ['a month before 31 March: the last day of February', '2027-03-31T09:00:00Z', 'month', 1, '2027-02-28T09:00:00.000Z'],
    ['across a year start', '2027-02-15T00:00:00Z', 'month', 3, '2026-11-15T00:00:00.000Z'],
    ['a year before 29 February: 28 February', '2028-02-29T12:00:00Z', 'year', 1, '2027-02-28T12:00:00.000Z'],
    ['zero intervals', '2027-01-31T09:00:00Z', 'month', 0, '2027-01-31T09:00:00.000Z'],
  ])('%s', (_name, anchor, interval, count, want) => {
    expect(new Date(subtractIntervals(at(anchor), interval, count)).toISOString()).toBe(want);
  });

  it('refuses a negative count', () => {
    expect(() => subtractIntervals(0, 'month', -1)).toThrow(RangeError);
  });
});
