import type { Check } from '../core/types.js';
import { DEFAULT_LIMIT, listBody } from './support.js';

/**
 * Without `page` and `limit`, a list is its first page of 10: the same items, in the same order,
 * as with `page=1&limit=10` and the same filters. The suite sends the explicit request (`exchange`)
 * after the bare one (`history[0]`).
 * @see spec/rules.yaml pagination.page_default (page starts at 1, default 1; page size default 10)
 */
export const paginationDefaults: Check = {
  id: 'pagination_defaults',
  title: 'Pagination defaults not applied',
  severity: 'medium',
  rule: 'pagination.page_default',
  layer: 'api',
  everyExchange: false,
  conformanceClass: 'pagination',
  level: 'must',
  needs: 'defaults',
  appliesTo: ({ operation }) =>
    (operation.paginated && ['page', 'limit'].every((n) => operation.parameters.some((p) => p.name === n))) || 'not a paginated list with page and limit',
  run(_ctx, explicit, history) {
    const bare = history[0];
    const implicitBody = bare ? listBody(bare) : undefined;
    const explicitBody = listBody(explicit);
    if (!bare || !implicitBody || !explicitBody || bare.response?.status !== 200 || explicit.response?.status !== 200) return [];
    const implicitIds = implicitBody.items.map((i) => i.id);
    const explicitIds = explicitBody.items.map((i) => i.id);
    if (implicitIds.length <= DEFAULT_LIMIT && JSON.stringify(implicitIds) === JSON.stringify(explicitIds)) return [];
    return [{
      kind: 'defaults_differ',
      title: 'Pagination defaults not applied',
      message: `Without page and limit the list held ${implicitIds.length} items; with page=1&limit=10 it held ${explicitIds.length}${implicitIds.length === explicitIds.length ? ' others, or in another order' : ''}.`,
      expected: explicitIds,
      actual: implicitIds,
    }];
  },
};
