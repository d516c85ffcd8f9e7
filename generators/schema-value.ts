/**
 * JSON Schema (OpenAPI 3.1, and the `nullable` of 3.0) to fast-check: arbitraries of values that
 * are valid against a dereferenced schema, for one direction of the API (readOnly properties left
 * out of requests, writeOnly ones out of responses). {@link SUPPORTED_KEYWORDS} lists every
 * keyword the derivation honours; a test fails when a document uses one that is not there.
 *
 * How: a schema is first expanded into a choice of flat branches (no allOf, anyOf, oneOf, if,
 * then, else, not), each a merge of the parts it takes, with the schemas its values must still
 * match or must not match (the other alternatives of a oneOf, a failed `if`, a `not`); each branch
 * is then derived keyword by keyword, and those last checks filter its values.
 * @see https://json-schema.org/draft/2020-12/json-schema-validation
 * @see https://spec.openapis.org/oas/v3.1.0#schema-object
 */
import fc from 'fast-check';
import type { Schema } from '../core/spec/load.js';
import { fakerKindFor, realisticArbitrary } from './faker-value.js';
import { schemaValidator } from '../core/spec/schema-validator.js';

/** Which side of the API the values are for: readOnly properties are left out of requests, writeOnly out of responses, even when required. */
export type Direction = 'request' | 'response';

/** Options of {@link schemaArbitrary}. */
export interface SchemaArbitraryConstraints {
  direction: Direction;
  /** Largest array length and map size to generate; keeps cases small. Default 5. */
  maxItems?: number;
  /** Largest string length to generate where the schema allows more. Default 24. */
  maxStringLength?: number;
  /**
   * Realistic values for strings and integers whose `format` or property name says what they hold
   * (names, emails, address lines, amounts in cents, currency codes; see faker-value.ts), and the
   * `x-known-values` of open strings; every one still valid against the schema. Default false.
   */
  realistic?: boolean;
  /** Object nesting beyond which optional properties and array items are left out, so that recursive schemas end. Default 10. */
  maxDepth?: number;
}

/**
 * Every schema keyword the derivation honours, with how. Annotations change no value but are
 * listed so that the list is complete for the documents we ship.
 */
export const SUPPORTED_KEYWORDS: Readonly<Record<string, string>> = {
  type: 'one arbitrary per type; a type array (with "null") is a choice; absent, the type is implied by the other keywords',
  nullable: 'OpenAPI 3.0: adds null to the type',
  const: 'that value',
  enum: 'one of the members the rest of the schema accepts',
  format: 'uuid, date-time, date, email, uri, url (see SUPPORTED_FORMATS); another format gives a plain string',
  pattern: 'a string matching the regular expression (fast-check stringMatching)',
  minLength: 'lower bound of string length', maxLength: 'upper bound of string length (capped by maxStringLength)',
  minimum: 'inclusive lower bound', maximum: 'inclusive upper bound',
  exclusiveMinimum: 'exclusive lower bound (a number; the boolean of OpenAPI 3.0 too)',
  exclusiveMaximum: 'exclusive upper bound (a number; the boolean of OpenAPI 3.0 too)',
  multipleOf: 'whole multiples of it',
  items: 'the schema of every item', minItems: 'lower bound of array length', maxItems: 'upper bound of array length (capped)',
  uniqueItems: 'distinct items (by JSON text)',
  properties: 'a record of the properties, the hidden ones of the direction left out',
  required: 'keys always present',
  additionalProperties: 'false: only declared keys; a schema: a map of its values when no property is declared',
  propertyNames: 'the keys of a map drawn from its schema',
  allOf: 'the merge of all parts',
  anyOf: 'a choice of the alternatives, each merged with the sibling keywords',
  oneOf: 'a choice of the alternatives, values matching another alternative filtered out',
  not: 'values matching it filtered out',
  if: 'a choice: the if and then schemas merged in, or values failing if with else merged in',
  then: 'see if',
  else: 'see if',
  discriminator: 'annotation: each alternative pins its property with const, which oneOf derives',
  readOnly: 'left out of requests, required or not (OpenAPI: its `required` applies to responses only)',
  writeOnly: 'left out of responses, required or not (OpenAPI: its `required` applies to requests only)',
  $ref: 'resolved before derivation (core/spec/load.ts dereferences); a remaining $ref is an error',
  title: 'annotation', description: 'annotation', default: 'annotation', examples: 'annotation', example: 'annotation',
  deprecated: 'annotation', $comment: 'annotation',
  'x-known-values': 'annotation of an open string: with `realistic`, the known values are drawn often',
};

