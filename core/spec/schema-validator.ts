/**
 * A cached yes/no JSON Schema check for the generators: the exclusivity of `oneOf` alternatives,
 * the negation of an `if` and of a `not`, and whether a faker value fits its schema. The same
 * dialect and formats as the documents' own validation (ajv, JSON Schema 2020-12 as OpenAPI 3.1
 * uses it, ajv-formats; `nullable` of OpenAPI 3.0 is understood by ajv itself).
 * @see https://json-schema.org/draft/2020-12/json-schema-core
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { specCacheDir, type Schema } from './load.js';
import { compileCached } from './validator-cache.js';
import { timed } from '../timings.js';

// ajv-formats is CommonJS with `exports.default`; under NodeNext the function is on `.default`.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv2020) => Ajv2020;

/** A copy of an acyclic schema without the `nullable` keywords that have no `type` beside them. */
function withoutBareNullable(node: unknown): unknown {
  if (!node || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map(withoutBareNullable);
  const record = node as Schema;
  return Object.fromEntries(
    Object.entries(record)
      .filter(([key]) => !(key === 'nullable' && record.type === undefined))
      .map(([key, value]) => [key, ['enum', 'const', 'default', 'examples', 'example'].includes(key) ? value : withoutBareNullable(value)]),
  );
}

/** A predicate: whether a JSON value is valid against one schema. */
export type SchemaPredicate = (value: unknown) => boolean;

// Unknown keywords and formats (OpenAPI annotations, `x-` extensions) are ignored, as ajv in
// core/spec/load.ts ignores them; the discriminator is an annotation, its alternatives pin the value.
// `code.source` lets ajv write a compiled predicate out, to be kept between processes.
const AJV_OPTIONS = { strict: false, validateSchema: false, discriminator: false, logger: false, code: { source: true } } as const;
let ajv: Ajv2020 | undefined;
const ajvOf = (): Ajv2020 => (ajv ??= addFormats(new Ajv2020(AJV_OPTIONS)));
const byObject = new WeakMap<object, SchemaPredicate>();
const byText = new Map<string, SchemaPredicate>();

/** Compiled once per schema text and ajv version, then kept between processes (core/spec/validator-cache.ts). */
function compile(schema: Schema, text: string): SchemaPredicate {
  const kept = (value: Schema, key: string) => compileCached(ajvOf, value, `predicate\0${JSON.stringify(AJV_OPTIONS)}\0${key}`, specCacheDir());
  let validate;
  try {
    validate = kept(schema, text);
  } catch (error) {
    // `nullable` without `type` (an OAS 3.0 habit left in 3.1 documents) constrains nothing, and ajv refuses it.
    if (!/nullable/.test((error as Error).message)) throw error;
    const fixed = withoutBareNullable(schema) as Schema;
    validate = kept(fixed, JSON.stringify(fixed));
  }
  return (value) => validate(value) === true;
}

/** Keywords whose value maps names to schemas, and those whose value lists schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

/** Levels of a recursive schema a predicate checks; below them any value is accepted. */
export const MAX_RECURSION = 3;

/**
 * Most schema objects an unrolled copy may hold. A schema whose cycles cross each other grows
 * with the product of its cycles at each level: Rebilly's Dispute body (a dispute, its
 * transaction, the transaction's customer and their own links) unrolled to 3 levels was a copy
 * of 2.2 MB, whose predicate was 27 MB of code and held about 300 MB of memory per thread; the
 * bundled API's largest copy holds fewer than 2,000. Past it the copy is made with fewer levels.
 */
export const MAX_UNROLLED_NODES = 4_000;

/** Thrown inside {@link acyclic} when a copy grows past {@link MAX_UNROLLED_NODES}. */
const TOO_LARGE = new Error('the unrolled schema is too large');

/**
 * The schema itself when it has no cycle, else a finite copy: a schema object met again inside
 * itself is unrolled {@link MAX_RECURSION} times, then replaced by `true` (any value); with fewer
 * levels (down to one) when that copy would hold more than {@link MAX_UNROLLED_NODES} objects.
 */
export function acyclic(schema: Schema): Schema {
  const seen = new WeakSet<object>();
  let circular = false;
  const scan = (node: unknown, path: Set<object>): void => {
    if (circular || !node || typeof node !== 'object') return;
    if (path.has(node)) {
      circular = true;
      return;
    }
    if (seen.has(node)) return;
    path.add(node);
    for (const value of Object.values(node)) scan(value, path);
    path.delete(node);
    seen.add(node);
  };
  scan(schema, new Set());
  if (!circular) return schema;
  for (let levels = MAX_RECURSION; levels > 1; levels--) {
    try {
      return unrolled(schema, levels, MAX_UNROLLED_NODES);
    } catch (error) {
      if (error !== TOO_LARGE) throw error;
    }
  }
  return unrolled(schema, 1, Infinity);
}

/**
 * A copy of a circular schema in which a schema object met again inside itself is unrolled
 * `levels` times, then replaced by `true`.
 * @throws {@link TOO_LARGE} when the copy would hold more than `maxNodes` objects
 */
function unrolled(schema: Schema, levels: number, maxNodes: number): Schema {
  let nodes = 0;
  // Only schemas are cut, never the maps and lists that hold them (a `properties` object met again).
  const copy = (node: unknown, open: Map<object, number>, holder: boolean): unknown => {
    if (!node || typeof node !== 'object') return node;
    if (++nodes > maxNodes) throw TOO_LARGE;
    if (holder) {
      return Array.isArray(node) ? node.map((v) => copy(v, open, false)) : Object.fromEntries(Object.entries(node).map(([k, v]) => [k, copy(v, open, false)]));
    }
    const level = open.get(node) ?? 0;
    if (level >= levels) return true;
    open.set(node, level + 1);
    const out = Array.isArray(node)
      ? node.map((v) => copy(v, open, false))
      : Object.fromEntries(Object.entries(node).map(([k, v]) => [k, SCHEMA_MAPS.has(k) || (Array.isArray(v) && SCHEMA_LISTS.has(k)) ? copy(v, open, true) : copy(v, open, false)]));
    if (level === 0) open.delete(node);
    else open.set(node, level);
    return out;
  };
  return copy(schema, new Map(), false) as Schema;
}

/**
 * The predicate of a (dereferenced) schema, compiled once per schema object and per schema text.
 * A circular schema (a recursive `$ref` dereferenced into a cycle) is checked to
 * {@link MAX_RECURSION} levels of its recursion (fewer for a schema whose copy would be too large:
 * {@link acyclic}); deeper, any value is accepted.
 * @throws Error from ajv when the schema cannot be compiled (a `$ref` that does not resolve)
 */
export function schemaValidator(schema: Schema | boolean): SchemaPredicate {
  if (typeof schema === 'boolean') return () => schema;
  const cached = byObject.get(schema);
  if (cached) return cached;
  const finite = acyclic(schema);
  const text = JSON.stringify(finite);
  const predicate = byText.get(text) ?? timed('document', () => compile(finite, text));
  byText.set(text, predicate);
  byObject.set(schema, predicate);
  return predicate;
}
