// The out-of-range mutations: one below the minimum, one above the maximum (not for limit, which a
// server may clamp).
import { describe, expect, test } from 'vitest';
import { outOfRange } from '../../../generators/negative/out-of-range.js';
import { param, queryAjv } from './support.js';

describe('outOfRange', () => {
  test.each([
    ['integer with a minimum', param('page', { type: 'integer', minimum: 1 }), [['below_minimum', '0']]],
    ['limit: above maximum is left out', param('limit', { type: 'integer', minimum: 1, maximum: 100 }), [['below_minimum', '0']]],
    ['other maximum is kept', param('count', { type: 'integer', maximum: 5 }), [['above_maximum', '6']]],
    ['number with both bounds', param('ratio', { type: 'number', minimum: 0, maximum: 1 }), [['below_minimum', '-1'], ['above_maximum', '2']]],
    ['unbounded integer', param('n', { type: 'integer' }), []],
    ['string', param('q', { type: 'string', minLength: 1 }), []],
  ] as const)('%s', (_name, parameter, want) => {
    const values = outOfRange(parameter);
    expect(values.map((v) => [v.mutation, v.value])).toEqual(want);
    for (const v of values) expect(queryAjv.validate(parameter.schema, v.value), v.value).toBe(false);
  });
});
