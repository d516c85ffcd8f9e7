/**
 * Calendar arithmetic of billing periods, in UTC: a period of `count` days, weeks, months or years
 * from an anchor instant. Months and years are calendar ones, clamped to the month's last day (an
 * anchor on 31 January gives 28 or 29 February, then 31 March: every period end is counted from the
 * anchor, never from the previous, clamped end).
 * @see docs/lifecycle.md (Periods); the platform's public OpenAPI document, version 2026-10, schema
 *   Subscription (`recurring_interval`, `recurring_interval_count`, `current_period_end`)
 */
import type { Interval } from '../records.js';

const MS_PER_DAY = 86_400_000;

/** Days in a month of a year (`month` 0 to 11), UTC. */
function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/**
 * The instant `count` intervals after `anchorMs`.
 * @param anchorMs epoch milliseconds
 * @param interval day, week, month or year
 * @param count a whole number of intervals, 0 or more
 * @returns epoch milliseconds; months and years keep the anchor's day of month and time of day, clamped to the month's last day
 * @throws RangeError for a count that is not a non-negative integer (a bug in the caller)
 */
export function addIntervals(anchorMs: number, interval: Interval, count: number): number {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, not ${count}`);
  return shift(anchorMs, interval, count);
}

/**
 * The instant `count` intervals before `anchorMs`: the start of a period that ends at `anchorMs`.
 * @param anchorMs epoch milliseconds
 * @param count a whole number of intervals, 0 or more
 * @returns epoch milliseconds; months and years keep the anchor's day of month, clamped to the month's last day (a month before 31 March is 28 or 29 February)
 * @throws RangeError for a count that is not a non-negative integer (a bug in the caller)
 */
export function subtractIntervals(anchorMs: number, interval: Interval, count: number): number {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, not ${count}`);
  return shift(anchorMs, interval, -count);
}

/** `count` intervals after `anchorMs` (before it when negative), months clamped to the month's last day. */
function shift(anchorMs: number, interval: Interval, count: number): number {
  if (interval === 'day') return anchorMs + count * MS_PER_DAY;
  if (interval === 'week') return anchorMs + count * 7 * MS_PER_DAY;
  const anchor = new Date(anchorMs);
  const months = interval === 'month' ? count : count * 12;
  const total = anchor.getUTCMonth() + months;
  const year = anchor.getUTCFullYear() + Math.floor(total / 12);
  const month = ((total % 12) + 12) % 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month));
  const timeOfDay = anchorMs - Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth(), anchor.getUTCDate());
  return Date.UTC(year, month, day) + timeOfDay;
}
