// Table-driven tests of the data-invariant checks (one exchange each): every check has passing
// cases, failing cases with the exact finding kinds, and cases it must not judge (absent fields,
// nulls, other statuses), plus its applicability.
import { describe, expect, test } from 'vitest';
import { embeddedReferencesConsistent } from '../../checks/embedded-references-consistent.js';
import { licenseKeyDisplayKeyMasked } from '../../checks/license-key-display-key-masked.js';
import { paymentMethodsOfCustomer } from '../../checks/payment-methods-of-customer.js';
import { productMeterIntervalCountNull } from '../../checks/product-meter-interval-count-null.js';
import { productRecurringConsistent } from '../../checks/product-recurring-consistent.js';
import { referencedProductNotDeletable } from '../../checks/referenced-product-not-deletable.js';
import { subscriptionProductRecurring } from '../../checks/subscription-product-recurring.js';
import { timestampProblem, timestampsUtc } from '../../checks/timestamps-utc.js';
import { objectsIn } from '../../checks/response-objects.js';
import type { Check } from '../../core/types.js';
import { loadSpec, specPath } from '../../core/spec/load.js';
import { context, exchange, list, type ExchangeShape } from './fixtures.js';

const CUSTOMER = '0b7e3c1a-5b0e-4b8e-9d43-2a1f5e6c7d01';
const OTHER_CUSTOMER = '0b7e3c1a-5b0e-4b8e-9d43-2a1f5e6c7d02';
const PRODUCT = '6a1c1b54-0a5c-4a43-9d5e-4e3f0c1d2a11';
const OTHER_PRODUCT = '6a1c1b54-0a5c-4a43-9d5e-4e3f0c1d2a12';
const DISCOUNT = '9f0e8d7c-6b5a-4c3d-8e2f-1a0b9c8d7e61';

function product(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: PRODUCT,
    created_at: '2026-01-02T03:04:05.123456Z',
    modified_at: null,
    recurring_interval: 'month',
    recurring_interval_count: 1,
    meter_interval: null,
    meter_interval_count: null,
    is_recurring: true,
    is_deletable: false,
    metadata: {},
    prices: [{ id: 'p1', product_id: PRODUCT, created_at: '2026-01-02T03:04:05Z' }],
    ...fields,
  };
}

function subscription(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'sub-1',
    created_at: '2026-01-02T03:04:05.123456Z',
    current_period_start: '2026-01-02T03:04:05.123456Z',
    cancel_at_period_end: false,
    canceled_at: null,
    customer_id: CUSTOMER,
    customer: { id: CUSTOMER, created_at: '2026-01-01T00:00:00Z', deleted_at: null },
    product_id: PRODUCT,
    product: product(),
    discount_id: null,
    discount: null,
    metadata: {},
    ...fields,
  };
}

