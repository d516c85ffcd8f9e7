// pagination_counts_consistent on hand-made exchanges: passing cases and failing ones with the
// exact finding kind, and the operations it does not apply to, with the reason.
import { describe } from 'vitest';
import { paginationCountsConsistent } from '../../checks/pagination-counts-consistent.js';
import { type ExchangeCase, testBareApplicability, testExchangeCases } from './cases.js';
import { items, list } from './fixtures.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['counts: consistent page passes', paginationCountsConsistent, 'products:list', { query: { limit: '5', page: '3' }, body: list(items(2, 10), 12, 3, 5) }, []],
  ['counts: empty list with max_page 0 or 1 passes', paginationCountsConsistent, 'products:list', { body: list([], 0, 1) }, []],
  ['counts: max_page not ceil(total/limit) fails', paginationCountsConsistent, 'products:list', { query: { limit: '5' }, body: list(items(5), 13, 4, 5) }, ['max_page_mismatch']],
  ['counts: total_count one above the items of the last page fails', paginationCountsConsistent, 'products:list', { query: { limit: '5', page: '3' }, body: list(items(2, 10), 13, 3, 5) }, ['page_size_mismatch']],
  ['counts: short page fails', paginationCountsConsistent, 'products:list', { query: { limit: '5' }, body: list(items(4), 12, 3, 5) }, ['page_size_mismatch']],
  ['counts: page past the end empty passes', paginationCountsConsistent, 'products:list', { query: { page: '9' }, body: list([], 12, 2) }, []],
];

describe('pagination_counts_consistent', () => {
  testExchangeCases(cases);
});

describe('applicability', () => {
  testBareApplicability([[paginationCountsConsistent, 'not a paginated list']]);
});
