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
        const start = instantMicros(own(object, first));
        const end = instantMicros(own(object, second));
        if (start !== undefined && end !== undefined && end < start) reversed.push(`${path || 'body'}: ${second} ${String(own(object, second))} before ${first} ${String(own(object, first))}`);
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
