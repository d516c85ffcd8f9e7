import type { Check, Exchange, Finding } from '../core/types.js';
import { listBody, requestedPage } from './support.js';

function ids(exchange: Exchange): string[] {
  return (listBody(exchange)?.items ?? []).map((item) => String(item.id));
}

/**
 * Walking every page of a list with the same filters gives every item exactly once: pages do
 * not overlap, together they hold `total_count` items, and the page after the last is an empty
 * 200, not an error. The suite walks pages 1..max_page (`history`) and then max_page + 1
 * (`exchange`); a walk cut short by the suite asserts only disjointness.
 * @see spec/rules.yaml pagination.walk, pagination.past_last_page; docs/design.md (What the API requires that the harness relies on)
 */
export const pagesDisjointAndComplete: Check = {
  id: 'pages_disjoint_and_complete',
  title: 'Pages overlap or miss items',
  severity: 'high',
  rule: 'pagination.walk',
  layer: 'api',
  evidence: 'walk',
  conformanceClass: 'pagination',
  level: 'must',
  needs: 'walk',
  appliesTo: ({ operation }) => operation.paginated || 'not a paginated list',
  run(_ctx, exchange, history) {
    const pages = [...history, exchange].filter((e) => e.response?.status === 200 && listBody(e));
    if (pages.length === 0) return [];
    const findings: Finding[] = [];
    const seen = new Map<string, number>();
    for (const page of pages) {
      const { page: number } = requestedPage(page.case.query);
      for (const id of ids(page)) {
        const first = seen.get(id);
        if (first !== undefined && first !== number) {
          findings.push({
            kind: 'pages_overlap',
            title: 'Pages overlap',
            message: `Item ${id} appears on page ${first} and again on page ${number}.`,
            expected: 'each item on exactly one page',
            actual: { id, pages: [first, number] },
          });
        }
        if (first === undefined) seen.set(id, number);
      }
    }
    const first = listBody(pages[0]!)!;
    const total = first.pagination.total_count;
    const last = requestedPage(exchange.case.query).page;
    const walkedAll = last > first.pagination.max_page && history.length >= first.pagination.max_page;
    if (walkedAll) {
      if (seen.size !== total) {
        findings.push({
          kind: 'pages_incomplete',
          title: 'Pages do not hold every item',
          message: `Walking all ${first.pagination.max_page} pages gave ${seen.size} distinct items, but total_count is ${total}.`,
          expected: total,
          actual: seen.size,
        });
      }
      const beyond = exchange.response;
      if (beyond && (beyond.status !== 200 || (listBody(exchange)?.items.length ?? -1) !== 0)) {
        findings.push({
          kind: 'page_past_end_not_empty',
          title: 'Page past the last is not an empty list',
          message: `Page ${last}, past the last page ${first.pagination.max_page}, answered ${beyond.status} with ${listBody(exchange)?.items.length ?? 'no'} items; it must be an empty 200.`,
          expected: { status: 200, items: 0 },
          actual: { status: beyond.status, items: listBody(exchange)?.items.length ?? null },
        });
      }
    }
    return findings;
  },
};