/** The `format` values given a generator of their own; any other format is an annotation here. */
export const SUPPORTED_FORMATS: readonly string[] = ['uuid', 'date-time', 'date', 'email', 'uri', 'url'];

const EPOCH_2020 = Date.UTC(2020, 0, 1);
const EPOCH_2030 = Date.UTC(2030, 0, 1);

/** An ISO 8601 UTC date-time with microseconds, between 2020 and 2030. */
export function dateTimeArbitrary(): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min: EPOCH_2020, max: EPOCH_2030 }), fc.integer({ min: 0, max: 999 }))
    .map(([ms, micros]) => new Date(ms).toISOString().replace('Z', `${String(micros).padStart(3, '0')}Z`));
}

const URL_CHARACTER = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789');

/**
 * An http(s) URL with a lower-case host and a short path (`https://a1.io/x/y`). Lighter than
 * fc.webUrl, whose first use builds the whole domain grammar (about a second).
 */
export function webUrlArbitrary(): fc.Arbitrary<string> {
  const word = fc.string({ unit: URL_CHARACTER, minLength: 1, maxLength: 10 });
  return fc
    .tuple(fc.constantFrom('https', 'http'), word, fc.constantFrom('com', 'org', 'net', 'io', 'dev', 'example'), fc.array(word, { maxLength: 3 }))
    .map(([scheme, host, tld, path]) => `${scheme}://${host}.${tld}/${path.join('/')}`);
}

/** Integers with a bias towards the bounds: min, min+1, max-1, max, then anything between. */
export function boundedIntegerArbitrary(min: number, max: number): fc.Arbitrary<number> {
  const edges = [...new Set([min, min + 1, max - 1, max].filter((v) => v >= min && v <= max))];
  return fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...edges) }, { weight: 2, arbitrary: fc.integer({ min, max }) });
}

/** A flat schema (no combinator) with the schemas its values must match and must not match. */
interface Branch {
  schema: Schema;
  require: (Schema | boolean)[];
  reject: (Schema | boolean)[];
}

/** A branch, or a choice (array) of trees. */
type Tree = Branch | Tree[];

/** Where a value is derived: options, nesting depth, and the property it fills (for realistic values). */
interface Context {
  options: Required<SchemaArbitraryConstraints>;
  depth: number;
  name?: string;
  siblings?: readonly string[];
}

const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'example', 'deprecated', '$comment', 'discriminator']);
const LOWER_BOUNDS = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const UPPER_BOUNDS = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);
const SUBSCHEMAS = new Set(['items', 'additionalProperties', 'propertyNames']);

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function typeList(schema: Schema): string[] | undefined {
  if (schema.type === undefined) return undefined;
  const types: string[] = Array.isArray(schema.type) ? [...schema.type] : [schema.type];
  if (schema.nullable === true && !types.includes('null')) types.push('null');
  return types;
}

/** The types both lists allow; integer is a number. */
function intersectTypes(a: string[], b: string[]): string[] {
  const out = new Set<string>();
  for (const t of a) {
    if (b.includes(t)) out.add(t);
    else if (t === 'integer' && b.includes('number')) out.add('integer');
    else if (t === 'number' && b.includes('integer')) out.add('integer');
  }
  return [...out];
}

/**
 * The conjunction of two flat schemas, or undefined when no value can satisfy both (disjoint
 * types, different consts, enums without a common member). Keywords that cannot be merged (two
 * patterns, two formats) are returned in `require`, to be checked on the values.
 */
