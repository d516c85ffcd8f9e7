// subscription_product_recurring on hand-made exchanges: a passing case, a failing one with the
// exact finding kind, and cases it must not judge (another product, an absent is_recurring); and
// its applicability.
import { describe } from 'vitest';
import { subscriptionProductRecurring } from '../../checks/subscription-product-recurring.js';
import { OTHER_PRODUCT, PRODUCT, SUBSCRIPTIONS, product, subscription } from './bodies.js';
import { testApplicability, testExchangeCases, type ExchangeCase } from './cases.js';
import { list } from './fixtures.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['subscription: recurring product passes', subscriptionProductRecurring, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription()]) }, []],
  ['subscription: one-time product fails', subscriptionProductRecurring, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ product: product({ is_recurring: false, recurring_interval: null }) })]) }, ['subscription_product_not_recurring']],
  ['subscription: a product other than the one named is not judged', subscriptionProductRecurring, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ product: product({ id: OTHER_PRODUCT, is_recurring: false }) })]) }, []],
  ['subscription: is_recurring absent is not judged', subscriptionProductRecurring, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ product: { id: PRODUCT } })]) }, []],
];

describe('subscription_product_recurring', () => {
  testExchangeCases(cases, { applies: true });
});

describe('applicability', () => {
  testApplicability([
    [subscriptionProductRecurring, 'products:list', 'no subscription embedding its product in its responses'],
  ]);
});