const SUBSCRIPTIONS = 'subscriptions:list';
const LICENSE_KEYS = 'customer_portal:license_keys:list';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: [string, Check, string, ExchangeShape, string[]][] = [
  ['timestamps: Z with microseconds passes', timestampsUtc, 'products:list', { body: list([product()]) }, []],
  ['timestamps: +00:00 and whole seconds pass', timestampsUtc, 'products:list', { body: list([product({ created_at: '2026-01-02T03:04:05+00:00' })]) }, []],
  ['timestamps: null modified_at passes', timestampsUtc, 'products:list', { body: list([product({ modified_at: null })]) }, []],
  ['timestamps: +02:00 fails', timestampsUtc, 'products:list', { body: list([product({ created_at: '2026-01-02T05:04:05.123456+02:00' })]) }, ['timestamp_not_utc']],
  ['timestamps: no offset fails', timestampsUtc, 'products:list', { body: list([product({ modified_at: '2026-01-02T03:04:05' })]) }, ['timestamp_not_utc']],
  ['timestamps: nested *_at with an offset fails', timestampsUtc, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ customer: { id: CUSTOMER, deleted_at: '2026-01-01T00:00:00-05:00' } })]) }, ['timestamp_not_utc']],
  ['timestamps: a date alone fails', timestampsUtc, 'products:list', { body: list([product({ created_at: '2026-01-02' })]) }, ['timestamp_not_date_time']],
  ['timestamps: metadata keys are not timestamps', timestampsUtc, 'products:list', { body: list([product({ metadata: { paid_at: 'yesterday' } })]) }, []],
  ['timestamps: a number is the schema\'s concern', timestampsUtc, 'products:list', { body: list([product({ created_at: 1767323045 })]) }, []],
  ['timestamps: an error body is not judged', timestampsUtc, 'products:list', { status: 422, body: { detail: [{ loc: ['query', 'x'], msg: 'bad', type: 'x', input: { created_at: 'x' } }] } }, []],

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

  ['recurring: recurring product passes', productRecurringConsistent, 'products:list', { body: list([product()]) }, []],
  ['recurring: one-time product passes', productRecurringConsistent, 'products:list', { body: list([product({ recurring_interval: null, recurring_interval_count: null, is_recurring: false })]) }, []],
  ['recurring: is_recurring true without an interval fails', productRecurringConsistent, 'products:list', { body: list([product({ recurring_interval: null, recurring_interval_count: null })]) }, ['is_recurring_mismatch']],
  ['recurring: is_recurring false with an interval fails', productRecurringConsistent, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ product: product({ is_recurring: false }) })]) }, ['is_recurring_mismatch']],
  ['recurring: one-time product with a count fails', productRecurringConsistent, 'products:list', { body: list([product({ recurring_interval: null, recurring_interval_count: 1, is_recurring: false })]) }, ['interval_count_without_interval']],
  ['recurring: a subscription (no is_recurring) is not a product', productRecurringConsistent, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([{ id: 's', recurring_interval: null, recurring_interval_count: 2 }]) }, []],

  ['meter: no cycle and a null count passes', productMeterIntervalCountNull, 'products:list', { body: list([product()]) }, []],
  ['meter: a cycle with its count passes', productMeterIntervalCountNull, 'products:list', { body: list([product({ meter_interval: 'month', meter_interval_count: 2 })]) }, []],
  ['meter: a count without a cycle fails', productMeterIntervalCountNull, 'products:list', { body: list([product({ meter_interval_count: 1 })]) }, ['meter_interval_count_without_cycle']],
  ['meter: an absent meter_interval is not judged', productMeterIntervalCountNull, 'products:list', { body: list([{ id: 'x', meter_interval_count: 1 }]) }, []],

  ['deletable: embedded product not deletable passes', referencedProductNotDeletable, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription()]) }, []],
  ['deletable: is_deletable absent (2026-04) is not judged', referencedProductNotDeletable, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ product: product({ is_deletable: undefined }) })]) }, []],
  ['deletable: embedded product deletable fails', referencedProductNotDeletable, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ product: product({ is_deletable: true }) })]) }, ['referenced_product_deletable']],
  ['deletable: a product other than the one named is not judged', referencedProductNotDeletable, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ product: product({ id: OTHER_PRODUCT, is_deletable: true }) })]) }, []],

  ['subscription: recurring product passes', subscriptionProductRecurring, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription()]) }, []],
  ['subscription: one-time product fails', subscriptionProductRecurring, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ product: product({ is_recurring: false, recurring_interval: null }) })]) }, ['subscription_product_not_recurring']],
  ['subscription: a product other than the one named is not judged', subscriptionProductRecurring, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ product: product({ id: OTHER_PRODUCT, is_recurring: false }) })]) }, []],
  ['subscription: is_recurring absent is not judged', subscriptionProductRecurring, SUBSCRIPTIONS, { operationId: SUBSCRIPTIONS, body: list([subscription({ product: { id: PRODUCT } })]) }, []],

  ['display key: masked passes', licenseKeyDisplayKeyMasked, LICENSE_KEYS, { operationId: LICENSE_KEYS, body: list([{ id: 'k', key: 'ABCD-1234-EFGH-5678', display_key: '****-5678' }]) }, []],
  ['display key: the key itself fails', licenseKeyDisplayKeyMasked, LICENSE_KEYS, { operationId: LICENSE_KEYS, body: list([{ id: 'k', key: 'ABCD-1234-EFGH-5678', display_key: 'ABCD-1234-EFGH-5678' }]) }, ['display_key_reveals_key']],
  ['display key: the key with a prefix fails', licenseKeyDisplayKeyMasked, LICENSE_KEYS, { operationId: LICENSE_KEYS, body: list([{ id: 'k', key: 'ABCD-1234', display_key: 'key: ABCD-1234' }]) }, ['display_key_reveals_key']],
  ['display key: an empty key is not judged', licenseKeyDisplayKeyMasked, LICENSE_KEYS, { operationId: LICENSE_KEYS, body: list([{ id: 'k', key: '', display_key: '****' }]) }, []],
];

