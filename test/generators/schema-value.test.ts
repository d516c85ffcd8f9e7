// Contract tests of the schema-to-arbitrary derivation: every construct the documents use is
// declared supported, values are valid (ajv) for every body schema of both documents in both
// directions, readOnly and writeOnly are honoured, the same seed gives the same values, and
// shrinking makes values smaller.
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { SUPPORTED_FORMATS, SUPPORTED_KEYWORDS, dateTimeArbitrary, schemaArbitrary, type Direction } from '../../generators/schema-value.js';
import { schemaValidator } from '../../core/spec/schema-validator.js';
import { API_VERSIONS, type ApiVersion, type LoadedSpec, type Schema } from '../../core/spec/load.js';
import { bodySchemas, documentKeywords, loadBoth, rawDocument } from './documents.js';

const ajv = new Ajv2020({ strict: false });
(ajvFormats.default as unknown as (a: unknown) => void)(ajv);

const request = { direction: 'request' } as const;

// One row per construct: [name, schema]. Every value drawn must be valid.
const constructs: [string, Schema][] = [
  ['bounded integer', { type: 'integer', minimum: 1, maximum: 100 }],
  ['exclusive number', { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }],
  ['exclusive integer bounds', { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 3 }],
  ['multipleOf', { type: 'integer', minimum: 1, maximum: 100, multipleOf: 7 }],
  ['uuid', { type: 'string', format: 'uuid' }],
  ['date-time', { type: 'string', format: 'date-time' }],
  ['date', { type: 'string', format: 'date' }],
  ['email', { type: 'string', format: 'email' }],
  ['uri', { type: 'string', format: 'uri' }],
  ['bounded string', { type: 'string', minLength: 2, maxLength: 4 }],
  ['pattern', { type: 'string', pattern: '^[a-z]{3}-[0-9]{2}$' }],
  ['pattern and maxLength', { type: 'string', pattern: '^[a-z]+$', maxLength: 3 }],
  ['type array with null', { type: ['integer', 'null'] }],
  ['nullable (OpenAPI 3.0)', { type: 'string', nullable: true, minLength: 1 }],
  ['nullable enum', { type: ['string', 'null'], enum: ['day', 'week', null] }],
  ['enum filtered by type', { type: 'string', enum: ['a', 1, null] }],
  ['const', { const: 'product_media' }],
  ['unique enum array', { type: 'array', uniqueItems: true, items: { enum: ['a', 'b', 'c'] } }],
  ['bounded array', { type: 'array', minItems: 1, maxItems: 2, items: { type: 'boolean' } }],
  ['one or many uuids (anyOf)', { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'array', items: { type: 'string', format: 'uuid' } }] }],
  ['object with required', { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' }, n: { type: 'integer', minimum: 0 } } }],
  ['closed object', { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } } }],
  ['metadata map (additionalProperties schema)', { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } }],
  ['map with propertyNames', { type: 'object', propertyNames: { pattern: '^[a-z]{1,5}$' }, additionalProperties: { type: 'integer' } }],
  ['untyped object', { type: 'object' }],
  ['empty schema', {}],
  ['not', { type: 'integer', minimum: 0, maximum: 3, not: { const: 2 } }],
  ['allOf of objects', { allOf: [{ type: 'object', required: ['a'], properties: { a: { type: 'string' } } }, { properties: { b: { const: 1 } }, required: ['b'] }] }],
  ['allOf narrowing a property', { allOf: [{ type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: ['x', 'y'] } } }, { properties: { kind: { const: 'y' } } }] }],
  [
    'oneOf with discriminator',
    {
      oneOf: [
        { type: 'object', required: ['kind', 'n'], properties: { kind: { const: 'a' }, n: { type: 'integer' } } },
        { type: 'object', required: ['kind', 's'], properties: { kind: { const: 'b' }, s: { type: 'string' } } },
      ],
      discriminator: { propertyName: 'kind' },
    },
  ],
  ['oneOf overlapping (exclusive)', { oneOf: [{ type: 'integer', minimum: 0, maximum: 10 }, { type: 'integer', minimum: 5, maximum: 15 }] }],
  [
    'if/then/else',
    {
      type: 'object',
      required: ['legacy'],
      properties: { legacy: { type: 'boolean' }, a: { type: 'integer' }, b: { type: 'string' } },
      if: { properties: { legacy: { const: true } } },
      then: { required: ['a'] },
      else: { required: ['b'] },
    },
  ],
  [
    'the same if in two allOf parts (the price variants)',
    {
      allOf: [
        { type: 'object', properties: { legacy: { type: 'boolean' }, t: { type: 'string' } }, if: { required: ['legacy'], properties: { legacy: { const: true } } }, then: { required: ['t'] } },
        { properties: { p: { type: 'integer' } }, if: { required: ['legacy'], properties: { legacy: { const: true } } }, then: { required: ['p'] } },
      ],
    },
  ],
];

