// payment_methods_of_customer on hand-made exchanges of a customer's payment methods: passing
// cases, a failing one with the exact finding kind, and a 404 it must not judge; and its
// applicability.
import { describe, expect, test } from 'vitest';
import { paymentMethodsOfCustomer } from '../../checks/payment-methods-of-customer.js';
import { CUSTOMER, OTHER_CUSTOMER } from './bodies.js';
import { testApplicability } from './cases.js';
import { context, exchange, list } from './fixtures.js';

describe('payment_methods_of_customer', () => {
  const PAYMENT_METHODS = 'customers:list_payment_methods';
  const sent = (items: Record<string, unknown>[], status = 200) => {
    const sentExchange = exchange({ operationId: PAYMENT_METHODS, status, body: status === 200 ? list(items) : { error: 'ResourceNotFound', detail: 'x' } });
    return { ...sentExchange, case: { ...sentExchange.case, pathParams: { id: CUSTOMER } } };
  };
  test.each([
    ['the customer\'s methods pass', [{ id: 'm1', customer_id: CUSTOMER }, { id: 'm2', customer_id: CUSTOMER.toUpperCase() }], 200, []],
    ['an empty list passes', [], 200, []],
    ['a method of another customer fails', [{ id: 'm1', customer_id: CUSTOMER }, { id: 'm2', customer_id: OTHER_CUSTOMER }], 200, ['item_of_another_customer']],
    ['a 404 is not judged', [], 404, []],
  ] as const)('%s', async (_name, items, status, kinds) => {
    const ctx = await context(PAYMENT_METHODS);
    expect(paymentMethodsOfCustomer.run(ctx, sent([...items], status), []).map((f) => f.kind)).toEqual(kinds);
  });
});

describe('applicability', () => {
  testApplicability([
    [paymentMethodsOfCustomer, 'products:list', 'not a list under a customer (/customers/{id}/...)'],
    [paymentMethodsOfCustomer, 'customers:list_payment_methods', true],
  ]);
});
