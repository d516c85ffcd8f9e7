import type { Check } from '../core/types.js';
import { documentsObject, listed, objectsIn, own, successJson } from './response-objects.js';
import { instantMicros } from './support.js';

/**
 * The pairs of instants of one record that cannot be in the other order: a record is modified
 * after it is created, and every period, trial or span that starts ends after its start.
 */
const ORDERED: readonly (readonly [string, string])[] = [
  ['created_at', 'modified_at'],
  ['current_period_start', 'current_period_end'],
  ['current_meter_period_start', 'current_meter_period_end'],
  ['trial_start', 'trial_end'],
  ['started_at', 'ended_at'],
];

/** Whether a text has the separators of an ISO 8601 UTC date-time (`2026-01-02T03:04:05…Z`), checked without a regular expression. */
function utcLike(text: string): boolean {
  return text[4] === '-' && text[7] === '-' && text[10] === 'T' && text[13] === ':' && text[16] === ':' && text.endsWith('Z');
}

/**
 * Whether the instant `later` is before `earlier`. Two UTC date-times written alike (`Z`, the same
 * length: the same precision) compare as text, as ISO 8601 orders them; others are parsed, and a
 * value that is no date-time is never out of order.
 */
function before(later: string, earlier: string): boolean {
  if (later.length === earlier.length && utcLike(later) && utcLike(earlier)) return later < earlier;
  const end = instantMicros(later);
  const start = instantMicros(earlier);
  return end !== undefined && start !== undefined && end < start;
}

/**
 * The instants of a record are in their order: `modified_at` not before `created_at`, and the end
 * of a period, a trial or a subscription's life not before its start. Nulls and fields that are
 * not ISO 8601 date-times (timestamps_utc's finding) are not judged; equal instants are in order.
 * @see spec/rules.yaml conventions.timestamps_ordered (created_at, modified_at; current_period_start,
 *   current_period_end; trial_start, trial_end; started_at, ended_at)
 */
export const timestampsOrdered: Check = {
  id: 'timestamps_ordered',
  title: "A record's instants are out of order",
  severity: 'medium',
  rule: 'conventions.timestamps_ordered',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'core',
  level: 'should',
  needs: 'exchange',
  appliesTo: ({ operation }) => documentsObject(operation, (object) => ORDERED.some(([a, b]) => object.has(a) && object.has(b))) || 'no record with created_at and modified_at or a start and an end in its responses',
  run(_ctx, exchange) {
    const body = successJson(exchange);
    if (body === undefined || typeof body !== 'object' || body === null) return [];
    const reversed: string[] = [];
    for (const { object, path } of objectsIn(body)) {
      for (const [first, second] of ORDERED) {
        const a = own(object, first);
        const b = own(object, second);
        if (typeof a !== 'string' || typeof b !== 'string' || !before(b, a)) continue;
        reversed.push(`${path || 'body'}: ${second} ${b} before ${first} ${a}`);
      }
    }
    if (!reversed.length) return [];
    return [{
      kind: 'timestamps_out_of_order',
      title: "A record's instants are out of order",
      message: `A record is modified after it is created, and a period, a trial or a subscription ends after it starts, but: ${listed(reversed)}.`,
      expected: ORDERED.map(([a, b]) => `${a} <= ${b}`),
      actual: reversed.slice(0, 10),
    }];
  },
};
