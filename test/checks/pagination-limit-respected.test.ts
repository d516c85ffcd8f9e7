// pagination_limit_respected on hand-made exchanges: passing cases and failing ones with the exact
// finding kind, and the operations it does not apply to, with the reason.
import { describe } from 'vitest';
import { paginationLimitRespected } from '../../checks/pagination-limit-respected.js';
import { type ExchangeCase, testBareApplicability, testExchangeCases } from './cases.js';
import { items, list } from './fixtures.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['limit: 10 items by default passes', paginationLimitRespected, 'products:list', { body: list(items(10), 30) }, []],
  ['limit: 11 items by default fails', paginationLimitRespected, 'products:list', { body: list(items(11), 30) }, ['limit_exceeded']],
  ['limit: 101 clamped to 100 passes', paginationLimitRespected, 'products:list', { query: { limit: '101' }, body: list(items(100), 150, 2, 100) }, []],
  ['limit: 101 rejected with 422 passes', paginationLimitRespected, 'products:list', { query: { limit: '101' }, status: 422, body: { detail: [] } }, []],
  ['limit: 101 honoured fails', paginationLimitRespected, 'products:list', { query: { limit: '101' }, body: list(items(101), 150, 2, 101) }, ['limit_above_maximum_honoured']],
];

describe('pagination_limit_respected', () => {
  testExchangeCases(cases);
});

describe('applicability', () => {
  testBareApplicability([[paginationLimitRespected, 'not a paginated list']]);
});
