// The enum_violation mutation: a value outside a closed enum; open strings are left alone.
import { describe, expect, test } from 'vitest';
import { enumViolation } from '../../../generators/negative/enum-violation.js';
import { param, queryAjv } from './support.js';

describe('enumViolation', () => {
  test.each([
    ['closed enum', param('sorting', { type: 'string', enum: ['created_at', '-created_at'] }), ['not_a_known_value']],
    ['closed enum array', param('visibility', { type: 'array', items: { type: 'string', enum: ['draft', 'public'] } }), ['not_a_known_value']],
    ['open string with known values', param('status', { type: 'string', 'x-known-values': ['granted'] }), []],
    ['an enum that holds the probe value', param('odd', { type: 'string', enum: ['not_a_known_value'] }), []],
  ] as const)('%s', (_name, parameter, want) => {
    const values = enumViolation(parameter);
    expect(values.map((v) => v.value)).toEqual(want);
    for (const v of values) {
      expect(v.mutation).toBe('enum_violation');
      expect(queryAjv.validate(parameter.schema, v.value), v.value).toBe(false);
    }
  });
});
