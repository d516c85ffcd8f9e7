import { describe, expect, test } from 'vitest';
import { pagesDisjointAndComplete } from '../../checks/pages-disjoint-and-complete.js';
import { context, exchange, items, list } from './fixtures.js';

/** A walk over `pages` (arrays of ids), then the page past the end with `beyond`. */
function walk(pages: string[][], total: number, limit: number, beyond: { status: number; body: unknown }) {
  const maxPage = Math.ceil(total / limit);
  const history = pages.map((ids, i) =>
    exchange({ query: { limit: String(limit), page: String(i + 1) }, body: list(ids.map((id) => ({ id })), total, maxPage, limit) }),
  );
  const last = exchange({ query: { limit: String(limit), page: String(pages.length + 1) }, ...beyond });
  return { history, last };
}

const emptyPage = (total: number, limit: number) => ({ status: 200, body: list([], total, Math.ceil(total / limit), limit) });

describe('pages_disjoint_and_complete', () => {
  test.each([
    ['complete walk passes', [['a', 'b'], ['c', 'd'], ['e']], 5, emptyPage(5, 2), []],
    ['overlapping pages fail', [['a', 'b'], ['b', 'c'], ['e']], 5, emptyPage(5, 2), ['pages_overlap', 'pages_incomplete']],
    ['missing item fails', [['a', 'b'], ['c', 'd'], []], 5, emptyPage(5, 2), ['pages_incomplete']],
    ['page past the end as 404 fails', [['a', 'b'], ['c']], 3, { status: 404, body: { error: 'ResourceNotFound', detail: 'x' } }, ['page_past_end_not_empty']],
    ['page past the end with items fails', [['a', 'b'], ['c']], 3, { status: 200, body: list(items(1), 3, 2, 2) }, ['pages_incomplete', 'page_past_end_not_empty']],
  ] as const)('%s', async (_name, pages, total, beyond, kinds) => {
    const ctx = await context();
    const { history, last } = walk(pages.map((p) => [...p]), total, 2, beyond);
    expect(pagesDisjointAndComplete.run(ctx, last, history).map((f) => f.kind)).toEqual(kinds);
  });

  test('a walk cut short asserts disjointness only', async () => {
    const ctx = await context();
    const history = [exchange({ query: { limit: '2', page: '1' }, body: list(items(2), 100, 50, 2) })];
    const last = exchange({ query: { limit: '2', page: '2' }, body: list(items(2, 2), 100, 50, 2) });
    expect(pagesDisjointAndComplete.run(ctx, last, history)).toEqual([]);
  });
});
