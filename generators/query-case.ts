/**
 * Query parameters of an operation as a fast-check arbitrary: each optional parameter absent
 * most of the time (so that several filters rarely empty a list), values derived from the
 * parameter's schema, values harvested from the target's own data for filters, and boundary
 * values for `page` and `limit` (spec/rules.yaml pagination.page_default, limits.page_size).
 */
import fc from 'fast-check';
import type { Operation, Parameter, Schema } from '../core/spec/load.js';
import type { QueryValues } from '../core/types.js';
import { boundedIntegerArbitrary, schemaArbitrary } from './schema-value.js';
import { requiredQuery } from './parameter-value.js';

/** Values seen on the target, to make filters match: parameter name to values, and metadata key to values. */
export interface Harvest {
  parameters: Record<string, string[]>;
  metadata: Record<string, string[]>;
}

/** Options of {@link queryCaseArbitrary}. */
export interface QueryCaseConstraints {
  harvest?: Harvest;
  /** Parameters always left out (`page` and `limit` when the suite sets them itself). */
  omit?: readonly string[];
}

/** Renders a parameter value as query text: booleans and numbers as JSON, strings as they are. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function toQueryValue(value: unknown): string | string[] {
  return Array.isArray(value) ? value.map(text) : text(value);
}

/**
 * Values for `limit`: inside the documented bounds with a bias to 1, 10 and the maximum, and now
 * and then just above the maximum (101, 1000), which a target may clamp or reject but never honour.
 */
export function limitArbitrary(schema: Schema): fc.Arbitrary<number> {
  const min = schema.minimum ?? 1;
  const max = schema.maximum ?? 100;
  return fc.oneof(
    { weight: 6, arbitrary: boundedIntegerArbitrary(min, max) },
    { weight: 2, arbitrary: fc.constantFrom(schema.default ?? 10, max) },
    { weight: 1, arbitrary: fc.constantFrom(max + 1, max * 10) },
  );
}

/** Values for `page`: mostly the first pages, sometimes further (past the last page is valid). */
export function pageArbitrary(schema: Schema): fc.Arbitrary<number> {
  const min = schema.minimum ?? 1;
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(min, min + 1, min + 2) }, { weight: 1, arbitrary: fc.integer({ min, max: min + 30 }) });
}

function parameterArbitrary(param: Parameter, harvest: Harvest | undefined, apiRules: boolean): fc.Arbitrary<string | string[]> {
  // Section Limits gives `page` and `limit` their meaning (and lets `limit` go above its maximum)
  // in this API only; elsewhere they are parameters like any other, valid against their schema.
  if (apiRules && param.name === 'limit') return limitArbitrary(param.schema).map(text);
  if (apiRules && param.name === 'page') return pageArbitrary(param.schema).map(text);
  // A query string cannot carry null (absence says it) nor an empty repetition, and an empty
  // value only where the parameter allows it (OAS allowEmptyValue, false by default).
  const empty = param.allowEmptyValue === true;
  const derived = schemaArbitrary(param.schema, { direction: 'request', maxItems: 3 })
    .filter((v) => v !== null && (empty || v !== '') && !(Array.isArray(v) && (v.length === 0 || v.includes(null) || (!empty && v.includes('')))))
    .map(toQueryValue);
  const seen = harvest?.parameters[param.name] ?? [];
  if (seen.length === 0) return derived;
  const isArray = param.schema.type === 'array' || (param.schema.anyOf ?? []).some((s: Schema) => s.type === 'array');
  const picked: fc.Arbitrary<string | string[]> = isArray
    ? fc.uniqueArray(fc.constantFrom(...seen), { minLength: 1, maxLength: 2 }).map((vs) => (vs.length === 1 ? vs[0]! : vs))
    : fc.constantFrom(...seen);
  return fc.oneof({ weight: 3, arbitrary: picked }, { weight: 1, arbitrary: derived });
}

function metadataArbitrary(harvest: Harvest | undefined): fc.Arbitrary<QueryValues> {
  const pairs = Object.entries(harvest?.metadata ?? {}).flatMap(([key, values]) => values.map((value) => [key, value] as const));
  if (pairs.length === 0) return fc.constant({});
  return fc.constantFrom(...pairs).map(([key, value]) => ({ [`metadata[${key}]`]: value }));
}

/**
 * An arbitrary of the query parameters of an operation (valid direction, plus `limit` above its
 * maximum as spec/rules.yaml limits.page_size allows). Absent parameters shrink first, so counterexamples are short.
 * @param operation the operation whose `in: query` parameters are generated
 * @param constraints harvested values and parameters to leave out
 */
