/**
 * Request bodies: what the content-type parsers hand over (never an error, so that a bad body is
 * answered in the API's own format rather than by the framework), and validation compiled from an
 * operation's requestBody schema with ajv. JSON bodies that fail are a 422
 * `{detail: [{loc: ["body", ...], msg, type, input?}]}`; form-encoded bodies, which only the OAuth
 * 2.0 endpoints take, fail as RFC 6749 `invalid_request` (400).
 * @see spec/rules.yaml errors.validation, format.json; docs/design.md (Reference server); RFC 6749 section 5.2
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Operation, Schema } from '../core/spec/load.js';
import type { Reply, ValidationEntry } from './replies.js';
import { entryFor } from './validation.js';

// ajv-formats ships CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => unknown;

/** A JSON body that could not be parsed (syntax error, forbidden `__proto__`, too deep). */
export class InvalidJsonBody {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

/** A body of a media type no parser reads; kept so that validation can name the type. */
export class UnreadBody {
  readonly contentType: string;
  constructor(contentType: string) {
    this.contentType = contentType;
  }
}

/** The paths whose bodies are kept as text, whatever their media type: a data file's lines are named in its errors, which a parsed JSON value has lost. @see docs/data-file.md (POST /__control/data) */
export const TEXT_BODY_PATHS: ReadonlySet<string> = new Set(['/__control/data']);

/** A body kept as the text it was sent as (a data file: YAML or JSON), for a path of {@link TEXT_BODY_PATHS}. */
export class TextBody {
  readonly text: string;
  readonly contentType: string;
  constructor(text: string, contentType: string) {
    this.text = text;
    this.contentType = contentType;
  }
}

/** A form-encoded body: the last value of each field and the names of repeated fields. @see RFC 6749 section 3.2 */
export class FormBody {
  readonly fields: Record<string, string>;
  readonly repeated: string[];
  constructor(fields: Record<string, string>, repeated: string[]) {
    this.fields = fields;
    this.repeated = repeated;
  }
}

/** The media type whose bodies {@link parseFormBody} reads. */
export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/** Parses a form-encoded body into a null-prototype object. */
export function parseFormBody(text: string): FormBody {
  const fields: Record<string, string> = Object.create(null);
  const repeated = new Set<string>();
  for (const [key, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(fields, key)) repeated.add(key);
    fields[key] = value;
  }
  return new FormBody(fields, [...repeated]);
}

/** Outcome of a body parser: the validated body (undefined when the operation takes none), or the reply to send. */
export type BodyResult = { ok: true; value: unknown } | { ok: false; entries: ValidationEntry[] } | { ok: false; reply: Reply };

/** Validates a request body as the content-type parser left it. */
export type BodyParser = (raw: unknown) => BodyResult;

let sharedAjv: Ajv2020 | undefined;

function ajv(): Ajv2020 {
  if (!sharedAjv) {
    sharedAjv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, discriminator: false });
    addFormats(sharedAjv);
  }
  return sharedAjv;
}

/** The const a oneOf branch gives the discriminator property, looking through allOf. */
function branchConst(branch: Schema, property: string): unknown {
  const direct = branch.properties?.[property]?.const;
  if (direct !== undefined) return direct;
  for (const part of branch.allOf ?? []) {
    const found = branchConst(part, property);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** pydantic's message and type for a JSON value of the wrong type. */
function typeEntry(expected: string | undefined, loc: (string | number)[], input: unknown): ValidationEntry {
  switch (expected) {
    case 'string':
      return { loc, msg: 'Input should be a valid string', type: 'string_type', input };
    case 'integer':
      return typeof input === 'number'
        ? { loc, msg: 'Input should be a valid integer, got a number with a fractional part', type: 'int_from_float', input }
        : { loc, msg: 'Input should be a valid integer', type: 'int_type', input };
    case 'number':
      return { loc, msg: 'Input should be a valid number', type: 'float_type', input };
    case 'boolean':
      return { loc, msg: 'Input should be a valid boolean', type: 'bool_type', input };
    case 'object':
      return { loc, msg: 'Input should be a valid dictionary', type: 'dict_type', input };
    case 'array':
      return { loc, msg: 'Input should be a valid list', type: 'list_type', input };
    case 'null':
      return { loc, msg: 'Input should be None', type: 'none_required', input };
    default:
      return { loc, msg: `Input should be a valid ${expected ?? 'value'}`, type: 'value_error', input };
  }
}

/** The location of an instance path in `value` (array indexes as numbers) and the value there. */
function locate(value: unknown, instancePath: string): { loc: (string | number)[]; at: unknown } {
  const loc: (string | number)[] = ['body'];
  let at = value;
  for (const raw of instancePath.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at)) {
      loc.push(Number(key));
      at = at[Number(key)];
    } else {
      loc.push(key);
      at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
    }
  }
  return { loc, at };
}

/** Longest JSON text of an input a validation entry echoes back. */
export const MAX_ECHOED_INPUT = 2000;

/**
 * The input a validation entry may echo back: primitives always, objects and arrays when their
 * JSON is short; a huge or deeply nested value is left out so that the answer stays small and
 * serializable.
 */
function echoed(entry: ValidationEntry): ValidationEntry {
  const input = entry.input;
  if (input === null || typeof input !== 'object') return entry;
  let text: string | undefined;
  try {
    text = JSON.stringify(input);
  } catch {
    text = undefined;
  }
  if (text !== undefined && text.length <= MAX_ECHOED_INPUT) return entry;
  const { input: _dropped, ...rest } = entry;
  return rest;
}

/**
 * Maps ajv's errors to validation entries. Only the first branch of an anyOf/oneOf is reported
 * (the others are `null` or alternatives whose errors would only repeat the point), and
 * combinator errors themselves are dropped.
 */