describe('schemaArbitrary on each construct', () => {
  test.each(constructs)('%s: every value is valid', (_name, schema) => {
    const validate = ajv.compile(schema);
    for (const realistic of [false, true]) {
      fc.assert(fc.property(schemaArbitrary(schema, { ...request, realistic }), (value) => validate(value)), { numRuns: 60, seed: 7 });
    }
  });

  test.each(constructs)('%s: same seed, same values', (_name, schema) => {
    const arb = schemaArbitrary(schema, request);
    expect(fc.sample(arb, { seed: 42, numRuns: 20 })).toEqual(fc.sample(arb, { seed: 42, numRuns: 20 }));
  });

  test('every alternative of a oneOf and both sides of an if are drawn', () => {
    const of = (name: string) => constructs.find(([n]) => n === name)![1];
    const kinds = new Set(fc.sample(schemaArbitrary(of('oneOf with discriminator'), request), { seed: 1, numRuns: 100 }).map((v) => (v as { kind: string }).kind));
    expect(kinds).toEqual(new Set(['a', 'b']));
    const legacy = new Set(fc.sample(schemaArbitrary(of('if/then/else'), request), { seed: 1, numRuns: 100 }).map((v) => (v as { legacy: boolean }).legacy));
    expect(legacy).toEqual(new Set([true, false]));
  });

  test.each([
    ['false', false],
    ['disjoint types', { allOf: [{ type: 'string' }, { type: 'integer' }] }],
    ['different consts', { allOf: [{ const: 1 }, { const: 2 }] }],
    ['enum outside the type', { type: 'integer', enum: ['a'] }],
    ['empty integer range', { type: 'integer', minimum: 3, maximum: 2 }],
  ] as [string, Schema | boolean][])('a schema no value satisfies throws: %s', (_name, schema) => {
    expect(() => schemaArbitrary(schema, request)).toThrow(TypeError);
  });

  test('a schema with a $ref left in it is refused', () => {
    expect(() => schemaArbitrary({ $ref: '#/components/schemas/Uuid' }, request)).toThrow(/dereferenced/);
  });

  test('a recursive schema ends: below maxDepth only required properties are drawn', () => {
    const node: Record<string, any> = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 2 } } };
    node.properties.child = node;
    const depth = (v: any): number => (v.child ? 1 + depth(v.child) : 0);
    const values = fc.sample(schemaArbitrary(node, { ...request, maxDepth: 3 }), { seed: 1, numRuns: 100 });
    expect(Math.max(...values.map(depth))).toBe(3);
  });

  test('date-times carry microseconds and UTC', () => {
    for (const value of fc.sample(dateTimeArbitrary(), { seed: 5, numRuns: 50 })) expect(value).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });
});

describe('keywords and formats of the documents', () => {
  test.each(API_VERSIONS.map((v) => [v]))('every schema keyword and format of %s is supported', (version) => {
    const { keywords, formats } = documentKeywords(rawDocument(version as ApiVersion));
    const unsupported = [...keywords].filter(([k]) => !(k in SUPPORTED_KEYWORDS)).map(([k, at]) => `${k} at ${at}`);
    expect(unsupported).toEqual([]);
    expect([...formats].filter(([f]) => !SUPPORTED_FORMATS.includes(f)).map(([f, at]) => `${f} at ${at}`)).toEqual([]);
    // The walk reaches nested constructs (not a vacuous pass).
    for (const k of ['$ref', 'allOf', 'oneOf', 'anyOf', 'if', 'then', 'discriminator', 'readOnly', 'writeOnly', 'additionalProperties', 'const']) expect(keywords.has(k), k).toBe(true);
  });

  test('a keyword the derivation does not know is reported with where it is', () => {
    const doc = { openapi: '3.1.0', paths: { '/x': { post: { requestBody: { content: { 'application/json': { schema: { type: 'array', prefixItems: [{ type: 'object', properties: { a: { type: 'string', format: 'ipv4', maxProperties: 1 } } }] } } } } } } } };
    const { keywords, formats } = documentKeywords(doc);
    expect([...keywords].filter(([k]) => !(k in SUPPORTED_KEYWORDS))).toEqual([
      ['prefixItems', '#/paths/~1x/post/requestBody/content/application/json/schema'],
      ['maxProperties', '#/paths/~1x/post/requestBody/content/application/json/schema/prefixItems/0/properties/a'],
    ]);
    expect([...formats]).toEqual([['ipv4', '#/paths/~1x/post/requestBody/content/application/json/schema/prefixItems/0/properties/a']]);
  });
});

/**
 * The properties marked with `keyword` that a value carries, as dotted paths (through allOf,
 * matching alternatives, items, maps): only the optional ones (which the direction hiding the
 * keyword must leave out), or all with `optionalOnly` false.
 */
