/**
 * A cached yes/no JSON Schema check for the generators: the exclusivity of `oneOf` alternatives,
 * the negation of an `if` and of a `not`, and whether a faker value fits its schema. The same
 * dialect and formats as the documents' own validation (ajv, JSON Schema 2020-12 as OpenAPI 3.1
 * uses it, ajv-formats; `nullable` of OpenAPI 3.0 is understood by ajv itself).
 * @see https://json-schema.org/draft/2020-12/json-schema-core
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import type { Schema } from '../spec/load.js';

// ajv-formats is CommonJS with `exports.default`; under NodeNext the function is on `.default`.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv2020) => Ajv2020;

/** A predicate: whether a JSON value is valid against one schema. */
export type SchemaPredicate = (value: unknown) => boolean;

let ajv: Ajv2020 | undefined;
const byObject = new WeakMap<object, SchemaPredicate>();
const byText = new Map<string, SchemaPredicate>();

function compile(schema: Schema | boolean): SchemaPredicate {
  // Unknown keywords and formats (OpenAPI annotations, `x-` extensions) are ignored, as ajv in
  // spec/load.ts ignores them; the discriminator is an annotation, its alternatives pin the value.
  ajv ??= addFormats(new Ajv2020({ strict: false, validateSchema: false, discriminator: false, logger: false }));
  const validate = ajv.compile(schema as Schema);
  return (value) => validate(value) === true;
}

/**
 * The predicate of a (dereferenced) schema, compiled once per schema object and per schema text.
 * @throws Error from ajv when the schema cannot be compiled (a `$ref` that does not resolve), and
 *   TypeError for a circular schema (a recursive `$ref` dereferenced into a cycle)
 */
export function schemaValidator(schema: Schema | boolean): SchemaPredicate {
  if (typeof schema === 'boolean') return () => schema;
  const cached = byObject.get(schema);
  if (cached) return cached;
  const text = JSON.stringify(schema);
  const predicate = byText.get(text) ?? compile(schema);
  byText.set(text, predicate);
  byObject.set(schema, predicate);
  return predicate;
}
