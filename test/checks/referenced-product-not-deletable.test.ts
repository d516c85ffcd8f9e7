// referenced_product_not_deletable on hand-made exchanges: a passing case, a failing one with the
// exact finding kind, and cases it must not judge (an absent is_deletable, another product); and
// its applicability, in 2026-10 and 2026-04.
import { describe, expect, test } from 'vitest';
import { referencedProductNotDeletable } from '../../checks/referenced-product-not-deletable.js';
import { subscriptionProductRecurring } from '../../checks/subscription-product-recurring.js';
import { loadSpec, specPath } from '../../core/spec/load.js';
import { OTHER_PRODUCT, SUBSCRIPTIONS, product, subscription } from './bodies.js';
import { testApplicability, testExchangeCases, type ExchangeCase } from './cases.js';
import { list } from './fixtures.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['deletable: embedded product not deletable passes', referencedProductNotDeletable, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription()]) }, []],
  ['deletable: is_deletable absent (2026-04) is not judged', referencedProductNotDeletable, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ product: product({ is_deletable: undefined }) })]) }, []],
  ['deletable: embedded product deletable fails', referencedProductNotDeletable, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ product: product({ is_deletable: true }) })]) }, ['referenced_product_deletable']],
  ['deletable: a product other than the one named is not judged', referencedProductNotDeletable, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ product: product({ id: OTHER_PRODUCT, is_deletable: true }) })]) }, []],
];

describe('referenced_product_not_deletable', () => {
  testExchangeCases(cases, { applies: true });
});

describe('applicability', () => {
  testApplicability([
    [referencedProductNotDeletable, 'products:list', 'no subscription embedding a product with is_deletable in its responses'],
  ]);

  test('referenced_product_not_deletable does not apply to 2026-04, whose products carry no is_deletable', async () => {
    const spec = await loadSpec(specPath('2026-04'));
    expect(referencedProductNotDeletable.appliesTo?.({ spec, operation: spec.operation(SUBSCRIPTIONS) })).toBe('no subscription embedding a product with is_deletable in its responses');
    expect(subscriptionProductRecurring.appliesTo?.({ spec, operation: spec.operation(SUBSCRIPTIONS) })).toBe(true);
  });
});