function mergeSchemas(a: Schema, b: Schema): { schema: Schema; require: Schema[] } | undefined {
  const out: Schema = { ...a };
  const require: Schema[] = [];
  const [typesA, typesB] = [typeList(a), typeList(b)];
  if (typesA && typesB) {
    const types = intersectTypes(typesA, typesB);
    if (types.length === 0) return undefined;
    delete out.nullable;
    out.type = types.length === 1 ? types[0] : types;
  } else if (typesB) {
    delete out.nullable;
    out.type = typesB.length === 1 ? typesB[0] : typesB;
  }
  for (const [key, value] of Object.entries(b)) {
    if (key === 'type' || key === 'nullable') continue;
    if (!(key in out)) {
      out[key] = value;
      continue;
    }
    const mine = out[key];
    if (ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
    if (key === 'properties') {
      const properties: Record<string, Schema | boolean> = { ...mine };
      for (const [name, sub] of Object.entries<Schema | boolean>(value)) properties[name] = name in properties ? { allOf: [properties[name]!, sub] } : sub;
      out.properties = properties;
    } else if (key === 'required') {
      out.required = [...new Set([...mine, ...value])];
    } else if (key === 'const') {
      if (!sameJson(mine, value)) return undefined;
    } else if (key === 'enum') {
      const common = (mine as unknown[]).filter((m) => (value as unknown[]).some((v) => sameJson(m, v)));
      if (common.length === 0) return undefined;
      out.enum = common;
    } else if (typeof mine === 'number' && typeof value === 'number' && LOWER_BOUNDS.has(key)) {
      out[key] = Math.max(mine, value);
    } else if (typeof mine === 'number' && typeof value === 'number' && UPPER_BOUNDS.has(key)) {
      out[key] = Math.min(mine, value);
    } else if (SUBSCHEMAS.has(key)) {
      if (mine === false || value === true) continue;
      out[key] = mine === true || value === false ? value : { allOf: [mine, value] };
    } else if (typeof mine === 'boolean' && typeof value === 'boolean') {
      // uniqueItems, readOnly, writeOnly, and the boolean exclusive bounds of OpenAPI 3.0.
      out[key] = mine || value;
    } else if (!sameJson(mine, value)) {
      // Two patterns, two formats, two multipleOf: keep one, check the other on the values.
      require.push({ [key]: value });
    }
  }
  // additionalProperties of one part does not see the properties of another (allOf semantics).
  for (const [side, other] of [[a, b], [b, a]] as const) {
    const added = Object.keys(other.properties ?? {}).filter((n) => !(n in (side.properties ?? {})));
    if (side.additionalProperties !== undefined && side.additionalProperties !== true && added.length) {
      require.push({ properties: side.properties ?? {}, additionalProperties: side.additionalProperties });
    }
  }
  return { schema: out, require };
}

function choice(trees: (Tree | undefined)[]): Tree | undefined {
  const kept = trees.filter((t): t is Tree => t !== undefined);
  if (kept.length === 0) return undefined;
  return kept.length === 1 ? kept[0] : kept;
}

function cross(a: Tree | undefined, b: Tree | undefined): Tree | undefined {
  if (a === undefined || b === undefined) return undefined;
  if (Array.isArray(a)) return choice(a.map((t) => cross(t, b)));
  if (Array.isArray(b)) return choice(b.map((t) => cross(a, t)));
  const merged = mergeSchemas(a.schema, b.schema);
  if (!merged) return undefined;
  return { schema: merged.schema, require: [...a.require, ...b.require, ...merged.require], reject: [...a.reject, ...b.reject] };
}

function withReject(tree: Tree | undefined, rejected: (Schema | boolean)[]): Tree | undefined {
  if (tree === undefined || rejected.length === 0) return tree;
  if (Array.isArray(tree)) return choice(tree.map((t) => withReject(t, rejected)));
  return { ...tree, reject: [...tree.reject, ...rejected] };
}

/** Schemas being expanded, to cut a cycle through combinators (`A = {oneOf: [A, …]}`) after dereferencing. */
const expanding = new Set<object>();

/** The choice of flat branches of a schema; undefined when no value is valid (or the schema only recurses into itself). */
function expand(schema: Schema | boolean | undefined): Tree | undefined {
  if (schema === undefined || schema === true) return { schema: {}, require: [], reject: [] };
  if (schema === false) return undefined;
  if (expanding.has(schema)) return undefined;
  expanding.add(schema);
  try {
    return expandOnce(schema);
  } finally {
    expanding.delete(schema);
  }
}

function expandOnce(schema: Schema): Tree | undefined {
  if (typeof schema.$ref === 'string') throw new TypeError(`schemaArbitrary needs a dereferenced schema; found $ref ${schema.$ref}`);
  const { allOf, anyOf, oneOf, if: condition, then, else: otherwise, not, ...rest } = schema;
  let tree: Tree | undefined = { schema: rest, require: [], reject: not !== undefined ? [not] : [] };
  for (const part of (allOf ?? []) as Schema[]) tree = cross(tree, expand(part));
  if (Array.isArray(anyOf)) tree = cross(tree, choice(anyOf.map((alt: Schema) => expand(alt))));
  if (Array.isArray(oneOf)) {
    tree = cross(tree, choice(oneOf.map((alt: Schema, i: number) => withReject(expand(alt), oneOf.filter((_: Schema, j: number) => j !== i)))));
  }
  if (condition !== undefined && (then !== undefined || otherwise !== undefined)) {
    tree = cross(tree, choice([cross(expand(condition), expand(then)), withReject(expand(otherwise), [condition])]));
  }
  return tree;
}

/** Whether a property is hidden in the direction (`readOnly` in requests), looking through allOf. */
function isHidden(schema: Schema | boolean, keyword: 'readOnly' | 'writeOnly'): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  return schema[keyword] === true || ((schema.allOf ?? []) as Schema[]).some((part) => isHidden(part, keyword));
}

