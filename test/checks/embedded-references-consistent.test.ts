// embedded_references_consistent on hand-made exchanges: passing cases, failing ones with the exact
// finding kinds, and cases it must not judge (null embeddings, metadata); and its applicability.
import { describe } from 'vitest';
import { embeddedReferencesConsistent } from '../../checks/embedded-references-consistent.js';
import { CUSTOMER, DISCOUNT, LICENSE_KEYS, OTHER_CUSTOMER, OTHER_PRODUCT, PRODUCT, SUBSCRIPTIONS, product, subscription } from './bodies.js';
import { testApplicability, testExchangeCases, type ExchangeCase } from './cases.js';
import { list } from './fixtures.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['references: consistent subscription passes', embeddedReferencesConsistent, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription()]) }, []],
  ['references: UUIDs differing in case only pass', embeddedReferencesConsistent, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ customer_id: CUSTOMER.toUpperCase() })]) }, []],
  ['references: embedded discount with its id passes', embeddedReferencesConsistent, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ discount_id: DISCOUNT, discount: { id: DISCOUNT } })]) }, []],
  ['references: discount_id set, discount null is not judged', embeddedReferencesConsistent, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ discount_id: DISCOUNT, discount: null })]) }, []],
  ['references: another customer embedded fails', embeddedReferencesConsistent, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ customer: { id: OTHER_CUSTOMER } })]) }, ['embedded_object_mismatch']],
  ['references: discount embedded beside a null discount_id fails', embeddedReferencesConsistent, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ discount: { id: DISCOUNT } })]) }, ['embedded_object_mismatch']],
  ['references: license key of another customer fails', embeddedReferencesConsistent, LICENSE_KEYS, { operationId: LICENSE_KEYS, body: list([{ id: 'k', customer_id: CUSTOMER, customer: { id: OTHER_CUSTOMER } }]) }, ['embedded_object_mismatch']],
  ['references: price of another product fails', embeddedReferencesConsistent, 'products:list', { body: list([product({ prices: [{ id: 'p1', product_id: OTHER_PRODUCT }] })]) }, ['price_of_another_product']],
  ['references: a subscription\'s prices are not judged against its id', embeddedReferencesConsistent, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ prices: [{ id: 'p1', product_id: PRODUCT }] })]) }, []],
  ['references: metadata pairs are the merchant\'s', embeddedReferencesConsistent, 'products:list', { body: list([product({ metadata: { customer: 'a', customer_id: 'b' } })]) }, []],
];

describe('embedded_references_consistent', () => {
  testExchangeCases(cases, { applies: true });
});

describe('applicability', () => {
  testApplicability([
    [embeddedReferencesConsistent, 'webhooks:list_endpoints', 'no embedded object beside the *_id field naming it in its responses'],
    [embeddedReferencesConsistent, 'customers:list_payment_methods', 'no embedded object beside the *_id field naming it in its responses'],
  ]);
});
