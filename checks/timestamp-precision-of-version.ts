import type { Check } from '../core/types.js';
import { timestampFieldsIn, type TimestampField } from './response-objects.js';

/** A timestamp of a response body and where it is (`items[0].created_at`). */
export interface BodyTimestamp {
  path: string;
  value: string;
  /** Its fractional seconds as written (`''` when it has none). */
  fraction: string;
}

/** An RFC 3339 date-time; group 1 the fractional digits. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.(\d+))?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Fewest distinct timestamps a 2026-10 response must show before "none carries microseconds"
 * is judged: a correct server may write a whole second without a fraction, or trim trailing
 * zeros (`.14798` for 147980 µs; Pydantic 2 does), so one timestamp with three digits or fewer
 * proves nothing, while three distinct ones all written so happen by chance about once in 10^9.
 */
export const MIN_DISTINCT_TIMESTAMPS = 3;

/**
 * Every timestamp of a body: string values of keys named `*_at` (spec/rules.yaml conventions.timestamps_utc) that are
 * RFC 3339 date-times, outside the client's own data (metadata, custom field data and the other
 * free-form maps of checks/response-objects.ts `isFreeFormKey`), object by object. Null and
 * malformed ones are not returned (the schema judges those).
 * @see spec/rules.yaml conventions.timestamps_utc ("Timestamps (created_at, modified_at and others named *_at)")
 */
export function bodyTimestamps(body: unknown): readonly BodyTimestamp[] {
  const found: BodyTimestamp[] = [];
  for (const field of timestampFieldsIn(body)) {
    const fraction = fractionOf(field.value);
    if (fraction !== null) found.push(new FoundTimestamp(field, fraction));
  }
  return found;
}

/** A timestamp of {@link bodyTimestamps}; its path is written only when a message asks for it. */
class FoundTimestamp implements BodyTimestamp {
  readonly value: string;
  readonly fraction: string;
  readonly #field: TimestampField;

  constructor(field: TimestampField, fraction: string) {
    this.value = field.value;
    this.fraction = fraction;
    this.#field = field;
  }

  get path(): string {
    const at = this.#field.place.path;
    return at ? `${at}.${this.#field.key}` : this.#field.key;
  }
}

/** The fraction of each date-time text already read (null: not an RFC 3339 date-time); bounded like the UTC check's. */
const fractions = new Map<string, string | null>();
const MAX_FRACTIONS = 50_000;

/** The fractional digits of a date-time text (`''` without), or null when it is no RFC 3339 date-time. */
function fractionOf(text: string): string | null {
  let fraction = fractions.get(text);
  if (fraction === undefined) {
    const match = DATE_TIME.exec(text);
    fraction = match ? (match[1] ?? '') : null;
    if (fractions.size >= MAX_FRACTIONS) fractions.clear();
    fractions.set(text, fraction);
  }
  return fraction;
}

/** Whether a timestamp is written finer than the millisecond (more than three fractional digits). */
function writtenInMicroseconds(t: BodyTimestamp): boolean {
  return t.fraction.length > 3;
}

/** Whether a timestamp's value is finer than the millisecond (a non-zero fractional digit after the third). */
function finerThanMilliseconds(t: BodyTimestamp): boolean {
  return /[1-9]/.test(t.fraction.slice(3));
}

const list = (timestamps: readonly BodyTimestamp[]): string => timestamps.slice(0, 3).map((t) => `${t.path} ${t.value}`).join(', ');

/**
 * Timestamps have the precision of the version the run checks against: in 2026-10 they carry
 * microseconds (judged over a response: among at least {@link MIN_DISTINCT_TIMESTAMPS} distinct
 * ones, some are written with more than three fractional digits); in 2026-04 they carry none (no
 * timestamp has a non-zero digit after the millisecond). The description states microseconds for
 * 2026-10 and a different precision for 2026-04, not which one, so a 2026-04 target may write
 * whole seconds or milliseconds. Null timestamps and those inside metadata are not judged.
 * @see spec/rules.yaml versioning.timestamp_precision ("timestamp precision (microseconds in 2026-10 samples)")
 */
export const timestampPrecisionOfVersion: Check = {
  id: 'timestamp_precision_of_version',
  title: 'Timestamp precision of another API version',
  severity: 'medium',
  rule: 'versioning.timestamp_precision',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'versions',
  level: 'must',
  needs: 'exchange',
  appliesTo: ({ spec }) =>
    spec.version === '2026-10' || spec.version === '2026-04' || `the document's version ${JSON.stringify(spec.version)} is none whose timestamp precision the API description states`,
  run(ctx, exchange) {
    const response = exchange.response;
    if (!response || response.json === undefined) return [];
    // In 2026-10 one timestamp written in microseconds is enough: most answers show it at their first.
    if (ctx.spec.version !== '2026-04' && timestampFieldsIn(response.json).some((field) => (fractionOf(field.value)?.length ?? 0) > 3)) return [];
    const timestamps = bodyTimestamps(response.json);
    if (ctx.spec.version === '2026-04') {
      const finer = timestamps.filter(finerThanMilliseconds);
      if (finer.length === 0) return [];
      return [{
        kind: 'timestamp_with_microseconds',
        title: 'Timestamp with microseconds in version 2026-04',
        message: `${finer.length} of the ${timestamps.length} timestamps of this 2026-04 response carry microseconds (${list(finer)}); microseconds are the precision of 2026-10.`,
        expected: 'timestamps without microseconds',
        actual: finer.slice(0, 5).map((t) => ({ path: t.path, value: t.value })),
      }];
    }
    const distinct = new Set(timestamps.map((t) => t.value));
    if (distinct.size < MIN_DISTINCT_TIMESTAMPS || timestamps.some(writtenInMicroseconds)) return [];
    return [{
      kind: 'timestamps_without_microseconds',
      title: 'Timestamps without microseconds in version 2026-10',
      message: `None of the ${timestamps.length} timestamps (${distinct.size} distinct) of this 2026-10 response is written finer than the millisecond (${list(timestamps)}); timestamps of 2026-10 carry microseconds.`,
      expected: 'timestamps with microseconds (six fractional digits)',
      actual: timestamps.slice(0, 5).map((t) => ({ path: t.path, value: t.value })),
    }];
  },
};