/** The types a flat schema allows: its `type` (and `nullable`), else those its keywords imply, else none (any JSON value). */
function typesOf(schema: Schema): string[] {
  const declared = typeList(schema);
  if (declared) return declared;
  const implied: string[] = [];
  const has = (...keys: string[]) => keys.some((k) => k in schema);
  if (has('properties', 'required', 'additionalProperties', 'propertyNames', 'minProperties', 'maxProperties')) implied.push('object');
  if (has('items', 'minItems', 'maxItems', 'uniqueItems')) implied.push('array');
  if (has('minLength', 'maxLength', 'pattern', 'format')) implied.push('string');
  if (has('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf')) implied.push('number');
  return implied;
}

/** Any small JSON value, for a schema that constrains nothing. */
function anyJsonArbitrary(): fc.Arbitrary<unknown> {
  return fc.jsonValue({ maxDepth: 1 });
}

/** Lookaround assertions, which fast-check's stringMatching cannot generate: `(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)` without nesting. */
const LOOKAROUND = /\(\?<?[=!](?:[^()\\]|\\.)*\)/g;

/**
 * Strings matching a schema's `pattern` (ECMA-262 regular expression, OAS 3.1 section 4.3): fast-check's
 * stringMatching where it can; for a pattern with lookaround (which it cannot generate), strings of the
 * pattern without its lookarounds, filtered by the whole pattern, or else the schema's documented
 * values that match. Undefined when neither gives a value (the case is then left out with that reason).
 */
function patternArbitrary(schema: Schema): fc.Arbitrary<string> | undefined {
  let full: RegExp;
  try {
    full = new RegExp(schema.pattern, 'u');
  } catch {
    try {
      full = new RegExp(schema.pattern);
    } catch {
      return undefined;
    }
  }
  try {
    return fc.stringMatching(new RegExp(schema.pattern));
  } catch {
    // Lookaround or another construct fast-check does not generate: below.
  }
  const documented = [...(Array.isArray(schema.examples) ? schema.examples : []), schema.example, schema.default].filter((v): v is string => typeof v === 'string' && full.test(v));
  let stripped: fc.Arbitrary<string> | undefined;
  try {
    const loose = fc.stringMatching(new RegExp(String(schema.pattern).replace(LOOKAROUND, '')));
    // Filtering an arbitrary whose values never match would never end: tried on samples first.
    const feasible = PROBES.some((numRuns, seed) => fc.sample(loose, { seed, numRuns }).some((v) => full.test(v)));
    stripped = feasible ? loose.filter((v) => full.test(v)) : undefined;
  } catch {
    stripped = undefined;
  }
  if (stripped && documented.length) return fc.oneof(stripped, fc.constantFrom(...documented));
  return stripped ?? (documented.length ? fc.constantFrom(...documented) : undefined);
}

