// pagination_total_stable on hand-made pairs (a list, then the same list under another shape): the
// same total_count passes; another total fails with the exact kind; two first pages that each hold
// every item and hold other items fail, while pages that are not whole first pages are compared on
// their totals only; error answers and a missing earlier answer are not judged; its applicability.
import { describe, expect, test } from 'vitest';
import { paginationTotalStable } from '../../checks/pagination-total-stable.js';
import type { Exchange } from '../../core/types.js';
import { testApplicability } from './cases.js';
import { context, exchange, items, list } from './fixtures.js';

const TOTAL = ['total_count_differs_by_shape'];
const ITEMS = ['items_differ_by_shape'];

/** A page of products asked with `query`, holding `held` of `total` matching items. */
const page = (query: Record<string, string>, held: Record<string, unknown>[], total: number, status = 200): Exchange =>
  status === 200 ? exchange({ query, body: list(held, total) }) : exchange({ query, status, body: { detail: [{ loc: ['query', 'limit'], msg: 'x', type: 'x' }] } });
const ten = { limit: '10' };
const hundred = { limit: '100' };

describe('pagination_total_stable', () => {
  // [name, earlier, later, expected kinds ([] = passes)]
  test.each<[string, Exchange, Exchange, string[]]>([
    ['the same total under 10 and 100 passes', page(ten, items(10), 130), page(hundred, items(100), 130), []],
    ['the same total on page 1 and page 3 passes', page(ten, items(10), 30), page({ ...ten, page: '3' }, items(10, 20), 30), []],
    ['the same total without page and limit passes', page({}, items(10), 30), page({ limit: '20', page: '2' }, items(10, 20), 30), []],
    ['another total under another page size fails', page(ten, items(10), 130), page(hundred, items(100), 120), TOTAL],
    ['another total on another page fails', page(ten, items(10), 30), page({ ...ten, page: '2' }, items(10, 10), 31), TOTAL],
    ['another total under another order fails', page({ sorting: 'name' }, items(10), 30), page({ sorting: '-name' }, items(10), 29), TOTAL],
    ['two whole first pages with the same items in another order pass', page({ sorting: 'name' }, items(5), 5), page({ sorting: '-name' }, items(5).reverse(), 5), []],
    ['two whole first pages with other items fail', page(ten, items(5), 5), page(hundred, items(5, 1), 5), ITEMS],
    ['a whole bare list and a whole page=1 compare their items', page({}, items(5), 5), page({ page: '1', limit: '100' }, items(5, 2), 5), ITEMS],
    ['first pages that are not whole are compared on totals only', page(ten, items(10), 30), page({ limit: '20' }, items(10, 5), 30), []],
    ['a whole first page and a later page are compared on totals only', page(hundred, items(30), 30), page({ ...ten, page: '2' }, items(10, 50), 30), []],
    ['a limit above 100 answered 100 items, the same total, passes', page(ten, items(10), 130), page({ limit: '150' }, items(100), 130), []],
    ['a limit above 100 refused is not judged', page(ten, items(10), 130), page({ limit: '150' }, [], 0, 422), []],
    ['an earlier error answer is not judged', page(ten, [], 0, 401), page(hundred, items(100), 130), []],
  ])('%s', async (_name, earlier, later, expected) => {
    const findings = paginationTotalStable.run(await context('products:list'), later, [earlier]);
    expect(findings.map((f) => f.kind)).toEqual(expected);
    for (const f of findings) expect(f.message.length).toBeGreaterThan(0);
  });

  test('the finding gives both totals', async () => {
    const [finding] = paginationTotalStable.run(await context('products:list'), page(hundred, items(100), 120), [page(ten, items(10), 130)]);
    expect(finding).toMatchObject({ expected: 130, actual: 120 });
  });

  test('a list without its earlier answer is not judged', async () => {
    expect(paginationTotalStable.run(await context('products:list'), page(hundred, items(100), 130), [])).toEqual([]);
  });
});

describe('applicability', () => {
  testApplicability([
    [paginationTotalStable, 'products:list', true],
    [paginationTotalStable, 'customers:list_payment_methods', true],
    [paginationTotalStable, 'products:get', 'not a paginated list'],
  ]);
});
