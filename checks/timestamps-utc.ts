import type { Check, Finding } from '../core/types.js';
import { documentsObject, isTimestampField, listed, successJson, timestampFieldsIn } from './response-objects.js';
import { brief } from './support.js';

// ISO 8601 / RFC 3339 date-time: `T` (either case, or the space RFC 3339 allows), seconds and
// fraction of any precision optional, and a zone designator if any.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?<zone>[Zz]|[+-]\d{2}(?::?\d{2})?)?$/;
// Offsets that are UTC: Z, and a zero offset in any of its forms (-00:00 is RFC 3339's UTC with an unknown local offset).
const UTC_ZONE = /^(?:[Zz]|[+-]00(?::?00)?)$/;

/**
 * What is wrong with a timestamp's text, or undefined when it is an ISO 8601 date-time in UTC.
 * @returns `not_date_time` for text that is no date-time (or no valid date or time of day),
 *   `not_utc` for a date-time with a non-zero offset or none
 */
export function timestampProblem(text: string): 'not_date_time' | 'not_utc' | undefined {
  if (judgedTexts.has(text)) return judgedTexts.get(text);
  const problem = judgeTimestamp(text);
  // Bounded: a long session sees ever new timestamps; the cache only saves re-judging the same answers.
  if (judgedTexts.size >= MAX_JUDGED_TEXTS) judgedTexts.clear();
  judgedTexts.set(text, problem);
  return problem;
}

/** Most timestamp texts {@link timestampProblem} remembers. */
const MAX_JUDGED_TEXTS = 50_000;
const judgedTexts = new Map<string, 'not_date_time' | 'not_utc' | undefined>();

function judgeTimestamp(text: string): 'not_date_time' | 'not_utc' | undefined {
  const match = DATE_TIME.exec(text);
  if (!match) return 'not_date_time';
  const [, year, month, day, hour, minute, second = '00'] = match;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, takes years 0-99 as they are.
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  const validDate = date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
  // 24:00:00 is ISO 8601's end of day; 60 a leap second.
  const validTime = (Number(hour) < 24 || (hour === '24' && minute === '00' && Number(second) === 0)) && Number(minute) < 60 && Number(second) <= 60;
  if (!validDate || !validTime) return 'not_date_time';
  const zone = match.groups?.zone;
  return zone !== undefined && UTC_ZONE.test(zone) ? undefined : 'not_utc';
}

/**
 * Every timestamp of a successful JSON answer (created_at, modified_at and every other field
 * named `*_at`, at any depth, outside metadata maps) that is a string is an ISO 8601 date-time
 * in UTC: `Z` or a zero offset, any fractional precision. null (nullable timestamps) and other
 * types (the schema's concern) are not judged, nor are absent fields.
 * @see spec/rules.yaml conventions.timestamps_utc
 */
export const timestampsUtc: Check = {
  id: 'timestamps_utc',
  title: 'Timestamp not in UTC',
  severity: 'medium',
  rule: 'conventions.timestamps_utc',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'core',
  level: 'must',
  needs: 'exchange',
  appliesTo: ({ operation }) =>
    documentsObject(operation, (object) => object.names().some(isTimestampField)) || 'no timestamp (*_at) field documented in its responses',
  run(_ctx, exchange) {
    const body = successJson(exchange);
    if (body === undefined) return [];
    const wrong: Record<'not_date_time' | 'not_utc', string[]> = { not_date_time: [], not_utc: [] };
    for (const { place, key, value } of timestampFieldsIn(body)) {
      const problem = timestampProblem(value);
      if (problem) wrong[problem].push(`${place.path ? `${place.path}.` : ''}${key} = ${brief(value)}`);
    }
    const findings: Finding[] = [];
    if (wrong.not_utc.length) {
      findings.push({
        kind: 'timestamp_not_utc',
        title: 'Timestamp not in UTC',
        message: `Timestamps must be in UTC (Z or +00:00); these carry another offset or none: ${listed(wrong.not_utc)}.`,
        expected: 'an ISO 8601 date-time ending in Z or +00:00',
        actual: wrong.not_utc.slice(0, 10),
      });
    }
    if (wrong.not_date_time.length) {
      findings.push({
        kind: 'timestamp_not_date_time',
        title: 'Timestamp is not a date-time',
        message: `Timestamps must be ISO 8601 date-times; these are not: ${listed(wrong.not_date_time)}.`,
        expected: 'an ISO 8601 date-time in UTC',
        actual: wrong.not_date_time.slice(0, 10),
      });
    }
    return findings;
  },
};
