/**
 * Query validation compiled from an operation's parameters: raw query strings are coerced per
 * schema (integers, `true`/`false`, arrays from one or repeated parameters, deepObject keys),
 * checked with ajv, and failures are reported as FastAPI/pydantic-style validation entries.
 * Unknown query parameters are ignored.
 * @see spec/rules.yaml errors.validation; docs/design.md (Reference server)
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Parameter, Schema } from '../core/spec/load.js';
import type { ValidationEntry } from './replies.js';

// ajv-formats ships CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => unknown;

/** A query string as parsed: a repeated parameter is an array. */
export type RawQuery = Record<string, string | string[]>;

/** A validated query: typed values by parameter name, and deepObject parameters as key to values. */
export interface ParsedQuery {
  /** Defaults applied; array parameters are arrays; uuids are lower-case. */
  values: Record<string, unknown>;
  /** `metadata[tier]=a&metadata[tier]=b` gives `{metadata: {tier: ['a', 'b']}}`. */
  deepObjects: Record<string, Record<string, string[]>>;
}

/** The outcome of parsing a query: values, or every validation entry (loc `["query", name]` or `["query", name, index]`). */
export type QueryParseResult = { ok: true; query: ParsedQuery } | { ok: false; errors: ValidationEntry[] };

/** Validates one raw query; compiled once per operation by {@link compileQueryParser}. */
export type QueryParser = (raw: RawQuery) => QueryParseResult;

/** Options of {@link compileQueryParser}. */
export interface QueryParserOptions {
  /** Parameters whose schema `maximum` is not enforced (the `limit_unbounded` fault). */
  ignoreMaximum?: readonly string[];
}

type Shape = 'single' | 'array' | 'one-or-many';

interface CompiledParameter {
  name: string;
  shape: Shape;
  item: Schema;
  validate: ValidateFunction;
  defaultValue: unknown;
}

let sharedAjv: Ajv2020 | undefined;

function ajv(): Ajv2020 {
  if (!sharedAjv) {
    sharedAjv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false, discriminator: false });
    addFormats(sharedAjv);
  }
  return sharedAjv;
}

/** `anyOf: [X, {type: array, items: X}]`, the shape of a filter that takes one value or a repeated parameter. */
function oneOrManyItem(schema: Schema): Schema | undefined {
  const branches: Schema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(branches) || branches.length !== 2) return undefined;
  const array = branches.find((branch) => branch.type === 'array');
  const single = branches.find((branch) => branch !== array);
  return array && single ? single : undefined;
}

function compileParameter(parameter: Parameter, options: QueryParserOptions): CompiledParameter {
  const schema = parameter.schema;
  const many = oneOrManyItem(schema);
  const shape: Shape = schema.type === 'array' ? 'array' : many ? 'one-or-many' : 'single';
  let item: Schema = shape === 'array' ? (schema.items ?? {}) : (many ?? schema);
  if (options.ignoreMaximum?.includes(parameter.name)) {
    const { maximum: _ignored, ...rest } = item;
    item = rest;
  }
  // Compiled when the parameter is first given a value: most requests give two or three of an
  // operation's ten parameters, and a start should not wait for the rest.
  let validate: ValidateFunction | undefined;
  return {
    name: parameter.name,
    shape,
    item,
    get validate() {
      return (validate ??= ajv().compile(item));
    },
    defaultValue: schema.default,
  };
}

function typeOf(schema: Schema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((t: string) => t !== 'null');
  return undefined;
}

/** Turns one query string into the JSON value its schema expects; anything unparseable stays a string for ajv to reject. */
function coerce(text: string, schema: Schema): unknown {
  switch (typeOf(schema)) {
    case 'integer':
      return /^[+-]?\d+$/.test(text) ? Number(text) : text;
    case 'number':
      return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    default:
      return text;
  }
}