function entriesOf(errors: readonly ErrorObject[], value: unknown): ValidationEntry[] {
  const entries: ValidationEntry[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (/\/(anyOf|oneOf)\/[1-9]/.test(error.schemaPath)) continue;
    if (['anyOf', 'oneOf', 'if', 'allOf', 'not'].includes(error.keyword)) continue;
    const { loc, at } = locate(value, error.instancePath);
    const params = error.params as Record<string, any>;
    let entry: ValidationEntry;
    if (error.keyword === 'required') entry = { loc: [...loc, params.missingProperty], msg: 'Field required', type: 'missing', input: at };
    else if (error.keyword === 'type') entry = typeEntry(Array.isArray(params.type) ? params.type.find((t: string) => t !== 'null') : params.type, loc, at);
    else if (error.keyword === 'minItems') entry = { loc, msg: `List should have at least ${params.limit} item${params.limit === 1 ? '' : 's'} after validation, not ${(at as unknown[]).length}`, type: 'too_short', input: at, ctx: { min_length: params.limit } };
    else if (error.keyword === 'maxItems') entry = { loc, msg: `List should have at most ${params.limit} items after validation`, type: 'too_long', input: at, ctx: { max_length: params.limit } };
    else entry = entryFor(error, error.parentSchema ?? {}, loc, at);
    const key = `${JSON.stringify(entry.loc)}|${entry.type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push(echoed(entry));
  }
  return entries;
}

/**
 * A validator of JSON values against a schema; a oneOf with a discriminator is validated against
 * the branch the discriminator names (a missing or unknown discriminator is the only error then).
 * @returns validation entries with loc starting at `body`; empty when valid
 */
export function compileSchemaValidator(schema: Schema): (value: unknown) => ValidationEntry[] {
  const compiled = new Map<Schema, ValidateFunction>();
  const validatorOf = (target: Schema) => {
    let validate = compiled.get(target);
    if (!validate) {
      validate = ajv().compile(target);
      compiled.set(target, validate);
    }
    return validate;
  };
  const property: string | undefined = Array.isArray(schema.oneOf) ? schema.discriminator?.propertyName : undefined;
  return (value) => {
    let target = schema;
    if (property !== undefined && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const given = (value as Record<string, unknown>)[property];
      const branches: Schema[] = schema.oneOf;
      const allowed = branches.map((branch) => branchConst(branch, property));
      if (given === undefined) return [echoed({ loc: ['body', property], msg: 'Field required', type: 'missing', input: value })];
      const index = allowed.indexOf(given);
      if (index < 0) {
        const expected = allowed.map((v) => `'${String(v)}'`).join(', ');
        return [echoed({ loc: ['body', property], msg: `Input tag '${String(given)}' found using '${property}' does not match any of the expected tags: ${expected}`, type: 'union_tag_invalid', input: given, ctx: { discriminator: `'${property}'`, tag: String(given), expected_tags: expected } })];
      }
      target = branches[index]!;
    }
    const validate = validatorOf(target);
    return validate(value) ? [] : entriesOf(validate.errors ?? [], value);
  };
}

function formError(description: string): Reply {
  return { status: 400, body: { error: 'invalid_request', error_description: description }, headers: { 'cache-control': 'no-store' } };
}

/**
 * Compiles the body parser of an operation, or undefined when it takes no body.
 * JSON: missing body (when required), unparseable JSON, another media type or a schema mismatch
 * give 422 entries. Form-encoded: a repeated field, another media type or a schema mismatch give a
 * 400 `invalid_request` (RFC 6749 section 5.2: parameters must not be repeated).
 */
export function compileBodyParser(operation: Operation): BodyParser | undefined {
  const requestBody: Schema | undefined = operation.raw.requestBody;
  const content: Record<string, Schema> = requestBody?.content ?? {};
  if (!requestBody) return undefined;
  const required = Boolean(requestBody.required);
  const json = content['application/json'];
  const form = content[FORM_MEDIA_TYPE];
  if (form) {
    const validate = compileSchemaValidator(form.schema ?? {});
    return (raw) => {
      if (!(raw instanceof FormBody)) return { ok: false, reply: formError(`The body must be ${FORM_MEDIA_TYPE}.`) };
      if (raw.repeated.length > 0) return { ok: false, reply: formError(`Parameter ${raw.repeated[0]} is included more than once.`) };
      const entries = validate(raw.fields);
      if (entries.length > 0) {
        const first = entries[0]!;
        return { ok: false, reply: formError(`${first.loc.slice(1).join('.') || 'body'}: ${first.msg}.`) };
      }
      return { ok: true, value: raw.fields };
    };
  }
  const validate = compileSchemaValidator(json?.schema ?? {});
  return (raw) => {
    if (raw === undefined) return required ? { ok: false, entries: [{ loc: ['body'], msg: 'Field required', type: 'missing', input: null }] } : { ok: true, value: undefined };
    if (raw instanceof InvalidJsonBody) return { ok: false, entries: [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid', ctx: { error: raw.message } }] };
    if (raw instanceof UnreadBody || raw instanceof FormBody) {
      const type = raw instanceof UnreadBody ? raw.contentType : FORM_MEDIA_TYPE;
      const reason = type === '' ? 'the body must be application/json; the request has no Content-Type' : `the body must be application/json, not ${type}`;
      return { ok: false, entries: [{ loc: ['body'], msg: 'Field required', type: 'missing', input: null, ctx: { reason } }] };
    }
    const entries = validate(raw);
    return entries.length > 0 ? { ok: false, entries } : { ok: true, value: raw };
  };
}
