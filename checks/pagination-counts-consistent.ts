import type { Check, Finding } from '../core/types.js';
import { MAX_LIMIT, listBody, requestedPage } from './support.js';

/**
 * `pagination.max_page` is `ceil(total_count / limit)` (0 or 1 when nothing matches) and a page
 * holds `min(limit, total_count - (page - 1) * limit)` items (none past the last page). A
 * `limit` above 100 may have been clamped to 100, so either reading is accepted for it.
 * @see spec/rules.yaml pagination.counts, limits.page_size; docs/design.md (What the API requires that the harness relies on)
 */
export const paginationCountsConsistent: Check = {
  id: 'pagination_counts_consistent',
  title: 'Pagination counts inconsistent',
  severity: 'high',
  rule: 'pagination.counts',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'pagination',
  level: 'must',
  needs: 'exchange',
  appliesTo: ({ operation }) => operation.paginated || 'not a paginated list',
  run(_ctx, exchange) {
    const body = listBody(exchange);
    if (!body || exchange.response!.status >= 300) return [];
    const { page, limit } = requestedPage(exchange.case.query);
    if (page < 1 || limit < 1) return [];
    const { total_count: total, max_page: maxPage } = body.pagination;
    const limits = limit > MAX_LIMIT ? [MAX_LIMIT, limit] : [limit];
    const findings: Finding[] = [];
    const expectedMaxPages = limits.flatMap((l) => (total === 0 ? [0, 1] : [Math.ceil(total / l)]));
    if (!expectedMaxPages.includes(maxPage)) {
      findings.push({
        kind: 'max_page_mismatch',
        title: 'max_page does not match total_count',
        message: `total_count is ${total} with limit ${limit}, so max_page should be ${expectedMaxPages.join(' or ')}, but it is ${maxPage}.`,
        expected: expectedMaxPages,
        actual: maxPage,
      });
    }
    const expectedItems = limits.map((l) => Math.max(0, Math.min(l, total - (page - 1) * l)));
    if (!expectedItems.includes(body.items.length)) {
      findings.push({
        kind: 'page_size_mismatch',
        title: 'Page holds the wrong number of items',
        message: `With total_count ${total}, limit ${limit} and page ${page}, the page should hold ${expectedItems.join(' or ')} items, but holds ${body.items.length}.`,
        expected: expectedItems,
        actual: body.items.length,
      });
    }
    return findings;
  },
};
