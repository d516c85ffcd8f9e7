// The type_mismatch mutation: a word where a number or boolean is wanted, and nothing for strings.
import { describe, expect, test } from 'vitest';
import { typeMismatch } from '../../../generators/negative/type-mismatch.js';
import { param, queryAjv } from './support.js';

describe('typeMismatch', () => {
  test.each([
    ['integer', param('page', { type: 'integer', minimum: 1 }), ['abc']],
    ['number', param('ratio', { type: 'number' }), ['abc']],
    ['boolean', param('is_archived', { type: 'boolean' }), ['maybe']],
    ['array of integers', param('ids', { type: 'array', items: { type: 'integer' } }), ['abc']],
    ['string: any text is a string', param('query', { type: 'string' }), []],
  ] as const)('%s', (_name, parameter, want) => {
    const values = typeMismatch(parameter);
    expect(values.map((v) => v.value)).toEqual(want);
    for (const v of values) {
      expect(v.mutation).toBe('type_mismatch');
      expect(queryAjv.validate(parameter.schema, v.value), v.value).toBe(false);
    }
  });
});