function hiddenKeys(schema: unknown, value: unknown, keyword: 'readOnly' | 'writeOnly', at = '', optionalOnly = true): string[] {
  if (!schema || typeof schema !== 'object' || value === null || typeof value !== 'object') return [];
  const s = schema as Schema;
  const found: string[] = [];
  for (const part of s.allOf ?? []) found.push(...hiddenKeys(part, value, keyword, at, optionalOnly));
  for (const alt of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) if (schemaValidator(alt)(value)) found.push(...hiddenKeys(alt, value, keyword, at, optionalOnly));
  if (Array.isArray(value)) {
    value.forEach((item, i) => found.push(...hiddenKeys(s.items, item, keyword, `${at}[${i}]`, optionalOnly)));
    return found;
  }
  const required = new Set<string>([...(s.required ?? []), ...(s.allOf ?? []).flatMap((p: Schema) => p.required ?? [])]);
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const sub = s.properties?.[key] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    if (sub?.[keyword] === true && !(optionalOnly && required.has(key))) found.push(`${at}.${key}`);
    found.push(...hiddenKeys(sub, v, keyword, `${at}.${key}`, optionalOnly));
  }
  return found;
}

/** A copy of a (dereferenced, acyclic) schema whose `required` lists leave out the properties marked with `keyword`. */
function withoutRequired(schema: unknown, keyword: 'readOnly' | 'writeOnly'): Schema {
  const walk = (node: unknown): unknown => {
    if (!node || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map(walk);
    const out: Schema = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, ['enum', 'const', 'examples', 'default'].includes(k) ? v : walk(v)]));
    if (Array.isArray(out.required) && out.properties) out.required = out.required.filter((n: string) => out.properties[n]?.[keyword] !== true);
    return out;
  };
  return walk(schema) as Schema;
}