function stringArbitrary(schema: Schema, ctx: Context): fc.Arbitrary<string> | undefined {
  const minLength: number = schema.minLength ?? 0;
  const withinLength = (s: string) => [...s].length >= minLength && (schema.maxLength === undefined || [...s].length <= schema.maxLength);
  let plain: fc.Arbitrary<string>;
  switch (schema.format) {
    case 'uuid':
      plain = fc.uuid();
      break;
    case 'date-time':
      plain = dateTimeArbitrary();
      break;
    case 'date':
      plain = dateTimeArbitrary().map((s) => s.slice(0, 10));
      break;
    case 'email':
      plain = fc.emailAddress();
      break;
    case 'uri':
    case 'url':
      plain = webUrlArbitrary();
      break;
    default:
      if (typeof schema.pattern === 'string') {
        const matching = patternArbitrary(schema);
        if (!matching) return undefined;
        plain = matching;
      } else {
        const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? ctx.options.maxStringLength, ctx.options.maxStringLength));
        plain = fc.string({ minLength, maxLength });
      }
  }
  if (schema.format !== undefined || typeof schema.pattern === 'string') {
    if (schema.minLength !== undefined || schema.maxLength !== undefined) plain = plain.filter(withinLength);
    if (schema.format !== undefined && typeof schema.pattern === 'string') {
      const pattern = new RegExp(schema.pattern, 'u');
      plain = plain.filter((s) => pattern.test(s));
    }
  }
  if (!ctx.options.realistic) return plain;
  const valid = schemaValidator({ ...schema, type: 'string' });
  const kind = fakerKindFor({ type: 'string', format: schema.format, name: ctx.name, siblings: ctx.siblings });
  let arbitrary = kind ? realisticArbitrary(kind, plain, valid) : plain;
  const known = Array.isArray(schema['x-known-values']) ? (schema['x-known-values'] as unknown[]).filter((v): v is string => typeof v === 'string' && valid(v)) : [];
  if (known.length) arbitrary = fc.oneof({ withCrossShrink: true }, { weight: 1, arbitrary }, { weight: 3, arbitrary: fc.constantFrom(...known) });
  return arbitrary;
}

function numberArbitrary(schema: Schema, integer: boolean, ctx: Context): fc.Arbitrary<number> | undefined {
  // OAS 3.0 writes exclusive bounds as booleans beside minimum/maximum; 3.1 as numbers.
  const exclusiveMin = typeof schema.exclusiveMinimum === 'number' || schema.exclusiveMinimum === true;
  const exclusiveMax = typeof schema.exclusiveMaximum === 'number' || schema.exclusiveMaximum === true;
  const min: number | undefined = typeof schema.exclusiveMinimum === 'number' ? Math.max(schema.exclusiveMinimum, schema.minimum ?? -Infinity) : schema.minimum;
  const max: number | undefined = typeof schema.exclusiveMaximum === 'number' ? Math.min(schema.exclusiveMaximum, schema.maximum ?? Infinity) : schema.maximum;
  const step: number | undefined = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  let plain: fc.Arbitrary<number>;
  if (integer || step !== undefined) {
    // Count in units (1, or the multipleOf when it is a whole number): the first and last multiple inside the bounds.
    const unit = step !== undefined && Number.isInteger(step) ? step : 1;
    const first = min === undefined ? undefined : exclusiveMin && Number.isInteger(min / unit) ? min / unit + 1 : Math.ceil(min / unit);
    const last = max === undefined ? undefined : exclusiveMax && Number.isInteger(max / unit) ? max / unit - 1 : Math.floor(max / unit);
    const lo = first ?? (last !== undefined ? last - 1000 : -1000);
    const hi = last ?? lo + 1000;
    if (lo > hi) return undefined;
    plain = boundedIntegerArbitrary(lo, hi).map((n) => n * unit);
    // A fractional multipleOf: keep the whole multiples (every integer, for 0.5).
    if (step !== undefined && step !== unit) plain = plain.filter((n) => Number.isInteger(n / step));
  } else {
    plain = fc.double({ min: min ?? -1e6, max: max ?? 1e6, minExcluded: exclusiveMin, maxExcluded: exclusiveMax, noNaN: true, noDefaultInfinity: true });
  }
  if (!ctx.options.realistic || !integer) return plain;
  const kind = fakerKindFor({ type: 'integer', name: ctx.name, siblings: ctx.siblings });
  return kind ? realisticArbitrary(kind, plain, schemaValidator({ ...schema, type: 'integer' })) : plain;
}

