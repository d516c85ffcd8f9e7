/**
 * Parameter values as they travel in a URL: whether a query or path value (text) is valid against
 * its parameter's schema, and a valid value for each required query parameter, so that every
 * positive case and every probe carries them.
 * @see https://spec.openapis.org/oas/v3.1.0#parameter-object
 */
import fc from 'fast-check';
import type { Operation, Parameter, Schema } from '../spec/load.js';
import type { QueryValues } from '../harness/types.js';
import { schemaArbitrary } from './schema-value.js';
import { schemaValidator } from './schema-validator.js';

/** The JSON values a text may stand for in a URL: itself, a number, a boolean or null when it reads as one. */
function readings(text: string): unknown[] {
  const out: unknown[] = [text];
  if (text.trim() !== '' && Number.isFinite(Number(text))) out.push(Number(text));
  if (text === 'true' || text === 'false') out.push(text === 'true');
  if (text === 'null') out.push(null);
  return out;
}

/** Every combination of readings of a list of texts, at most 64 (beyond that the first reading of each). */
function listReadings(texts: readonly string[]): unknown[][] {
  let combos: unknown[][] = [[]];
  for (const text of texts) {
    const next = combos.flatMap((combo) => readings(text).map((r) => [...combo, r]));
    combos = next.length > 64 ? combos.map((combo) => [...combo, readings(text)[0]]) : next;
  }
  return combos;
}

/**
 * Whether a parameter value as sent (one text, or repeated texts for an exploded array) is valid
 * against the parameter's schema under some reading of the text (a string, a number, a boolean; an
 * array of them for an array schema, one value also read as a one-item array). Lenient on purpose:
 * a value is called invalid only when no reading of it is valid, which is what makes a negative
 * case negative.
 * @param param a dereferenced parameter
 * @param value the text sent; an array for a repeated parameter
 */
export function parameterAccepts(param: Parameter, value: string | readonly string[]): boolean {
  let valid: (v: unknown) => boolean;
  try {
    valid = schemaValidator(param.schema);
  } catch {
    // A schema the validator cannot compile decides nothing: treat the value as possibly valid.
    return true;
  }
  const texts = typeof value === 'string' ? [value] : [...value];
  const candidates: unknown[] = [...listReadings(texts)];
  if (texts.length === 1) candidates.push(...readings(texts[0]!));
  // A comma-separated list (style form without explode, or simple): its items.
  if (texts.length === 1 && texts[0]!.includes(',')) candidates.push(...listReadings(texts[0]!.split(',')));
  return candidates.some((candidate) => valid(candidate));
}

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
