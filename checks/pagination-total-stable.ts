import type { Check } from '../core/types.js';
import { listBody, requestedPage } from './support.js';

/**
 * The same list (the same operation, path and filters) asked by one client under two shapes (another
 * page, page size or sort order), with no write between, counts the same items: `total_count` is the
 * number of matching items, whatever page of them is asked. When both answers are first pages that
 * hold every item, they hold the same ids. Judged on any such pair (`list_two_shapes`): a page walk,
 * a client that asks for 10 then 100 items, a table re-sorted.
 * @see spec/rules.yaml pagination.total_count_stable ("pagination (object with total_count integer and max_page integer)")
 */
export const paginationTotalStable: Check = {
  id: 'pagination_total_stable',
  title: 'The same list counts other items under another page size, page or order',
  severity: 'high',
  rule: 'pagination.total_count_stable',
  layer: 'api',
  evidence: 'pair',
  pair: 'list_two_shapes',
  conformanceClass: 'pagination',
  level: 'must',
  needs: 'two_shapes',
  appliesTo: ({ operation }) => operation.paginated || 'not a paginated list',
  run(_ctx, exchange, history) {
    const other = history[0];
    const later = listBody(exchange);
    const earlier = other ? listBody(other) : undefined;
    if (!other || !later || !earlier || exchange.response?.status !== 200 || other.response?.status !== 200) return [];
    const shape = (e: typeof exchange) => `page ${e.case.query.page ?? '(none)'}, limit ${e.case.query.limit ?? '(none)'}${e.case.query.sorting === undefined ? '' : `, sorting ${JSON.stringify(e.case.query.sorting)}`}`;
    if (earlier.pagination.total_count !== later.pagination.total_count) {
      return [{
        kind: 'total_count_differs_by_shape',
        title: 'The same list counts other items under another page size, page or order',
        message: `The same list with the same filters answered total_count ${earlier.pagination.total_count} under ${shape(other)}, then ${later.pagination.total_count} under ${shape(exchange)}, with no write between.`,
        expected: earlier.pagination.total_count,
        actual: later.pagination.total_count,
      }];
    }
    const whole = (body: typeof later, e: typeof exchange) => requestedPage(e.case.query).page === 1 && body.items.length === body.pagination.total_count;
    if (whole(earlier, other) && whole(later, exchange)) {
      const ids = (body: typeof later) => body.items.map((item) => String(item.id)).sort();
      if (JSON.stringify(ids(earlier)) !== JSON.stringify(ids(later))) {
        return [{
          kind: 'items_differ_by_shape',
          title: 'The same whole list holds other items under another page size or order',
          message: `The same list with the same filters, whole on its first page, held other items under ${shape(other)} than under ${shape(exchange)}.`,
          expected: ids(earlier),
          actual: ids(later),
        }];
      }
    }
    return [];
  },
};