function quoteList(values: readonly unknown[]): string {
  const quoted = values.map((value) => `'${String(value)}'`);
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/**
 * Maps an ajv error of a value parsed from text to a pydantic-style entry (types `int_parsing`,
 * `greater_than_equal`, `enum`, `uuid_parsing`, ...).
 * @param schema the schema the value was checked against (for the expected type)
 * @param input the value as sent
 */
export function entryFor(error: ErrorObject, schema: Schema, loc: (string | number)[], input: unknown): ValidationEntry {
  const params = error.params as Record<string, any>;
  switch (error.keyword) {
    case 'type': {
      const expected = typeOf(schema);
      if (expected === 'integer') return { loc, msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing', input };
      if (expected === 'number') return { loc, msg: 'Input should be a valid number, unable to parse string as a number', type: 'float_parsing', input };
      if (expected === 'boolean') return { loc, msg: 'Input should be a valid boolean, unable to interpret input', type: 'bool_parsing', input };
      return { loc, msg: `Input should be a valid ${expected}`, type: `${expected}_type`, input };
    }
    case 'minimum':
      return { loc, msg: `Input should be greater than or equal to ${params.limit}`, type: 'greater_than_equal', input, ctx: { ge: params.limit } };
    case 'maximum':
      return { loc, msg: `Input should be less than or equal to ${params.limit}`, type: 'less_than_equal', input, ctx: { le: params.limit } };
    case 'exclusiveMinimum':
      return { loc, msg: `Input should be greater than ${params.limit}`, type: 'greater_than', input, ctx: { gt: params.limit } };
    case 'exclusiveMaximum':
      return { loc, msg: `Input should be less than ${params.limit}`, type: 'less_than', input, ctx: { lt: params.limit } };
    case 'enum': {
      const expected = quoteList(params.allowedValues ?? []);
      return { loc, msg: `Input should be ${expected}`, type: 'enum', input, ctx: { expected } };
    }
    case 'const':
      return { loc, msg: `Input should be ${quoteList([params.allowedValue])}`, type: 'literal_error', input, ctx: { expected: quoteList([params.allowedValue]) } };
    case 'minLength':
      return { loc, msg: `String should have at least ${params.limit} characters`, type: 'string_too_short', input, ctx: { min_length: params.limit } };
    case 'maxLength':
      return { loc, msg: `String should have at most ${params.limit} characters`, type: 'string_too_long', input, ctx: { max_length: params.limit } };
    case 'pattern':
      return { loc, msg: `String should match pattern '${params.pattern}'`, type: 'string_pattern_mismatch', input, ctx: { pattern: params.pattern } };
    case 'format':
      if (params.format === 'uuid') return { loc, msg: 'Input should be a valid UUID', type: 'uuid_parsing', input };
      if (params.format === 'date-time') return { loc, msg: 'Input should be a valid datetime', type: 'datetime_parsing', input };
      if (params.format === 'date') return { loc, msg: 'Input should be a valid date', type: 'date_parsing', input };
      return { loc, msg: `Input should be a valid ${params.format}`, type: 'value_error', input };
    default:
      return { loc, msg: error.message ?? 'Input is not valid', type: 'value_error', input };
  }
}

function checkValue(parameter: CompiledParameter, text: string, loc: (string | number)[], errors: ValidationEntry[]): unknown {
  const value = coerce(text, parameter.item);
  if (parameter.validate(value)) {
    return parameter.item.format === 'uuid' && typeof value === 'string' ? value.toLowerCase().replace(/^urn:uuid:/, '') : value;
  }
  errors.push(entryFor(parameter.validate.errors![0]!, parameter.item, loc, text));
  return undefined;
}

/**
 * Compiles the query parameters of an operation into a parser.
 * Scalars repeated in the query take their last value; `one-or-many` and array parameters always
 * give arrays; a deepObject parameter `metadata` takes keys `metadata[key]`, and any other key that
 * is `metadata` or starts with `metadata[` (`metadata[]`, `metadata[a][b]`) is a 422 with loc `["query", "metadata"]`.
 * @param parameters the operation's dereferenced parameters (non-query ones are skipped)
 */
export function compileQueryParser(parameters: readonly Parameter[], options: QueryParserOptions = {}): QueryParser {
  const query = parameters.filter((parameter) => parameter.in === 'query');
  const deepObjectNames = query.filter((parameter) => parameter.style === 'deepObject').map((parameter) => parameter.name);
  const compiled = query.filter((parameter) => parameter.style !== 'deepObject').map((parameter) => compileParameter(parameter, options));
  const order = query.map((parameter) => parameter.name);

  return (raw) => {
    const errors: ValidationEntry[] = [];
    const values: Record<string, unknown> = {};
    for (const parameter of compiled) {
      const given = raw[parameter.name];
      if (given === undefined) {
        if (parameter.defaultValue !== undefined) values[parameter.name] = parameter.defaultValue;
        continue;
      }
      const texts = Array.isArray(given) ? given : [given];
      if (parameter.shape === 'single') {
        const value = checkValue(parameter, texts.at(-1)!, ['query', parameter.name], errors);
        if (value !== undefined) values[parameter.name] = value;
        continue;
      }
      const indexed = parameter.shape === 'array' || texts.length > 1;
      const items = texts.map((text, index) => checkValue(parameter, text, indexed ? ['query', parameter.name, index] : ['query', parameter.name], errors));
      values[parameter.name] = items;
    }

    const deepObjects: Record<string, Record<string, string[]>> = {};
    for (const name of deepObjectNames) {
      const entries: Record<string, string[]> = Object.create(null);
      let malformed: { key: string; value: string | string[] } | undefined;
      for (const [key, value] of Object.entries(raw)) {
        if (key !== name && !key.startsWith(`${name}[`)) continue;
        const inner = key.length > name.length + 2 && key.endsWith(']') ? key.slice(name.length + 1, -1) : undefined;
        if (inner === undefined || /[[\]]/.test(inner)) {
          malformed ??= { key, value };
          continue;
        }
        entries[inner] = Array.isArray(value) ? value : [value];
      }
      if (malformed) {
        errors.push({
          loc: ['query', name],
          msg: `Input should be a deepObject: ${name}[key]=value with a key without brackets`,
          type: 'dict_type',
          input: { [malformed.key]: malformed.value },
        });
      }
      deepObjects[name] = entries;
    }

    if (errors.length > 0) {
      errors.sort((a, b) => order.indexOf(String(a.loc[1])) - order.indexOf(String(b.loc[1])));
      return { ok: false, errors };
    }
    return { ok: true, query: { values, deepObjects } };
  };
}

/** Validates the path parameters of a request: normalized values, or every entry (loc `["path", name]`). */
export type PathParser = (raw: Record<string, string>) => { ok: true; values: Record<string, string> } | { ok: false; errors: ValidationEntry[] };

/**
 * Compiles the path parameters of an operation into a parser (uuids are lower-cased).
 * @param parameters the operation's dereferenced parameters (non-path ones are skipped)
 */
export function compilePathParser(parameters: readonly Parameter[]): PathParser {
  const compiled = parameters.filter((parameter) => parameter.in === 'path').map((parameter) => compileParameter(parameter, {}));
  return (raw) => {
    const errors: ValidationEntry[] = [];
    const values: Record<string, string> = Object.create(null);
    for (const parameter of compiled) {
      const value = checkValue(parameter, raw[parameter.name] ?? '', ['path', parameter.name], errors);
      if (value !== undefined) values[parameter.name] = String(value);
    }
    return errors.length > 0 ? { ok: false, errors } : { ok: true, values };
  };
}

/**
 * Parses a raw query string into a null-prototype object; repeated keys give arrays, `+` is a
 * space, malformed percent-escapes are kept as written.
 * @param text the part of the URL after `?`
 */
export function parseQueryString(text: string): RawQuery {
  const result: RawQuery = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) {
    const existing = result[key];
    if (existing === undefined) result[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else result[key] = [existing, value];
  }
  return result;
}
