/**
 * Parameter values as they travel in a URL: a valid value for each required query parameter, so
 * that every positive case and every probe carries them (core/spec/parameter-accepts.ts says
 * whether a value is valid).
 * @see https://spec.openapis.org/oas/v3.1.0#parameter-object
 */
import fc from 'fast-check';
import type { Operation, Parameter, Schema } from '../core/spec/load.js';
import type { QueryValues } from '../core/types.js';
import { schemaArbitrary } from './schema-value.js';
import { parameterAccepts } from '../core/spec/parameter-accepts.js';

/** The first documented example of a parameter's schema (after the OAS 3.1 upgrade: `examples[0]`), or its default, or its first enum member. */
function documentedValue(param: Parameter): unknown {
  const schema: Schema = param.schema;
  for (const candidate of [...(param.examples ?? []), Array.isArray(schema.examples) ? schema.examples[0] : undefined, schema.example, schema.default, Array.isArray(schema.enum) ? schema.enum[0] : undefined]) {
    if (candidate !== undefined && candidate !== null) return candidate;
  }
  return undefined;
}

function asQueryValue(value: unknown): string | string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) {
    const items = value.filter((v) => v !== null && v !== undefined).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    return items.length ? items : undefined;
  }
  if (typeof value === 'object') return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A valid value for one parameter: its documented example, default or first enum member when the
 * schema accepts it, else one drawn from its schema with a fixed seed; undefined when neither gives
 * a value a URL can carry (an object schema, a schema no value satisfies).
 */
export function validParameterValue(param: Parameter): string | string[] | undefined {
  const documented = asQueryValue(documentedValue(param));
  if (documented !== undefined && documented !== '' && parameterAccepts(param, documented)) return documented;
  try {
    const drawn = fc.sample(
      schemaArbitrary(param.schema, { direction: 'request', maxItems: 2 }).filter((v) => v !== null && v !== '' && !(Array.isArray(v) && (v.length === 0 || v.includes('')))),
      { seed: 1, numRuns: 1 },
    )[0];
    return asQueryValue(drawn);
  } catch {
    return undefined;
  }
}

/**
 * A valid value for every required query parameter of an operation (deepObject ones left out),
 * for positive cases and probes, which must not be refused for a parameter they left out.
 * @see https://spec.openapis.org/oas/v3.1.0#parameter-object (required)
 */
export function requiredQuery(operation: Operation): QueryValues {
  const query: QueryValues = {};
  for (const param of operation.parameters) {
    if (param.in !== 'query' || !param.required || param.style === 'deepObject') continue;
    const value = validParameterValue(param);
    if (value !== undefined) query[param.name] = value;
  }
  return query;
}
