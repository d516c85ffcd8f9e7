import type { Check } from '../core/types.js';
import { documentsObject, listed, objectsIn, own, successJson } from './response-objects.js';
import { brief } from './support.js';

/**
 * meter_interval_count is null when no meter cycle is set: an object (a product, at any depth)
 * with meter_interval null has meter_interval_count null. Judged only where both are present.
 * @see spec/rules.yaml products.meter_interval_count_null_without_cycle (meter_interval_count: null when no meter cycle is set)
 */
export const productMeterIntervalCountNull: Check = {
  id: 'product_meter_interval_count_null',
  title: 'Meter interval count without a meter cycle',
  severity: 'low',
  rule: 'products.meter_interval_count_null_without_cycle',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'core',
  level: 'must',
  needs: 'exchange',
  appliesTo: ({ operation }) =>
    documentsObject(operation, (object) => object.has('meter_interval') && object.has('meter_interval_count')) || 'no meter_interval and meter_interval_count in its responses',
  run(_ctx, exchange) {
    const body = successJson(exchange);
    if (body === undefined) return [];
    const wrong: string[] = [];
    for (const place of objectsIn(body)) {
      const { object } = place;
      const count = own(object, 'meter_interval_count');
      if (own(object, 'meter_interval') === null && count !== undefined && count !== null) {
        wrong.push(`${place.path || 'body'} (id ${brief(own(object, 'id'))}): meter_interval_count ${brief(count)}`);
      }
    }
    if (!wrong.length) return [];
    return [{
      kind: 'meter_interval_count_without_cycle',
      title: 'Meter interval count without a meter cycle',
      message: `meter_interval_count is null when meter_interval is null, but: ${listed(wrong)}.`,
      expected: 'meter_interval_count null when meter_interval is null',
      actual: wrong.slice(0, 10),
    }];
  },
};