function arrayArbitrary(schema: Schema, ctx: Context): fc.Arbitrary<unknown[]> | undefined {
  const minLength: number = schema.minItems ?? 0;
  const cap = ctx.depth >= ctx.options.maxDepth ? minLength : ctx.options.maxItems;
  const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? cap, cap));
  if (schema.maxItems !== undefined && schema.maxItems < minLength) return undefined;
  // Past the depth limit an optional list is empty: its items (perhaps the same schema again) are not derived.
  if (maxLength === 0) return fc.constant([]);
  const items = schema.items === false ? undefined : derive(schema.items, { ...ctx, depth: ctx.depth + 1 });
  if (!items) return minLength === 0 ? fc.constant([]) : undefined;
  return schema.uniqueItems
    ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
    : fc.array(items, { minLength, maxLength });
}

function objectArbitrary(schema: Schema, ctx: Context): fc.Arbitrary<Record<string, unknown>> | undefined {
  const hidden = ctx.options.direction === 'request' ? 'readOnly' : 'writeOnly';
  const properties: Record<string, Schema | boolean> = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  const siblings = Object.keys(properties);
  const deep = ctx.depth >= ctx.options.maxDepth;
  const extra: Schema | boolean | undefined = schema.additionalProperties;
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of Object.entries(properties)) {
    // A hidden property is left out even when required: OpenAPI makes the `required` of a readOnly
    // property apply to responses only (and of a writeOnly one to requests only).
    if (isHidden(sub, hidden)) {
      required.delete(name);
      continue;
    }
    if (!required.has(name) && deep) continue;
    const arbitrary = derive(sub, { ...ctx, depth: ctx.depth + 1, name, siblings });
    if (arbitrary) model[name] = arbitrary;
    else if (required.has(name)) return undefined;
  }
  for (const name of required) {
    if (name in properties) continue;
    if (extra === false) return undefined;
    const arbitrary = derive(typeof extra === 'object' ? extra : true, { ...ctx, depth: ctx.depth + 1, name });
    if (!arbitrary) return undefined;
    model[name] = arbitrary;
  }
  const record = fc.record(model, { requiredKeys: Object.keys(model).filter((k) => required.has(k)), noNullPrototype: true });
  if (siblings.length > 0 || extra === false || deep) return record;
  // A map: keys from propertyNames (or words), values from additionalProperties (or small scalars).
  const keyContext: Context = { ...ctx, depth: ctx.depth + 1, name: ctx.name === 'amounts' ? 'currency' : 'metadata', siblings: [] };
  const keys = schema.propertyNames !== undefined
    ? derive(schema.propertyNames, keyContext)?.filter((k): k is string => typeof k === 'string')
    : ctx.options.realistic
      ? stringArbitrary({ type: 'string', minLength: 1, maxLength: 40 }, keyContext)
      : fc.string({ minLength: 1, maxLength: 12 });
  const values = typeof extra === 'object'
    ? derive(extra, { ...ctx, depth: ctx.depth + 1, siblings: [] })
    : fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean());
  if (!keys || !values) return record;
  const map = fc.dictionary(keys, values, { maxKeys: ctx.options.maxItems, noNullPrototype: true });
  return fc.tuple(map, record).map(([entries, fixed]) => ({ ...entries, ...fixed }));
}

