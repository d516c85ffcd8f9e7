/**
 * Timestamps of the reference server: stored as ISO 8601 UTC strings with microseconds
 * (`2026-03-01T10:00:00.123456Z`), compared as epoch microseconds.
 * @see spec/rules.yaml conventions.timestamps_utc, versioning.timestamp_precision (microseconds in 2026-10)
 */

/** Microseconds in one day. */
export const MICROS_PER_DAY = 86_400_000_000;

const ISO_PATTERN = /^(\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:?\d{2})$/;

/**
 * Formats epoch microseconds as an ISO 8601 UTC string with exactly six fractional digits.
 * @param micros integer microseconds since 1970-01-01T00:00:00Z
 * @returns e.g. `2026-03-01T10:00:00.123456Z`
 */
export function formatTimestamp(micros: number): string {
  const millis = Math.floor(micros / 1000);
  const fraction = String(micros - millis * 1000).padStart(3, '0');
  return `${new Date(millis).toISOString().slice(0, -1)}${fraction}Z`;
}

/**
 * Parses an RFC 3339 date-time (any offset, any number of fractional digits, leap second 60)
 * into epoch microseconds; fractional digits beyond the sixth are dropped.
 * @returns integer microseconds, or `undefined` when the text is not a date-time
 */
export function parseTimestamp(text: string): number | undefined {
  const match = ISO_PATTERN.exec(text);
  if (!match) return undefined;
  const [, minutes = '', seconds = '', fraction = '', offset = 'Z'] = match;
  const leap = seconds === '60' ? 1 : 0;
  const millis = Date.parse(`${minutes.replace(/[t ]/, 'T')}:${leap ? '59' : seconds}${offset.length === 5 ? `${offset.slice(0, 3)}:${offset.slice(3)}` : offset.toUpperCase()}`);
  if (Number.isNaN(millis)) return undefined;
  return (millis + leap * 1000) * 1000 + Number(fraction.slice(0, 6).padEnd(6, '0'));
}

/**
 * Drops the fractional seconds of a stored timestamp, the precision of API version 2026-04.
 * @param stored a timestamp as produced by {@link formatTimestamp}
 * @returns e.g. `2026-03-01T10:00:00Z`
 * @see spec/rules.yaml versioning.timestamp_precision
 */
export function withoutFraction(stored: string): string {
  return stored.replace(/\.\d+Z$/, 'Z');
}
