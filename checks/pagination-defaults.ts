import type { Check, Exchange } from '../core/types.js';
import { DEFAULT_LIMIT, listBody } from './support.js';

/** Whether a list request asks for neither `page` nor `limit`. */
function bare(exchange: Exchange): boolean {
  return exchange.case.query.page === undefined && exchange.case.query.limit === undefined;
}

/** Whether a list request asks for `page=1&limit=10` explicitly. */
function explicitFirstPage(exchange: Exchange): boolean {
  const { page, limit } = exchange.case.query;
  return page !== undefined && limit !== undefined && Number(page) === 1 && Number(limit) === DEFAULT_LIMIT;
}

/**
 * Without `page` and `limit`, a list is its first page of 10: the same items, in the same order,
 * as with `page=1&limit=10` and the same filters and sort order. Judged on any pair of the same
 * list asked both ways by one client (`list_two_shapes`, in either order); the suite sends the
 * explicit request (`exchange`) after the bare one (`history[0]`).
 * @see spec/rules.yaml pagination.page_default (page starts at 1, default 1; page size default 10)
 */
export const paginationDefaults: Check = {
  id: 'pagination_defaults',
  title: 'Pagination defaults not applied',
  severity: 'medium',
  rule: 'pagination.page_default',
  layer: 'api',
  evidence: 'pair',
  pair: 'list_two_shapes',
  conformanceClass: 'pagination',
  level: 'must',
  needs: 'defaults',
  appliesTo: ({ operation }) =>
    (operation.paginated && ['page', 'limit'].every((n) => operation.parameters.some((p) => p.name === n))) || 'not a paginated list with page and limit',
  run(_ctx, exchange, history) {
    const other = history[0];
    if (!other) return [];
    const [bareOne, explicit] = bare(other) && explicitFirstPage(exchange) ? [other, exchange] : bare(exchange) && explicitFirstPage(other) ? [exchange, other] : [];
    if (!bareOne || !explicit || JSON.stringify(bareOne.case.query.sorting ?? null) !== JSON.stringify(explicit.case.query.sorting ?? null)) return [];
    const implicitBody = listBody(bareOne);
    const explicitBody = listBody(explicit);
    if (!implicitBody || !explicitBody || bareOne.response?.status !== 200 || explicit.response?.status !== 200) return [];
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
