// timestamps_utc on hand-made exchanges: passing cases, failing ones with the exact finding kinds,
// and cases it must not judge (metadata, other types, error bodies); its applicability; and
// timestampProblem on single values.
import { describe, expect, test } from 'vitest';
import { timestampProblem, timestampsUtc } from '../../checks/timestamps-utc.js';
import { CUSTOMER, SUBSCRIPTIONS, product, subscription } from './bodies.js';
import { testApplicability, testExchangeCases, type ExchangeCase } from './cases.js';
import { list } from './fixtures.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
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
];

describe('timestamps_utc', () => {
  testExchangeCases(cases, { applies: true });
});

describe('applicability', () => {
  testApplicability([
    [timestampsUtc, 'orders:get_receipt', 'no timestamp (*_at) field documented in its responses'],
    [timestampsUtc, 'files:list', true],
  ]);
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