describe('directions', () => {
  test('readOnly properties are left out of requests, writeOnly out of responses', () => {
    const schema = { type: 'object', required: [], properties: { size_readable: { type: 'string', readOnly: true }, secret: { type: 'string', writeOnly: true } } };
    const requests = fc.sample(schemaArbitrary(schema, request), { seed: 1, numRuns: 50 }) as Record<string, unknown>[];
    const responses = fc.sample(schemaArbitrary(schema, { direction: 'response' }), { seed: 1, numRuns: 50 }) as Record<string, unknown>[];
    expect(requests.some((r) => 'size_readable' in r)).toBe(false);
    expect(requests.some((r) => 'secret' in r)).toBe(true);
    expect(responses.some((r) => 'secret' in r)).toBe(false);
    expect(responses.some((r) => 'size_readable' in r)).toBe(true);
  });

  test('a readOnly property inside an allOf part is hidden too, a required one as well (OpenAPI: its required applies to responses only)', () => {
    const schema = { allOf: [{ type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', readOnly: true }, url: { type: 'string', readOnly: true }, name: { type: 'string' } } }, { properties: { url: { minLength: 1 } } }] };
    for (const value of fc.sample(schemaArbitrary(schema, request), { seed: 2, numRuns: 50 }) as Record<string, unknown>[]) {
      expect(Object.keys(value)).toEqual(['name']);
    }
    const responses = fc.sample(schemaArbitrary(schema, { direction: 'response' }), { seed: 2, numRuns: 50 }) as Record<string, unknown>[];
    expect(responses.every((value) => 'id' in value)).toBe(true);
  });
});

describe('every body schema of both documents', () => {
  let specs: [ApiVersion, LoadedSpec][];
  beforeAll(async () => {
    specs = await loadBoth();
  });

  test.each([
    ['plain', false],
    ['realistic', true],
  ])('%s values are valid in their direction, with nothing the direction hides', (_name, realistic) => {
    let checked = 0;
    // What the direction shows does appear: a response file carries size_readable, a token request
    // client_secret. (The documents' readOnly properties are all required, so only writeOnly ones
    // are ever left out.)
    const shown = { readOnly: 0, writeOnly: 0 };
    for (const [version, spec] of specs) {
      for (const body of bodySchemas(spec)) {
        const [hidden, other] = body.direction === 'request' ? (['readOnly', 'writeOnly'] as const) : (['writeOnly', 'readOnly'] as const);
        const values = fc.sample(schemaArbitrary(body.schema, { direction: body.direction, realistic }), { seed: 9, numRuns: 8 });
        for (const value of values) {
          const result = body.validate(value);
          expect(result.ok, `${version} ${body.where}: ${JSON.stringify(value).slice(0, 300)} ${JSON.stringify(result.errors)?.slice(0, 300)}`).toBe(true);
          expect(hiddenKeys(body.schema, value, hidden), `${version} ${body.where}`).toEqual([]);
          shown[other] += hiddenKeys(body.schema, value, other, '', false).length;
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(800);
    expect(shown.readOnly).toBeGreaterThan(0);
    expect(shown.writeOnly).toBeGreaterThan(0);
  });

  test('the other direction of the schemas that hide something: valid, and hiding the other keyword', () => {
    const opposite: Record<Direction, Direction> = { request: 'response', response: 'request' };
    let checked = 0;
    for (const [, spec] of specs) {
      for (const body of bodySchemas(spec)) {
        const text = JSON.stringify(body.schema);
        if (!text.includes('"readOnly":true') && !text.includes('"writeOnly":true')) continue;
        const direction = opposite[body.direction];
        const hidden = direction === 'request' ? 'readOnly' : 'writeOnly';
        // Drawn in the other direction, a required property that direction hides is left out: valid
        // against the schema with those left out of `required` (OpenAPI's readOnly/writeOnly).
        const valid = schemaValidator(withoutRequired(body.schema, hidden));
        for (const value of fc.sample(schemaArbitrary(body.schema, { direction }), { seed: 3, numRuns: 8 })) {
          expect(valid(value), body.where).toBe(true);
          expect(hiddenKeys(body.schema, value, hidden), body.where).toEqual([]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  test('every discriminated oneOf gives its mapping keys, each alternative drawn', () => {
    for (const [version, spec] of specs) {
      for (const [name, schema] of Object.entries<Schema>(spec.document.components.schemas)) {
        if (!schema.discriminator) continue;
        const { propertyName, mapping } = schema.discriminator as { propertyName: string; mapping: Record<string, string> };
        const drawn = new Set(fc.sample(schemaArbitrary(schema, { direction: 'response' }), { seed: 4, numRuns: 120 }).map((v) => (v as Record<string, unknown>)[propertyName]));
        expect(drawn, `${version} ${name}`).toEqual(new Set(Object.keys(mapping)));
      }
    }
  });

  test('every query and path parameter schema is supported and valid', () => {
    for (const [version, spec] of specs) {
      for (const operation of spec.operations) {
        for (const param of operation.parameters) {
          const validate = ajv.compile(param.schema);
          for (const value of fc.sample(schemaArbitrary(param.schema, request), { seed: 9, numRuns: 20 })) {
            expect(validate(value), `${version} ${operation.operationId} ${param.name} ${JSON.stringify(value)}`).toBe(true);
          }
        }
      }
    }
  });

  test('same seed, same bodies', () => {
    const [, spec] = specs[0]!;
    for (const body of bodySchemas(spec).filter((b) => b.where.includes(' 200 ') || b.direction === 'request')) {
      const arb = schemaArbitrary(body.schema, { direction: body.direction, realistic: true });
      expect(fc.sample(arb, { seed: 77, numRuns: 3 }), body.where).toEqual(fc.sample(arb, { seed: 77, numRuns: 3 }));
    }
  });
});

describe('shrinking', () => {
  const counterexample = <T>(arb: fc.Arbitrary<T>, holds: (v: T) => boolean, seed = 3): T => {
    const details = fc.check(fc.property(arb, holds), { seed });
    expect(details.failed).toBe(true);
    return details.counterexample![0];
  };

  test('a failing integer shrinks to the smallest counterexample', () => {
    expect(counterexample(schemaArbitrary({ type: 'integer', minimum: 1, maximum: 100 }, request) as fc.Arbitrary<number>, (n) => n < 37)).toBe(37);
  });

  test('a string fails on length and shrinks to the shortest failing one', () => {
    const found = counterexample(schemaArbitrary({ type: 'string', maxLength: 20 }, request) as fc.Arbitrary<string>, (s) => s.length < 5);
    expect(found).toHaveLength(5);
  });

  test('an array shrinks to the fewest, smallest items', () => {
    expect(counterexample(schemaArbitrary({ type: 'array', items: { type: 'integer', minimum: 0, maximum: 9 } }, request) as fc.Arbitrary<number[]>, (a) => a.length < 3)).toEqual([0, 0, 0]);
  });

  test('an object shrinks to its required keys and the one that fails', () => {
    const schema = { type: 'object', required: ['count'], properties: { count: { type: 'integer', minimum: 0, maximum: 50 }, note: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } };
    const found = counterexample(schemaArbitrary(schema, request) as fc.Arbitrary<Record<string, unknown>>, (o) => !('note' in o));
    expect(found).toEqual({ count: 0, note: '' });
  });

  test('a realistic value shrinks through the plain one', () => {
    const schema = { type: 'object', required: ['billing_name'], properties: { billing_name: { type: 'string' } } };
    const found = counterexample(schemaArbitrary(schema, { ...request, realistic: true }) as fc.Arbitrary<{ billing_name: string }>, (o) => o.billing_name.length < 4);
    expect(found.billing_name).toHaveLength(4);
  });
});