describe('data-invariant checks', () => {
  test.each(cases)('%s', async (_name, check, operationId, shape, kinds) => {
    const ctx = await context(operationId);
    expect(check.appliesTo?.(ctx)).toBe(true);
    const findings = check.run(ctx, exchange({ operationId, ...shape }), []);
    expect(findings.map((f) => f.kind)).toEqual(kinds);
    for (const f of findings) {
      expect(f.title.length).toBeGreaterThan(0);
      expect(f.message.length).toBeGreaterThan(0);
    }
  });
});

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
  test.each([
    [timestampsUtc, 'orders:get_receipt', 'no timestamp (*_at) field documented in its responses'],
    [embeddedReferencesConsistent, 'webhooks:list_endpoints', 'no embedded object beside the *_id field naming it in its responses'],
    [embeddedReferencesConsistent, 'customers:list_payment_methods', 'no embedded object beside the *_id field naming it in its responses'],
    [productRecurringConsistent, 'files:list', 'no product (is_recurring and recurring_interval) in its responses'],
    [productMeterIntervalCountNull, 'refunds:list', 'no meter_interval and meter_interval_count in its responses'],
    [referencedProductNotDeletable, 'products:list', 'no subscription embedding a product with is_deletable in its responses'],
    [subscriptionProductRecurring, 'products:list', 'no subscription embedding its product in its responses'],
    [licenseKeyDisplayKeyMasked, 'subscriptions:list', 'no key and display_key in its responses'],
    [paymentMethodsOfCustomer, 'products:list', 'not a list under a customer (/customers/{id}/...)'],
    [paymentMethodsOfCustomer, 'customers:list_payment_methods', true],
    [timestampsUtc, 'files:list', true],
    [productRecurringConsistent, SUBSCRIPTIONS, true],
  ] as const)('%o on %s', async (check, operationId, expected) => {
    expect(check.appliesTo?.(await context(operationId))).toBe(expected);
  });

  test('referenced_product_not_deletable does not apply to 2026-04, whose products carry no is_deletable', async () => {
    const spec = await loadSpec(specPath('2026-04'));
    expect(referencedProductNotDeletable.appliesTo?.({ spec, operation: spec.operation(SUBSCRIPTIONS) })).toBe('no subscription embedding a product with is_deletable in its responses');
    expect(subscriptionProductRecurring.appliesTo?.({ spec, operation: spec.operation(SUBSCRIPTIONS) })).toBe(true);
  });
});

describe('timestampProblem', () => {
  test.each([
    ['2026-01-02T03:04:05Z', undefined],
    ['2026-01-02T03:04:05.123456789Z', undefined],
    ['2026-01-02t03:04:05z', undefined],
    ['2026-01-02T03:04:05.1+00:00', undefined],
    ['2026-01-02T03:04:05+0000', undefined],
    ['2026-01-02T03:04:05-00:00', undefined],
    ['2026-01-02T03:04Z', undefined],
    ['2016-12-31T23:59:60Z', undefined],
    ['0050-01-02T03:04:05Z', undefined],
    ['2026-01-02T03:04:05+01:00', 'not_utc'],
    ['2026-01-02T03:04:05-00:30', 'not_utc'],
    ['2026-01-02T03:04:05', 'not_utc'],
    ['2026-02-30T03:04:05Z', 'not_date_time'],
    ['2026-01-02T25:04:05Z', 'not_date_time'],
    ['2026-01-02', 'not_date_time'],
    ['yesterday', 'not_date_time'],
  ] as const)('%s', (text, problem) => {
    expect(timestampProblem(text)).toBe(problem);
  });
});

describe('objectsIn', () => {
  test('walks arrays and objects, the body first, and skips free-form maps', () => {
    const body = { items: [{ id: 'a', customer: { id: 'c' }, metadata: { nested: { x: 1 } }, custom_field_data: { f: {} }, seat_metadata: { y: {} } }] };
    expect(objectsIn(body).map((o) => o.path)).toEqual(['', 'items[0]', 'items[0].customer']);
  });
});
