// sorting_respected on hand-made exchanges: passing cases and failing ones with the exact finding
// kind, and the operations it does not apply to, with the reason.
import { describe } from 'vitest';
import { sortingRespected } from '../../checks/sorting-respected.js';
import { type ExchangeCase, testBareApplicability, testExchangeCases } from './cases.js';
import { list } from './fixtures.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['sorting: ascending names pass (either collation)', sortingRespected, 'products:list', { query: { sorting: 'name' }, body: list([{ id: 'a', name: 'apple' }, { id: 'b', name: 'Banana' }, { id: 'c', name: 'cherry' }]) }, []],
  ['sorting: descending created_at with microseconds fails', sortingRespected, 'products:list', { query: { sorting: '-created_at' }, body: list([{ id: 'a', created_at: '2026-01-01T00:00:00.000001Z' }, { id: 'b', created_at: '2026-01-01T00:00:00.000002Z' }]) }, ['sort_order_violated']],
  ['sorting: second criterion decides ties', sortingRespected, 'products:list', { query: { sorting: ['-created_at', 'name'] }, body: list([{ id: 'a', created_at: '2026-01-01T00:00:00Z', name: 'b' }, { id: 'b', created_at: '2026-01-01T00:00:00Z', name: 'a' }]) }, ['sort_order_violated']],
  ['sorting: unspecified key asserts nothing', sortingRespected, 'products:list', { query: { sorting: 'price_amount' }, body: list([{ id: 'a' }, { id: 'b' }]) }, []],
  ['sorting: nulls are not judged', sortingRespected, 'subscriptions:list', { operationId: 'subscriptions:list', query: { sorting: 'ended_at' }, body: list([{ id: 'a', ended_at: '2026-02-01T00:00:00Z' }, { id: 'b', ended_at: null }, { id: 'c', ended_at: '2026-01-01T00:00:00Z' }]) }, []],
];

describe('sorting_respected', () => {
  testExchangeCases(cases);
});

describe('applicability', () => {
  testBareApplicability([[sortingRespected, 'no sorting parameter with x-sort-keys']]);
});
