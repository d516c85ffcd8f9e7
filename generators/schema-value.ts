/**
 * JSON Schema (OpenAPI 3.0 and 3.1 dialects) to fast-check: arbitraries of values that are valid
 * against a schema. Covers what parameter and body schemas use: const, enum, type (and type
 * arrays, `nullable`), string formats (uuid, date-time, date, email, uri), lengths and pattern,
 * numeric bounds, arrays, objects, anyOf/oneOf and allOf of objects.
 * @see https://json-schema.org/draft/2020-12/json-schema-validation
 */
import fc from 'fast-check';
import type { Schema } from '../spec/load.js';

/** Which side of the API the values are for: readOnly properties are left out of requests, writeOnly out of responses. */
export type Direction = 'request' | 'response';

/** Options of {@link schemaArbitrary}. */
export interface SchemaArbitraryConstraints {
  direction: Direction;
  /** Largest array length and string length to generate; keeps cases small. Default 5 and 24. */
  maxItems?: number;
  maxStringLength?: number;
}

const EPOCH_2020 = Date.UTC(2020, 0, 1);
const EPOCH_2030 = Date.UTC(2030, 0, 1);

/** An ISO 8601 UTC date-time with microseconds, between 2020 and 2030. */
export function dateTimeArbitrary(): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min: EPOCH_2020, max: EPOCH_2030 }), fc.integer({ min: 0, max: 999 }))
    .map(([ms, micros]) => new Date(ms).toISOString().replace('Z', `${String(micros).padStart(3, '0')}Z`));
}

/** Integers with a bias towards the bounds: min, min+1, max-1, max, then anything between. */
export function boundedIntegerArbitrary(min: number, max: number): fc.Arbitrary<number> {
  const edges = [...new Set([min, min + 1, max - 1, max].filter((v) => v >= min && v <= max))];
  return fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...edges) }, { weight: 2, arbitrary: fc.integer({ min, max }) });
}

function typesOf(schema: Schema): string[] {
  const types: string[] = Array.isArray(schema.type) ? [...schema.type] : schema.type ? [schema.type] : [];
  if (schema.nullable === true && !types.includes('null')) types.push('null');
  return types;
}

function stringArbitrary(schema: Schema, max: number): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return dateTimeArbitrary();
    case 'date':
      return dateTimeArbitrary().map((s) => s.slice(0, 10));
    case 'email':
      return fc.emailAddress();
    case 'uri':
    case 'url':
      return fc.webUrl();
  }
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern));
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? max, max));
  return fc.string({ minLength, maxLength });
}

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  // OAS 3.0 writes exclusive bounds as booleans beside minimum/maximum; 3.1 as numbers.
  let min: number | undefined = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : schema.minimum;
  let max: number | undefined = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : schema.maximum;
  const exclusiveMin = typeof schema.exclusiveMinimum === 'number' || schema.exclusiveMinimum === true;
  const exclusiveMax = typeof schema.exclusiveMaximum === 'number' || schema.exclusiveMaximum === true;
  if (integer) {
    if (min !== undefined) min = exclusiveMin ? Math.floor(min) + 1 : Math.ceil(min);
    if (max !== undefined) max = exclusiveMax ? Math.ceil(max) - 1 : Math.floor(max);
    const lo = min ?? (max !== undefined ? max - 1000 : -1000);
    const hi = max ?? lo + 1000;
    return boundedIntegerArbitrary(lo, hi);
  }
  return fc.double({
    min: min ?? -1e6,
    max: max ?? 1e6,
    minExcluded: exclusiveMin,
    maxExcluded: exclusiveMax,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

function objectArbitrary(schema: Schema, options: Required<SchemaArbitraryConstraints>): fc.Arbitrary<Record<string, unknown>> {
  const hidden = options.direction === 'request' ? 'readOnly' : 'writeOnly';
  const properties: Record<string, Schema> = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of Object.entries(properties)) {
    if (sub?.[hidden] === true && !required.has(name)) continue;
    model[name] = schemaArbitrary(sub, options);
  }
  const requiredKeys = Object.keys(model).filter((k) => required.has(k));
  const fixed = fc.record(model, { requiredKeys });
  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object' && Object.keys(properties).length === 0) {
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), schemaArbitrary(extra, options), { maxKeys: options.maxItems });
  }
  return fixed;
}

/**
 * An arbitrary of values valid against `schema` (already dereferenced).
 * @param schema a JSON Schema object; `{}` or `true` gives any JSON value
 * @param constraints direction (readOnly/writeOnly) and size bounds
 */
export function schemaArbitrary(schema: Schema | boolean | undefined, constraints: SchemaArbitraryConstraints): fc.Arbitrary<unknown> {
  const options: Required<SchemaArbitraryConstraints> = { maxItems: 5, maxStringLength: 24, ...constraints };
  if (schema === undefined || schema === true) return fc.jsonValue({ maxDepth: 2 });
  if (schema === false) throw new TypeError('no value is valid against the schema false');
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const alternatives: Schema[] | undefined = schema.oneOf ?? schema.anyOf;
  if (alternatives) return fc.oneof(...alternatives.map((alt) => schemaArbitrary({ ...alt }, options)));
  if (Array.isArray(schema.allOf)) {
    const merged: Schema = { type: 'object', properties: {}, required: [] };
    for (const part of schema.allOf as Schema[]) {
      Object.assign(merged.properties, part.properties ?? {});
      merged.required.push(...(part.required ?? []));
    }
    return objectArbitrary(merged, options);
  }
  const types = typesOf(schema);
  const arbitraries = (types.length ? types : ['string', 'integer', 'boolean']).map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return numberArbitrary(schema, true);
      case 'number':
        return numberArbitrary(schema, false);
      case 'string':
        return stringArbitrary(schema, options.maxStringLength);
      case 'array': {
        const items = schemaArbitrary(schema.items ?? {}, options);
        const minLength = schema.minItems ?? 0;
        const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? options.maxItems, options.maxItems));
        return schema.uniqueItems
          ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
          : fc.array(items, { minLength, maxLength });
      }
      case 'object':
        return objectArbitrary(schema, options);
      default:
        throw new TypeError(`unsupported schema type ${type}`);
    }
  });
  return arbitraries.length === 1 ? arbitraries[0]! : fc.oneof(...arbitraries);
}
