// timestamps_ordered on hand-made exchanges: records whose instants are in order pass, a pair out of
// order fails with the exact kind, and what it must not judge (nulls, text that is no date-time,
// metadata, error bodies, instants compared as text) passes; and its applicability.
import { describe } from 'vitest';
import { timestampsOrdered } from '../../checks/timestamps-ordered.js';
import { SUBSCRIPTIONS, product, subscription } from './bodies.js';
import { testApplicability, testExchangeCases, type ExchangeCase } from './cases.js';
import { list } from './fixtures.js';

const OUT_OF_ORDER = ['timestamps_out_of_order'];

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['modified after created passes', timestampsOrdered, 'products:list', { body: list([product({ modified_at: '2026-01-03T00:00:00Z' })]) }, []],
  ['a null modified_at is not judged', timestampsOrdered, 'products:list', { body: list([product({ modified_at: null })]) }, []],
  ['the same instant in two notations is in order', timestampsOrdered, 'products:list', { body: list([product({ modified_at: '2026-01-02T03:04:05.123456+00:00' })]) }, []],
  ['modified a microsecond before created fails', timestampsOrdered, 'products:list', { body: list([product({ modified_at: '2026-01-02T03:04:05.123455Z' })]) }, OUT_OF_ORDER],
  ['modified a day before created fails', timestampsOrdered, 'products:list', { body: list([product({ modified_at: '2026-01-01T03:04:05.123456Z' })]) }, OUT_OF_ORDER],
  // 01:00-03:00 is 04:00Z, after 03:04:05Z, though its text sorts first.
  ['offsets compare as instants, not as text', timestampsOrdered, 'products:list', { body: list([product({ created_at: '2026-01-02T03:04:05Z', modified_at: '2026-01-02T01:00:00-03:00' })]) }, []],
  ['an offset instant before created fails', timestampsOrdered, 'products:list', { body: list([product({ created_at: '2026-01-02T03:04:05Z', modified_at: '2026-01-02T04:00:00+02:00' })]) }, OUT_OF_ORDER],
  ['text that is no date-time is timestamps_utc\'s', timestampsOrdered, 'products:list', { body: list([product({ modified_at: 'yesterday' })]) }, []],
  ['a nested price out of order fails', timestampsOrdered, 'products:list', { body: list([product({ prices: [{ id: 'p1', created_at: '2026-01-02T03:04:05Z', modified_at: '2026-01-01T00:00:00Z' }] })]) }, OUT_OF_ORDER],
  ['metadata keys are the merchant\'s', timestampsOrdered, 'products:list', { body: list([product({ metadata: { created_at: '2026-01-02T00:00:00Z', modified_at: '2026-01-01T00:00:00Z' } })]) }, []],
  ['several records out of order are one finding', timestampsOrdered, 'products:list', { body: list([product({ modified_at: '2026-01-01T00:00:00Z' }), product({ id: 'p-2', modified_at: '2025-01-01T00:00:00Z' })]) }, OUT_OF_ORDER],
  ['an error body is not judged', timestampsOrdered, 'products:list', { status: 422, body: { detail: [{ loc: ['query'], msg: 'x', type: 'x', input: { created_at: '2026-01-02T00:00:00Z', modified_at: '2026-01-01T00:00:00Z' } }] } }, []],
  ['a period in order passes', timestampsOrdered, SUBSCRIPTIONS, { body: list([subscription({ current_period_end: '2026-02-02T03:04:05.123456Z' })]) }, []],
  ['an open period (null end) passes', timestampsOrdered, SUBSCRIPTIONS, { body: list([subscription({ current_period_end: null })]) }, []],
  ['a period ending before it starts fails', timestampsOrdered, SUBSCRIPTIONS, { body: list([subscription({ current_period_end: '2026-01-01T00:00:00Z' })]) }, OUT_OF_ORDER],
  ['a reversed period fails in a body with a single *_at field', timestampsOrdered, 'subscriptions:get', { body: { id: 's', created_at: '2026-01-01T00:00:00Z', modified_at: null, current_period_start: '2026-02-01T00:00:00Z', current_period_end: '2026-01-15T00:00:00Z' } }, OUT_OF_ORDER],
  ['a meter period ending before it starts fails', timestampsOrdered, SUBSCRIPTIONS, { body: list([subscription({ current_meter_period_start: '2026-01-10T00:00:00Z', current_meter_period_end: '2026-01-09T00:00:00Z' })]) }, OUT_OF_ORDER],
  ['a trial ending before it starts fails', timestampsOrdered, SUBSCRIPTIONS, { body: list([subscription({ trial_start: '2026-01-05T00:00:00Z', trial_end: '2026-01-04T00:00:00Z' })]) }, OUT_OF_ORDER],
  ['a trial of no time (start equals end) passes', timestampsOrdered, SUBSCRIPTIONS, { body: list([subscription({ trial_start: '2026-01-05T00:00:00Z', trial_end: '2026-01-05T00:00:00.000000Z' })]) }, []],
  ['ended before started fails', timestampsOrdered, SUBSCRIPTIONS, { body: list([subscription({ started_at: '2026-01-02T03:04:05Z', ended_at: '2026-01-02T03:04:04Z' })]) }, OUT_OF_ORDER],
  ['an embedded product out of order fails', timestampsOrdered, SUBSCRIPTIONS, { body: list([subscription({ product: product({ modified_at: '2025-12-31T23:59:59Z' }) })]) }, OUT_OF_ORDER],
];

describe('timestamps_ordered', () => {
  testExchangeCases(cases, { applies: true });
});

describe('applicability', () => {
  testApplicability([
    [timestampsOrdered, 'subscriptions:get', true],
    [timestampsOrdered, 'customers:get', true],
    [timestampsOrdered, 'orders:get_receipt', 'no record with created_at and modified_at or a start and an end in its responses'],
  ]);
});
