/**
 * The instants of a data file: an absolute RFC 3339 date-time with its offset
 * (`2027-01-31T09:00:00Z`), `now`, or a signed ISO 8601 duration from now (`-P30D` thirty days ago,
 * `+P1M` a calendar month ahead, `-PT2H30M`). Months and years are calendar ones, clamped to the
 * month's last day as billing periods are (server/clock/calendar.ts); a duration is applied largest
 * unit first. "Now" is the reference's clock when the file is loaded (a reset loads it again, so
 * relative instants move with the clock).
 * @see docs/data-file.md (Instants); spec/data.schema.json (definitions.instant); RFC 3339 section 5.6; ISO 8601-1:2019 section 5.5.2 (durations)
 */
import { addIntervals, subtractIntervals } from '../clock/calendar.js';
import { fail, ok, type Result } from '../result.js';
import { formatTimestamp, parseTimestamp } from '../timestamps.js';

/** A signed duration: `+` or `-`, then `P`, years, months, weeks, days, and after `T` hours, minutes and seconds (at least one part). */
const DURATION = /^([+-])P(?!$)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;
/** An RFC 3339 date-time with an offset (the `T` may be lower case; fractional seconds allowed). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** What an instant of a data file may look like, for messages. */
export const INSTANT_FORMS = 'an RFC 3339 date-time with its offset (2027-01-31T09:00:00Z), now, or a signed ISO 8601 duration from now (-P30D, +P1M, -PT2H)';

/**
 * The instant a data file's text names.
 * @param text as written in the file
 * @param nowMs the clock's now, epoch milliseconds
 * @returns epoch milliseconds, or why the text is not an instant (a sentence naming {@link INSTANT_FORMS})
 * @see docs/data-file.md (Instants); RFC 3339 section 5.6; ISO 8601-1:2019 section 5.5.2
 */
export function resolveInstant(text: string, nowMs: number): Result<number, string> {
  if (text === 'now') return ok(nowMs);
  const duration = DURATION.exec(text);
  if (duration) {
    const [, sign, years, months, weeks, days, hours, minutes, seconds] = duration;
    const n = (part: string | undefined) => Number(part ?? 0);
    const step = sign === '-' ? subtractIntervals : addIntervals;
    let at = step(nowMs, 'year', n(years));
    at = step(at, 'month', n(months));
    at = step(at, 'week', n(weeks));
    at = step(at, 'day', n(days));
    const clockMs = ((n(hours) * 60 + n(minutes)) * 60 + n(seconds)) * 1000;
    at += sign === '-' ? -clockMs : clockMs;
    return Number.isFinite(at) && Math.abs(at) <= 8.64e15 ? ok(at) : fail(`${text} is too far from now`);
  }
  const micros = DATE_TIME.test(text) && isCalendarDate(text) ? parseTimestamp(text) : undefined;
  if (micros === undefined) return fail(`${JSON.stringify(text)} is not ${INSTANT_FORMS}`);
  return ok(Math.floor(micros / 1000));
}

/** Whether a date-time's date and time of day exist (Date.parse rolls 30 February over into March). */
function isCalendarDate(text: string): boolean {
  const [year, month, day, hour, minute, second] = text.split(/[-Tt:.Zz+]/).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day && hour < 24 && minute < 60 && second <= 60;
}

/**
 * {@link resolveInstant} as a stored timestamp string (`2027-01-31T09:00:00.000000Z`), the form
 * the store's functions take.
 * @see server/timestamps.ts formatTimestamp
 */
export function instantTimestamp(text: string, nowMs: number): Result<string, string> {
  const resolved = resolveInstant(text, nowMs);
  return resolved.ok ? ok(formatTimestamp(resolved.value * 1000)) : resolved;
}