/** The arbitrary of a flat schema, or undefined when no value is valid. */
function flatArbitrary(schema: Schema, ctx: Context): fc.Arbitrary<unknown> | undefined {
  if ('const' in schema) return schemaValidator(schema)(schema.const) ? fc.constant(schema.const) : undefined;
  if (Array.isArray(schema.enum)) {
    const valid = schemaValidator(schema);
    const members = (schema.enum as unknown[]).filter((m) => valid(m));
    return members.length ? fc.constantFrom(...members) : undefined;
  }
  const types = typesOf(schema);
  if (types.length === 0) return anyJsonArbitrary();
  const arbitraries = types
    .map((type): fc.Arbitrary<unknown> | undefined => {
      switch (type) {
        case 'null':
          return fc.constant(null);
        case 'boolean':
          return fc.boolean();
        case 'integer':
          return numberArbitrary(schema, true, ctx);
        case 'number':
          return numberArbitrary(schema, false, ctx);
        case 'string':
          return stringArbitrary(schema, ctx);
        case 'array':
          return arrayArbitrary(schema, ctx);
        case 'object':
          return objectArbitrary(schema, ctx);
        default:
          throw new TypeError(`unsupported schema type ${type}`);
      }
    })
    .filter((a): a is fc.Arbitrary<unknown> => a !== undefined);
  if (arbitraries.length === 0) return undefined;
  return arbitraries.length === 1 ? arbitraries[0] : fc.oneof(...arbitraries);
}

function treeArbitrary(tree: Tree, ctx: Context): fc.Arbitrary<unknown> | undefined {
  if (Array.isArray(tree)) {
    const kids = tree.map((t) => treeArbitrary(t, ctx)).filter((a): a is fc.Arbitrary<unknown> => a !== undefined);
    if (kids.length === 0) return undefined;
    return kids.length === 1 ? kids[0] : fc.oneof(...kids);
  }
  const arbitrary = flatArbitrary(tree.schema, ctx);
  if (!arbitrary || (tree.require.length === 0 && tree.reject.length === 0)) return arbitrary;
  const must = tree.require.map((s) => schemaValidator(s));
  const mustNot = tree.reject.map((s) => schemaValidator(s));
  const keep = (v: unknown) => must.every((ok) => ok(v)) && !mustNot.some((ok) => ok(v));
  // A branch can be empty in ways the merge cannot see (the `if` of one allOf part taken, the
  // same `if` of another part refused): filtering it would never end, so it is tried first.
  const feasible = PROBES.some((numRuns, seed) => fc.sample(arbitrary, { seed, numRuns }).some(keep));
  return feasible ? arbitrary.filter(keep) : undefined;
}

/** Values drawn (with seeds 0, 1) to tell whether a filtered branch has any value; a branch that rare is dropped. */
const PROBES = [4, 60];

function derive(schema: Schema | boolean | undefined, ctx: Context): fc.Arbitrary<unknown> | undefined {
  // A recursive schema whose recursion is required (or whose optional parts are kept) ends here:
  // past twice the depth at which optional parts are left out, no value.
  if (ctx.depth > ctx.options.maxDepth * 2) return undefined;
  const tree = expand(schema);
  return tree === undefined ? undefined : treeArbitrary(tree, ctx);
}

/**
 * An arbitrary of values valid against `schema` (already dereferenced) in one direction.
 * @param schema a JSON Schema object; `{}`, `true` or undefined gives any JSON value
 * @param constraints direction (readOnly/writeOnly), size bounds, realistic values
 * @throws TypeError when no value is valid against the schema (`false`, contradictory parts),
 *   when it still holds a `$ref`, or when it names a type JSON Schema does not have
 */
export function schemaArbitrary(schema: Schema | boolean | undefined, constraints: SchemaArbitraryConstraints): fc.Arbitrary<unknown> {
  const options: Required<SchemaArbitraryConstraints> = { maxItems: 5, maxStringLength: 24, realistic: false, maxDepth: 10, ...constraints };
  const arbitrary = derive(schema, { options, depth: 0 });
  if (!arbitrary) throw new TypeError(`no value is valid against the schema ${JSON.stringify(schema)?.slice(0, 200)}`);
  return arbitrary;
}
