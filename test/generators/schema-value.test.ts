// Contract tests of the schema-to-arbitrary derivation: determinism, validity against ajv, shrinking.
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { dateTimeArbitrary, schemaArbitrary } from '../../generators/schema-value.js';
import { loadSpec } from '../../spec/load.js';

const ajv = new Ajv2020({ strict: false });
(ajvFormats.default as unknown as (a: unknown) => void)(ajv);

const schemas: [string, Record<string, unknown>][] = [
  ['bounded integer', { type: 'integer', minimum: 1, maximum: 100 }],
  ['exclusive number', { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }],
  ['uuid', { type: 'string', format: 'uuid' }],
  ['date-time', { type: 'string', format: 'date-time' }],
  ['bounded string', { type: 'string', minLength: 2, maxLength: 4 }],
  ['pattern', { type: 'string', pattern: '^[a-z]{3}-[0-9]{2}$' }],
  ['nullable enum', { type: ['string', 'null'], enum: ['day', 'week', null] }],
  ['unique enum array', { type: 'array', uniqueItems: true, items: { enum: ['a', 'b', 'c'] } }],
  ['one or many uuids', { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'array', items: { type: 'string', format: 'uuid' } }] }],
  ['object with required', { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' }, n: { type: 'integer', minimum: 0 } } }],
  ['metadata map', { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } }],
  ['const', { const: 'product_media' }],
];

describe('schemaArbitrary', () => {
  test.each(schemas)('%s: every value is valid', (_name, schema) => {
    const validate = ajv.compile(schema);
    fc.assert(fc.property(schemaArbitrary(schema, { direction: 'request' }), (value) => validate(value)), { numRuns: 200, seed: 7 });
  });

  test.each(schemas)('%s: same seed, same values', (_name, schema) => {
    const arb = schemaArbitrary(schema, { direction: 'request' });
    expect(fc.sample(arb, { seed: 42, numRuns: 20 })).toEqual(fc.sample(arb, { seed: 42, numRuns: 20 }));
  });

  test('shrinking a failing integer goes to the smallest counterexample', () => {
    const details = fc.check(fc.property(schemaArbitrary({ type: 'integer', minimum: 1, maximum: 100 }, { direction: 'request' }), (n) => (n as number) < 37), { seed: 3 });
    expect(details.counterexample).toEqual([37]);
  });

  test('readOnly properties are left out of requests, writeOnly out of responses', () => {
    const schema = { type: 'object', required: [], properties: { size_readable: { type: 'string', readOnly: true }, secret: { type: 'string', writeOnly: true } } };
    const requests = fc.sample(schemaArbitrary(schema, { direction: 'request' }), { seed: 1, numRuns: 50 }) as Record<string, unknown>[];
    const responses = fc.sample(schemaArbitrary(schema, { direction: 'response' }), { seed: 1, numRuns: 50 }) as Record<string, unknown>[];
    expect(requests.some((r) => 'size_readable' in r)).toBe(false);
    expect(requests.some((r) => 'secret' in r)).toBe(true);
    expect(responses.some((r) => 'secret' in r)).toBe(false);
    expect(responses.some((r) => 'size_readable' in r)).toBe(true);
  });

  test('date-times carry microseconds and UTC', () => {
    for (const value of fc.sample(dateTimeArbitrary(), { seed: 5, numRuns: 50 })) expect(value).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  test('every query parameter schema of the bundled spec is supported and valid', async () => {
    const spec = await loadSpec();
    for (const operation of spec.operations) {
      for (const param of operation.parameters) {
        const validate = ajv.compile(param.schema);
        for (const value of fc.sample(schemaArbitrary(param.schema, { direction: 'request' }), { seed: 9, numRuns: 30 })) {
          expect(validate(value), `${operation.operationId} ${param.name} ${JSON.stringify(value)}`).toBe(true);
        }
      }
    }
  });
});
