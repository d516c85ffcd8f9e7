// Parameter values as a URL carries them: when a text is valid against its parameter's schema
// (under any reading of it), and the valid value a required parameter gets.
import { describe, expect, test } from 'vitest';
import { requiredQuery, validParameterValue } from '../../generators/parameter-value.js';
import { parameterAccepts } from '../../core/spec/parameter-accepts.js';
import type { Operation, Parameter } from '../../core/spec/load.js';

const param = (schema: Record<string, unknown>, extra: Partial<Parameter> = {}): Parameter => ({ name: 'p', in: 'query', required: false, schema, style: 'form', explode: true, ...extra });

describe('parameterAccepts', () => {
  test.each<[string, Record<string, unknown>, string | string[], boolean]>([
    ['an integer text', { type: 'integer', minimum: 1 }, '5', true],
    ['a text that is no integer', { type: 'integer' }, 'abc', false],
    ['an integer out of range', { type: 'integer', maximum: 10 }, '11', false],
    ['a string that reads as a number is still a string', { type: 'string' }, '12', true],
    ['a boolean', { type: 'boolean' }, 'true', true],
    ['no boolean', { type: 'boolean' }, 'maybe', false],
    ['an enum member', { type: 'string', enum: ['a', 'b'] }, 'b', true],
    ['no enum member', { type: 'string', enum: ['a', 'b'] }, 'c', false],
    ['repeated items of an array', { type: 'array', items: { type: 'integer' } }, ['1', '2'], true],
    ['one item of an array', { type: 'array', items: { type: 'integer' } }, '1', true],
    ['comma-separated items', { type: 'array', items: { type: 'integer' } }, '1,2', true],
    ['an item of the wrong type', { type: 'array', items: { type: 'integer' } }, ['1', 'x'], false],
    ['a one-or-many union', { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'array', items: { type: 'string', format: 'uuid' } }] }, 'not-a-uuid', false],
  ])('%s', (_name, schema, value, valid) => {
    expect(parameterAccepts(param(schema), value)).toBe(valid);
  });
});

describe('validParameterValue', () => {
  test.each<[string, Parameter, string | string[] | undefined]>([
    ['the documented example first', param({ type: 'string' }, { examples: ['acme'] }), 'acme'],
    ['the schema default', param({ type: 'integer', default: 7 }), '7'],
    ['the first enum member', param({ type: 'string', enum: ['leaf', 'branch'] }), 'leaf'],
    ['an example its schema rejects is not used', param({ type: 'integer', maximum: 3, examples: [9] }), undefined],
  ])('%s', (_name, p, want) => {
    const got = validParameterValue(p);
    if (want !== undefined) expect(got).toEqual(want);
    expect(got).toBeDefined();
    expect(parameterAccepts(p, got!)).toBe(true);
    expect(got).not.toBe('');
  });

  test('an object schema gives no query value', () => {
    expect(validParameterValue(param({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }))).toBeUndefined();
  });
});

describe('requiredQuery', () => {
  test('a value for each required query parameter, none for optional, header or deepObject ones', () => {
    const operation = {
      parameters: [
        param({ type: 'string', enum: ['x'] }, { name: 'kind', required: true }),
        param({ type: 'integer' }, { name: 'limit' }),
        param({ type: 'string' }, { name: 'X-Key', in: 'header', required: true }),
        param({ type: 'object' }, { name: 'metadata', required: true, style: 'deepObject' }),
      ],
    } as unknown as Operation;
    expect(requiredQuery(operation)).toEqual({ kind: 'x' });
  });
});
