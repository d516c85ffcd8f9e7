// filter_respected on hand-made exchanges: passing cases and failing ones with the exact finding
// kind, and the operations it does not apply to, with the reason.
import { describe } from 'vitest';
import { filterRespected } from '../../checks/filter-respected.js';
import { type ExchangeCase, testBareApplicability, testExchangeCases } from './cases.js';
import { list } from './fixtures.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['filter: visibility in values passes', filterRespected, 'products:list', { query: { visibility: ['draft', 'private'] }, body: list([{ id: 'a', visibility: 'draft' }, { id: 'b', visibility: 'private' }]) }, []],
  ['filter: visibility ignored fails', filterRespected, 'products:list', { query: { visibility: 'draft' }, body: list([{ id: 'a', visibility: 'public' }]) }, ['filter_not_applied']],
  ['filter: benefit id inside an array passes', filterRespected, 'products:list', { query: { benefit_id: 'B' }, body: list([{ id: 'a', benefits: [{ id: 'x' }, { id: 'b' }] }]) }, []],
  ['filter: an item without the field is not judged', filterRespected, 'products:list', { query: { benefit_id: 'B' }, body: list([{ id: 'a' }]) }, []],
  ['filter: null date outside the bound fails', filterRespected, 'subscriptions:list', { operationId: 'subscriptions:list', query: { canceled_at_after: '2026-01-01T00:00:00Z' }, body: list([{ id: 'a', canceled_at: null }]) }, ['filter_not_applied']],
  ['filter: query (unspecified) asserts nothing', filterRespected, 'products:list', { query: { query: 'zzz' }, body: list([{ id: 'a', name: 'Pro' }]) }, []],
  ['filter: started_after bound included passes', filterRespected, 'subscriptions:list', { operationId: 'subscriptions:list', query: { started_after: '2026-01-01T00:00:00Z' }, body: list([{ id: 'a', started_at: '2026-01-01T00:00:00.000000Z' }]) }, []],
  ['filter: canceled_at_before violated fails', filterRespected, 'subscriptions:list', { operationId: 'subscriptions:list', query: { canceled_at_before: '2026-01-01T00:00:00Z' }, body: list([{ id: 'a', canceled_at: '2026-01-02T00:00:00Z' }]) }, ['filter_not_applied']],
  ['filter: external customer id passes', filterRespected, 'subscriptions:list', { operationId: 'subscriptions:list', query: { external_customer_id: 'cus_1' }, body: list([{ id: 'a', customer: { external_id: 'cus_1' } }]) }, []],
  ['filter: metadata match passes', filterRespected, 'products:list', { query: { 'metadata[seats]': '3' }, body: list([{ id: 'a', metadata: { seats: 3 } }]) }, []],
  ['filter: metadata ignored fails', filterRespected, 'products:list', { query: { 'metadata[tier]': 'gold' }, body: list([{ id: 'a', metadata: { tier: 'silver' } }]) }, ['metadata_filter_not_applied']],
];

describe('filter_respected', () => {
  testExchangeCases(cases);
});

describe('applicability', () => {
  testBareApplicability([[filterRespected, 'no filter parameter with stated semantics']]);
});
