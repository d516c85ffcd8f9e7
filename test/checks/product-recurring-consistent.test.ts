// product_recurring_consistent on hand-made exchanges: passing cases, failing ones with the exact
// finding kinds, and cases it must not judge (objects that are no product); and its applicability.
import { describe } from 'vitest';
import { productRecurringConsistent } from '../../checks/product-recurring-consistent.js';
import { SUBSCRIPTIONS, product, subscription } from './bodies.js';
import { testApplicability, testExchangeCases, type ExchangeCase } from './cases.js';
import { list } from './fixtures.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['recurring: recurring product passes', productRecurringConsistent, 'products:list', { body: list([product()]) }, []],
  ['recurring: one-time product passes', productRecurringConsistent, 'products:list', { body: list([product({ recurring_interval: null, recurring_interval_count: null, is_recurring: false })]) }, []],
  ['recurring: is_recurring true without an interval fails', productRecurringConsistent, 'products:list', { body: list([product({ recurring_interval: null, recurring_interval_count: null })]) }, ['is_recurring_mismatch']],
  ['recurring: is_recurring false with an interval fails', productRecurringConsistent, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ product: product({ is_recurring: false }) })]) }, ['is_recurring_mismatch']],
  ['recurring: one-time product with a count fails', productRecurringConsistent, 'products:list', { body: list([product({ recurring_interval: null, recurring_interval_count: 1, is_recurring: false })]) }, ['interval_count_without_interval']],
  ['recurring: a subscription (no is_recurring) is not a product', productRecurringConsistent, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([{ id: 's', recurring_interval: null, recurring_interval_count: 2 }]) }, []],
];

describe('product_recurring_consistent', () => {
  testExchangeCases(cases, { applies: true });
});

describe('applicability', () => {
  testApplicability([
    [productRecurringConsistent, 'files:list', 'no product (is_recurring and recurring_interval) in its responses'],
    [productRecurringConsistent, SUBSCRIPTIONS, true],
  ]);
});
