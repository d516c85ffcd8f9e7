// The missing_required body mutation: the valid body without one required field, per field.
import { describe, expect, test } from 'vitest';
import { missingRequired } from '../../../generators/negative/missing-required.js';
import { bodyAjv } from './support.js';

const schema = { type: 'object', required: ['name', 'size'], properties: { name: { type: 'string' }, size: { type: 'integer' }, note: { type: 'string' } } };

describe('missingRequired', () => {
  test.each([
    ['one body per required field', schema, { name: 'a.png', size: 3, note: 'x' }, [['name', { size: 3, note: 'x' }], ['size', { name: 'a.png', note: 'x' }]]],
    ['nothing required', { type: 'object', properties: { a: { type: 'string' } } }, { a: 'x' }, []],
  ] as const)('%s', (_name, s, base, want) => {
    const bodies = missingRequired({ schema: s, base, contentType: 'application/json' });
    expect(bodies.map((b) => [b.field, b.body])).toEqual(want);
    expect(bodyAjv.validate(s, base)).toBe(true);
    for (const b of bodies) {
      expect(b.mutation).toBe('missing_required');
      expect(bodyAjv.validate(s, b.body), b.field).toBe(false);
    }
  });
});