export function queryCaseArbitrary(operation: Operation, constraints: QueryCaseConstraints = {}): fc.Arbitrary<QueryValues> {
  const omit = new Set(constraints.omit ?? []);
  const model: Record<string, fc.Arbitrary<string | string[] | undefined>> = {};
  let deepObject = false;
  // About one and a half optional filters per case: more rarely leave any item to judge.
  const optional = operation.parameters.filter((p) => p.in === 'query' && !p.required && !omit.has(p.name)).length;
  const absentWeight = Math.max(1, Math.round(optional / 1.5) - 1);
  for (const param of operation.parameters) {
    if (param.in !== 'query' || omit.has(param.name)) continue;
    if (param.style === 'deepObject') {
      deepObject = true;
      continue;
    }
    const value = parameterArbitrary(param, constraints.harvest, operation.apiRules === true);
    const pagination = param.name === 'page' || param.name === 'limit';
    model[param.name] = param.required
      ? value
      : fc.oneof({ withCrossShrink: true }, { weight: pagination ? 1 : absentWeight, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value });
  }
  const metadata = deepObject
    ? fc.oneof({ withCrossShrink: true }, { weight: 5, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: metadataArbitrary(constraints.harvest) })
    : fc.constant({});
  return fc.tuple(fc.record(model), metadata).map(([values, meta]) => {
    const query: QueryValues = {};
    for (const [name, value] of Object.entries(values)) if (value !== undefined) query[name] = value;
    return { ...query, ...meta };
  });
}

/** Which boundary examples {@link boundaryExamples} gives. */
export interface BoundaryExampleConstraints {
  /** Include requests with invalid page and limit values (`abc`, 0), which must get a 4xx, never a 5xx. */
  invalid: boolean;
  /** Include examples that set `page` (leave out for page walks, which set it themselves). */
  page: boolean;
  /** Values seen on the target: each filter gets an example of its own with the first one. */
  harvest?: Harvest;
}

/**
 * Hand-picked queries every property starts with, so that rare but decisive cases are always
 * tried: the defaults, `limit` at and above its maximum (spec/rules.yaml limits.page_size), each sortable key in both
 * directions on a full page, each filter alone with a value harvested from the target, and
 * (optionally) invalid `page` and `limit` values. Every example carries a valid value for each
 * required query parameter. On a document without the bundled API's rules (`operation.apiRules`)
 * only valid examples are given: `limit` above its maximum and the invalid values are negative
 * cases there, left to the negative suite.
 */
export function boundaryExamples(operation: Operation, constraints: BoundaryExampleConstraints): QueryValues[] {
  const required = requiredQuery(operation);
  return rawBoundaryExamples(operation, constraints).map((example) => ({ ...required, ...example }));
}

function rawBoundaryExamples(operation: Operation, constraints: BoundaryExampleConstraints): QueryValues[] {
  const apiRules = operation.apiRules === true;
  const query = new Map(operation.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p]));
  const examples: QueryValues[] = [{}];
  const limit = query.get('limit');
  const max: number | undefined = limit?.schema.maximum;
  if (limit && max !== undefined) examples.push({ limit: String(max) }, ...(apiRules ? [{ limit: String(max + 1) }] : []));
  if (limit && query.has('page') && constraints.page) examples.push({ limit: '1', page: '2' });
  const sortKeys = query.get('sorting')?.sortKeys ?? {};
  for (const [key, how] of Object.entries(sortKeys)) {
    if (!('field' in how)) continue;
    for (const value of [key, `-${key}`]) examples.push({ sorting: value, ...(max !== undefined ? { limit: String(max) } : {}) });
  }
  const full: QueryValues = max !== undefined ? { limit: String(max) } : {};
  for (const param of query.values()) {
    const seen = constraints.harvest?.parameters[param.name]?.[0];
    if (param.filter && param.filter.match !== 'unspecified' && seen !== undefined) examples.push({ [param.name]: seen, ...full });
  }
  const [metaKey, metaValues] = Object.entries(constraints.harvest?.metadata ?? {})[0] ?? [];
  if (metaKey && metaValues?.[0] !== undefined && [...query.values()].some((p) => p.style === 'deepObject')) {
    examples.push({ [`metadata[${metaKey}]`]: metaValues[0], ...full });
  }
  if (constraints.invalid && apiRules) {
    if (limit) examples.push({ limit: 'abc' }, { limit: '0' });
    if (query.has('page') && constraints.page) examples.push({ page: '0' });
  }
  return examples;
}
