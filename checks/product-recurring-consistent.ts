import type { Check, Finding } from '../core/types.js';
import { documentsObject, listed, objectsIn, own, successJson, type LocatedObject } from './response-objects.js';
import { brief } from './support.js';

/** Where a product is, for a message: its path (or `body`) and its id. */
function placeOf(place: LocatedObject): string {
  return `${place.path || 'body'} (id ${brief(own(place.object, 'id'))})`;
}

/**
 * A product (an object with is_recurring, at any depth: list items and the products embedded in
 * subscriptions) is recurring exactly when it has a recurring interval: is_recurring is true iff
 * recurring_interval is not null; and a one-time product (recurring_interval null) has
 * recurring_interval_count null. Judged only where the fields are present.
 * @see spec/rules.yaml products.recurring_consistent (recurring_interval, recurring_interval_count, is_recurring)
 */
export const productRecurringConsistent: Check = {
  id: 'product_recurring_consistent',
  title: 'Product recurrence inconsistent',
  severity: 'medium',
  rule: 'products.recurring_consistent',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'core',
  level: 'must',
  needs: 'exchange',
  appliesTo: ({ operation }) =>
    documentsObject(operation, (object) => object.has('is_recurring') && object.has('recurring_interval')) || 'no product (is_recurring and recurring_interval) in its responses',
  run(_ctx, exchange) {
    const body = successJson(exchange);
    if (body === undefined) return [];
    const mismatched: string[] = [];
    const counted: string[] = [];
    for (const place of objectsIn(body)) {
      const { object } = place;
      const isRecurring = own(object, 'is_recurring');
      if (typeof isRecurring !== 'boolean' || !Object.hasOwn(object, 'recurring_interval')) continue;
      const interval = object.recurring_interval;
      if (isRecurring !== (interval !== null)) mismatched.push(`${placeOf(place)}: is_recurring ${isRecurring}, recurring_interval ${brief(interval)}`);
      const count = own(object, 'recurring_interval_count');
      if (interval === null && count !== undefined && count !== null) counted.push(`${placeOf(place)}: recurring_interval null, recurring_interval_count ${brief(count)}`);
    }
    const findings: Finding[] = [];
    if (mismatched.length) {
      findings.push({
        kind: 'is_recurring_mismatch',
        title: 'is_recurring disagrees with recurring_interval',
        message: `A product is recurring exactly when recurring_interval is not null: ${listed(mismatched)}.`,
        expected: 'is_recurring === (recurring_interval !== null)',
        actual: mismatched.slice(0, 10),
      });
    }
    if (counted.length) {
      findings.push({
        kind: 'interval_count_without_interval',
        title: 'One-time product has a recurring_interval_count',
        message: `recurring_interval_count is null for one-time products: ${listed(counted)}.`,
        expected: 'recurring_interval_count null when recurring_interval is null',
        actual: counted.slice(0, 10),
      });
    }
    return findings;
  },
};
