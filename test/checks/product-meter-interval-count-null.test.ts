// product_meter_interval_count_null on hand-made exchanges: passing cases, a failing one with the
// exact finding kind, and a case it must not judge (an absent field); and its applicability.
import { describe } from 'vitest';
import { productMeterIntervalCountNull } from '../../checks/product-meter-interval-count-null.js';
import { product } from './bodies.js';
import { testApplicability, testExchangeCases, type ExchangeCase } from './cases.js';
import { list } from './fixtures.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['meter: no cycle and a null count passes', productMeterIntervalCountNull, 'products:list', { body: list([product()]) }, []],
  ['meter: a cycle with its count passes', productMeterIntervalCountNull, 'products:list', { body: list([product({ meter_interval: 'month', meter_interval_count: 2 })]) }, []],
  ['meter: a count without a cycle fails', productMeterIntervalCountNull, 'products:list', { body: list([product({ meter_interval_count: 1 })]) }, ['meter_interval_count_without_cycle']],
  ['meter: an absent meter_interval is not judged', productMeterIntervalCountNull, 'products:list', { body: list([{ id: 'x', meter_interval_count: 1 }]) }, []],
];

describe('product_meter_interval_count_null', () => {
  testExchangeCases(cases, { applies: true });
});

describe('applicability', () => {
  testApplicability([
    [productMeterIntervalCountNull, 'refunds:list', 'no meter_interval and meter_interval_count in its responses'],
  ]);
});
