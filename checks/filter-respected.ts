import type { Check, Finding } from '../core/types.js';
import { brief, instantMicros, listBody, queryValues, valuesAtPath } from './support.js';

function normalize(value: unknown): string {
  return typeof value === 'string' ? value.toLowerCase() : String(value);
}

const METADATA_KEY = /^metadata\[([^\[\]]+)\]$/;

/**
 * Every item of a filtered list matches its filters: a filter parameter with `x-filter` (`in`:
 * the field holds one of the values; `gte`/`lte`: the field is a date-time within the bound) and
 * `metadata[key]=value` (the item's metadata value, as text, is one of the values). Filters whose
 * semantics the API description does not state (`match: unspecified`) are not asserted.
 * @see spec/rules.yaml lists.filters, lists.filters.metadata; docs/design.md (What the API requires that the harness relies on)
 */
export const filterRespected: Check = {
  id: 'filter_respected',
  title: 'Filter not applied',
  severity: 'high',
  rule: 'lists.filters',
  layer: 'generic',
  evidence: 'exchange',
  conformanceClass: 'pagination',
  level: 'must',
  needs: 'exchange',
  appliesTo: ({ operation }) =>
    operation.parameters.some((p) => (p.filter && p.filter.match !== 'unspecified') || p.style === 'deepObject') ||
    'no filter parameter with stated semantics',
  run(ctx, exchange) {
    const body = listBody(exchange);
    if (!body || exchange.response!.status !== 200) return [];
    const query = exchange.case.query;
    const findings: Finding[] = [];
    for (const param of ctx.operation.parameters) {
      const filter = param.filter;
      const values = queryValues(query, param.name);
      if (!filter || filter.match === 'unspecified' || values.length === 0) continue;
      const wanted = new Set(values.map(normalize));
      for (const item of body.items) {
        const actual = valuesAtPath(item, filter.field);
        // An item without the field cannot be judged here; the schema check covers absent fields.
        if (actual.length === 0) continue;
        let ok: boolean;
        if (filter.match === 'in') {
          ok = actual.some((v) => wanted.has(normalize(v)));
        } else {
          const bound = instantMicros(values[0]);
          const at = instantMicros(actual[0]);
          ok = bound === undefined || (at !== undefined && (filter.match === 'gte' ? at >= bound : at <= bound));
        }
        if (!ok) {
          findings.push({
            kind: 'filter_not_applied',
            title: 'Filter not applied',
            message: `With ${param.name}=${values.join(',')}, item ${brief(item.id)} has ${filter.field} ${brief(actual.length === 1 ? actual[0] : actual)}.`,
            expected: { parameter: param.name, match: filter.match, values },
            actual: { id: item.id, [filter.field]: actual },
          });
          break;
        }
      }
    }
    const metadataFilters = new Map<string, string[]>();
    for (const name of Object.keys(query)) {
      const key = METADATA_KEY.exec(name)?.[1];
      if (key !== undefined) metadataFilters.set(key, queryValues(query, name));
    }
    for (const [key, values] of metadataFilters) {
      const item = body.items.find((i) => {
        const metadata = i.metadata as Record<string, unknown> | undefined;
        return !metadata || !Object.hasOwn(metadata, key) || !values.includes(String(metadata[key]));
      });
      if (item) {
        findings.push({
          kind: 'metadata_filter_not_applied',
          title: 'Metadata filter not applied',
          message: `With metadata[${key}]=${values.join(',')}, item ${brief(item.id)} has metadata ${brief(item.metadata)}.`,
          expected: { [key]: values },
          actual: { id: item.id, metadata: item.metadata },
        });
      }
    }
    return findings;
  },
};
