import type { Check, CheckContext, Finding } from '../core/types.js';
import { brief, listBody, mayPrecede, queryValues, sameSortValue, valuesAtPath } from './support.js';

interface Criterion {
  key: string;
  field?: string;
  descending: boolean;
}

function criteria(ctx: CheckContext, values: string[]): Criterion[] {
  const sortKeys = ctx.operation.parameters.find((p) => p.name === 'sorting')?.sortKeys ?? {};
  return values.map((value) => {
    const descending = value.startsWith('-');
    const key = descending ? value.slice(1) : value;
    const known = sortKeys[key];
    return { key, descending, ...(known && 'field' in known ? { field: known.field } : {}) };
  });
}

/**
 * A list asked for with `sorting` is ordered by its criteria in turn, a leading minus meaning
 * descending. Only criteria whose field the spec names (`x-sort-keys`) are asserted, and only up
 * to the first one that is not; nulls and ties leave the pair to the next criterion or unasserted.
 * @see spec/rules.yaml lists.sorting
 */
export const sortingRespected: Check = {
  id: 'sorting_respected',
  title: 'List not sorted as asked',
  severity: 'medium',
  rule: 'lists.sorting',
  layer: 'generic',
  evidence: 'exchange',
  conformanceClass: 'pagination',
  level: 'must',
  needs: 'exchange',
  appliesTo: ({ operation }) =>
    operation.parameters.some((p) => p.name === 'sorting' && p.sortKeys) || 'no sorting parameter with x-sort-keys',
  run(ctx, exchange) {
    const body = listBody(exchange);
    const asked = queryValues(exchange.case.query, 'sorting');
    if (!body || exchange.response!.status !== 200 || asked.length === 0) return [];
    const order = criteria(ctx, asked);
    for (let i = 1; i < body.items.length; i++) {
      const a = body.items[i - 1]!;
      const b = body.items[i]!;
      for (const c of order) {
        if (!c.field) break;
        const va = valuesAtPath(a, c.field)[0];
        const vb = valuesAtPath(b, c.field)[0];
        if (va === null || vb === null || va === undefined || vb === undefined) break;
        if (sameSortValue(va, vb)) continue;
        const ok = c.descending ? mayPrecede(vb, va) : mayPrecede(va, vb);
        if (ok === false) {
          const finding: Finding = {
            kind: 'sort_order_violated',
            title: 'List not sorted as asked',
            message: `With sorting=${asked.join(',')}, item ${i - 1} (${c.field} ${brief(va)}) comes before item ${i} (${c.field} ${brief(vb)}), which is ${c.descending ? 'descending' : 'ascending'} order broken.`,
            expected: `${c.field} ${c.descending ? 'descending' : 'ascending'}`,
            actual: { index: i - 1, ids: [a.id, b.id], values: [va, vb] },
          };
          return [finding];
        }
        break;
      }
    }
    return [];
  },
};
