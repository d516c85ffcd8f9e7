// The wrong_type body mutation: one field of a single declared type given another type (JSON only).
import { describe, expect, test } from 'vitest';
import { wrongType } from '../../../generators/negative/wrong-type.js';
import { bodyAjv } from './support.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    size: { type: 'integer' },
    parts: { type: 'array', items: { type: 'integer' } },
    either: { type: ['string', 'null'] },
    size_readable: { type: 'string', readOnly: true },
  },
};
const base = { name: 'a', size: 1, parts: [1], either: null };

describe('wrongType', () => {
  test('one body per single-typed, writable field, each invalid', () => {
    const bodies = wrongType({ schema, base, contentType: 'application/json' });
    expect(bodies.map((b) => [b.field, b.body[b.field]])).toEqual([['name', 12345], ['size', 'abc'], ['parts', 'not-a-list']]);
    expect(bodyAjv.validate(schema, base)).toBe(true);
    for (const b of bodies) {
      expect(b.mutation).toBe('wrong_type');
      expect(bodyAjv.validate(schema, b.body), b.field).toBe(false);
    }
  });

  test('a form body carries only text: nothing', () => {
    expect(wrongType({ schema, base, contentType: 'application/x-www-form-urlencoded' })).toEqual([]);
  });
});
