import type { Check } from '../core/types.js';
import { MAX_LIMIT, listBody, requestedPage } from './support.js';

/**
 * A list never yields more items than asked for, and never more than 100: without `limit` at
 * most 10; a `limit` above 100 may be clamped or rejected with 422, but never honoured.
 * @see spec/rules.yaml limits.page_size (page size default 10, maximum 100)
 */
export const paginationLimitRespected: Check = {
  id: 'pagination_limit_respected',
  title: 'Page size limit not respected',
  severity: 'high',
  rule: 'limits.page_size',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'limits',
  level: 'must',
  needs: 'exchange',
  appliesTo: ({ operation }) => operation.paginated || 'not a paginated list',
  run(_ctx, exchange) {
    const body = listBody(exchange);
    if (!body || exchange.response!.status >= 300) return [];
    const { limit, limitGiven } = requestedPage(exchange.case.query);
    if (limit < 1) return [];
    const allowed = Math.min(limit, MAX_LIMIT);
    if (body.items.length <= allowed) return [];
    const why = !limitGiven ? 'the default page size is 10' : limit > MAX_LIMIT ? 'a page never holds more than 100 items' : `limit=${limit} was asked for`;
    return [{
      kind: limit > MAX_LIMIT ? 'limit_above_maximum_honoured' : 'limit_exceeded',
      title: 'Page size limit not respected',
      message: `The page holds ${body.items.length} items, but ${why}.`,
      expected: `at most ${allowed} items`,
      actual: body.items.length,
    }];
  },
};
