/**
 * Loads an OpenAPI 3.x document: validates it with swagger-parser, dereferences it for walking,
 * and compiles ajv validators for response bodies on demand.
 * @see https://spec.openapis.org/oas/v3.1.0#openapi-object
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Ajv, type ValidateFunction, type ErrorObject } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import { upgradeFromThreeToThreeOne } from '@scalar/openapi-upgrader/3.0-to-3.1';
import { addWork, timed } from '../timings.js';
import { HarnessError } from '../errors.js';
import { compileCached } from './validator-cache.js';
// Imported for its effect first: the date formats remember their verdicts (core/spec/formats.ts).
import './formats.js';

// ajv-formats is CommonJS with `exports.default`; under NodeNext the function is on `.default`.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv) => Ajv;

/** A JSON Schema object as it appears in an OpenAPI document (loosely typed on purpose). */
export type Schema = Record<string, any>;

/** The API versions we ship a document for (docs/design.md, Parts). */
export const API_VERSIONS = ['2026-10', '2026-04'] as const;
/** One of {@link API_VERSIONS}. */
export type ApiVersion = (typeof API_VERSIONS)[number];

/** The folder of the bundled documents (spec/ at the package's root). */
const SPEC_DIR = fileURLToPath(new URL('../../spec/', import.meta.url));

/**
 * Path of the bundled document of an API version.
 * @param version `2026-10` (latest, default) or `2026-04`
 */
export function specPath(version: ApiVersion = '2026-10'): string {
  return path.join(SPEC_DIR, version === '2026-10' ? 'openapi.yaml' : `openapi.${version}.yaml`);
}

/** `x-filter` of a list query parameter: the response field it filters and how. */
export interface FilterExtension {
  /** Dotted path into an item; `[]` walks an array (`benefits[].id`). */
  field: string;
  /** `in`: the field's value is one of the parameter values; `gte`/`lte`: a bound; `unspecified`: nothing asserted. */
  match: 'in' | 'gte' | 'lte' | 'unspecified';
}

/** `x-sort-keys` entry: the item field a sort key orders by, or why it cannot be asserted. */
export type SortKeyExtension = { field: string } | { unspecified: string };

/** A parameter of an operation, dereferenced. @see https://spec.openapis.org/oas/v3.1.0#parameter-object */
export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
  /** Serialization style; defaults per location (form for query, simple for path). */
  style: string;
  explode: boolean;
  filter?: FilterExtension;
  sortKeys?: Record<string, SortKeyExtension>;
  /** `x-fixture`: the name of the target fixture that holds a usable value (path parameters). */
  fixture?: string;
  /** The parameter's own documented example values (`example`, `examples[*].value`), when it has any. */
  examples?: unknown[];
  /** `allowEmptyValue`: an empty value may be sent (query parameters; false when absent). */
  allowEmptyValue?: boolean;
}

/**
 * Where a credential is sent, from a security scheme: `bearer` as `Authorization: Bearer <token>`
 * (http bearer, oauth2, openIdConnect), `basic` as `Authorization: Basic <base64 of token>` (the
 * token is `user:password`), `apiKey` as the token itself in the named header, query parameter or cookie.
 * @see https://spec.openapis.org/oas/v3.1.0#security-scheme-object
 */
export type CredentialPlacement =
  | { kind: 'bearer' }
  | { kind: 'basic' }
  | { kind: 'apiKey'; in: 'header' | 'query' | 'cookie'; name: string };

/** A security alternative: scheme name to the scopes (role names in OAS 3.1) it requires. */
export type SecurityRequirement = Record<string, string[]>;

/** One operation of the document, dereferenced. @see https://spec.openapis.org/oas/v3.1.0#operation-object */
export interface Operation {
  operationId: string;
  method: string;
  /** Path template as written in the document (`/v1/products/{id}`). */
  path: string;
  tags: string[];
  parameters: Parameter[];
  /** Status code keys as written (`200`, `4XX`, `default`). */
  responseStatuses: string[];
  /** Media types documented per status key. */
  responseMediaTypes: Record<string, string[]>;
  /** Alternatives; an empty array means no authentication. */
  security: SecurityRequirement[];
  /** Every scope named by any alternative. */
  scopes: string[];
  /** Whether the 200 response is a paginated list (`items` array and `pagination` object). */
  paginated: boolean;
  /**
   * Whether the bundled API's own rules (spec/rules.yaml: error `loc`s, version precision,
   * masking, pagination meaning, tenancy, the stateful scenarios) apply to this operation: true on
   * the bundled documents and on a document that opts in with {@link API_RULES_EXTENSION}.
   * Absent (operations made outside a document) means false.
   */
  apiRules?: boolean;
  /**
   * Where the credential of the first security alternative goes (`Authorization: Bearer`, an API
   * key header, query parameter or cookie); undefined when the operation takes none.
   * @see https://spec.openapis.org/oas/v3.1.0#security-scheme-object
   */
  credential?: CredentialPlacement;
  /** The media types of the request body, in document order (empty or absent when it takes none). */
  requestMediaTypes?: string[];
  /** The raw dereferenced operation object, for extensions. */
  raw: Schema;
}

/** Result of validating a value against a schema: ajv's errors on failure. */
export type ValidationResult = { ok: true } | { ok: false; errors: ErrorObject[] };

/** A loaded, validated OpenAPI document with its operations and response validators. */
export interface LoadedSpec {
  /** Absolute path of the document file. */
  file: string;
  /** `info.version`. */
  version: string;
  /** OpenAPI version the document declares (`3.1.0`, `3.0.3`); `document` is read as 3.1 either way. */
  openapi: string;
  /** The dereferenced document, upgraded to OpenAPI 3.1 when it declares 3.0 (see `notes`). */
  document: Schema;
  operations: Operation[];
  /**
   * Operation by operationId; on a document that opts in to the bundled API's rules, a bundled
   * operationId also finds the operation of its route ({@link BUNDLED_ROUTES}). Throws a
   * HarnessError for an unknown id (a bug in a suite).
   */
  operation(operationId: string): Operation;
  /**
   * The documented status key that covers an actual status: exact, then `4XX`, then `default`;
   * undefined when none does.
   */
  matchStatus(operation: Operation, status: number): string | undefined;
  /**
   * Validates a response body against the schema documented for the operation, status key and
   * media type; `undefined` when no schema is documented there.
   */
  validateResponse(operation: Operation, statusKey: string, mediaType: string, body: unknown): ValidationResult | undefined;
  /** The `x-rate-limit` of the document, when declared. */
  rateLimit?: { requests: number; per_seconds: number };
  /** Whether the bundled API's rules apply to the document (see {@link Operation.apiRules}). */
  apiRules: boolean;
  /**
   * What loading changed or ignored, for people: an OpenAPI 3.0 document upgraded to 3.1 for
   * validation, `format`s no validator knows (accepted as any string).
   */
  notes: string[];
}

/**
 * The extension by which a document opts in to the bundled API's rules (spec/rules.yaml), at the
 * top level or in `info`: `x-conformance-api-rules: billing-api-2026` (or `true`). The bundled
 * documents have them without it.
 */
export const API_RULES_EXTENSION = 'x-conformance-api-rules';

/** Whether the bundled API's rules apply to a document: a bundled file, or one that opts in. */
export function documentHasApiRules(file: string, document: Schema): boolean {
  const bundled = API_VERSIONS.some((v) => path.resolve(file) === path.resolve(specPath(v)));
  const flag = document[API_RULES_EXTENSION] ?? document.info?.[API_RULES_EXTENSION];
  return bundled || flag === true || (typeof flag === 'string' && flag.length > 0 && flag !== 'false');
}

/**
 * The operations of the bundled documents by operationId, as `METHOD /path`, and their webhooks by
 * operationId, as `WEBHOOK name`: how the bundled API's rules and scenarios find their operations
 * in a document that opts in ({@link API_RULES_EXTENSION}) under other operationIds, by method and
 * path pattern (parameter names do not matter). A unit test keeps it equal to the bundled document.
 */
export const BUNDLED_ROUTES: Readonly<Record<string, string>> = {
  'products:list': 'GET /v1/products/',
  'subscriptions:list': 'GET /v1/subscriptions/',
  'products:update_benefits': 'POST /v1/products/{id}/benefits',
  'oauth2:token': 'POST /v1/oauth2/token',
  'oauth2:introspect': 'POST /v1/oauth2/introspect',
  'files:list': 'GET /v1/files/',
  'files:create': 'POST /v1/files/',
  'customer_portal:license_keys:list': 'GET /v1/customer-portal/license-keys/',
  'customers:list_payment_methods': 'GET /v1/customers/{id}/payment-methods',
  'customers:delete_external': 'DELETE /v1/customers/external/{external_id}',
  'customer_seats:claim': 'POST /v1/customer-seats/claim',
  'refunds:list': 'GET /v1/refunds/',
  'orders:update': 'PATCH /v1/orders/{id}',
  'orders:get_receipt': 'GET /v1/orders/{id}/receipt',
  'orders:get_invoice': 'GET /v1/orders/{id}/invoice',
  'orders:generate_invoice': 'POST /v1/orders/{id}/invoice',
  'customer_portal:orders:update': 'PATCH /v1/customer-portal/orders/{id}',
  'customer_portal:orders:get_invoice': 'GET /v1/customer-portal/orders/{id}/invoice',
  'customer_portal:orders:generate_invoice': 'POST /v1/customer-portal/orders/{id}/invoice',
  'webhooks:list_endpoints': 'GET /v1/webhooks/endpoints',
  'products:get': 'GET /v1/products/{id}',
  'customers:get': 'GET /v1/customers/{id}',
  'subscriptions:get': 'GET /v1/subscriptions/{id}',
  'orders:get': 'GET /v1/orders/{id}',
  'customer_portal:orders:get': 'GET /v1/customer-portal/orders/{id}',
  'customer_portal:orders:get_receipt': 'GET /v1/customer-portal/orders/{id}/receipt',
  'webhooks:checkout_created': 'WEBHOOK checkout.created',
  'webhooks:order_created': 'WEBHOOK order.created',
  'webhooks:order_updated': 'WEBHOOK order.updated',
  'webhooks:order_paid': 'WEBHOOK order.paid',
};

/** A route as {@link BUNDLED_ROUTES} compares them: upper-case method, path parameters unnamed (`GET /v1/orders/{}`). */
export function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`;
}

/** The edit distance of two strings (Levenshtein: insertions, deletions, substitutions). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The operationIds of `ids` a document does not have (`--operations`), each with up to three of
 * its operationIds nearest by edit distance (case-insensitive; a name containing the other first).
 * `alsoKnown`: further ids a run accepts (the document's webhook operationIds, which the stateful
 * scenarios are listed under).
 * @returns one entry per unknown id, in the given order; empty when every id is known
 */
export function unknownOperations(spec: Pick<LoadedSpec, 'operations'>, ids: readonly string[], alsoKnown: readonly string[] = []): { id: string; suggestions: string[] }[] {
  const known = [...new Set([...spec.operations.map((o) => o.operationId), ...alsoKnown])];
  return ids
    .filter((id) => !known.includes(id))
    .map((id) => {
      const wanted = id.toLowerCase();
      const ranked = known
        .map((name) => ({ name, score: name.toLowerCase().includes(wanted) || wanted.includes(name.toLowerCase()) ? 0 : editDistance(wanted, name.toLowerCase()) }))
        .filter((r) => r.score <= Math.max(3, Math.floor(wanted.length / 3)))
        .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
      return { id, suggestions: ranked.slice(0, 3).map((r) => r.name) };
    });
}

/** `format`s the validators know: ajv-formats' and the OpenAPI format registry's numeric and binary ones. */
const KNOWN_FORMATS = new Set([
  'date', 'time', 'date-time', 'iso-time', 'iso-date-time', 'duration', 'uri', 'uri-reference', 'uri-template', 'url', 'email', 'hostname',
  'ipv4', 'ipv6', 'regex', 'uuid', 'json-pointer', 'json-pointer-uri-fragment', 'relative-json-pointer', 'byte', 'int32', 'int64', 'float',
  'double', 'password', 'binary',
]);

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Follows `$ref`s between OpenAPI objects (not inside schemas), returning the object and its pointer. */
function resolveObject(doc: Schema, value: Schema, pointer: string): { value: Schema; pointer: string } {
  let current = value;
  let at = pointer;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 20; hops++) {
    const ref: string = current.$ref;
    if (!ref.startsWith('#/')) break;
    at = ref.slice(1);
    current = ref
      .slice(2)
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<any>((node, key) => (node == null ? undefined : node[key]), doc);
  }
  return { value: current, pointer: at };
}

/**
 * The options of the response validators' ajv. inlineRefs false: a component many responses share
 * (Product, Order) is compiled once, as its own function, not again inside every response's
 * validator; code.source: a validator can be written out and kept (core/spec/validator-cache.ts).
 */
const AJV_OPTIONS = { strict: false, allErrors: true, validateFormats: true, validateSchema: false, discriminator: false, logger: false, inlineRefs: false, code: { source: true } } as const;
const AJV_OPTIONS_KEY = JSON.stringify(AJV_OPTIONS);
/**
 * The options of the first, verdict-only validators: the same but `allErrors: false`, so that an
 * alternative of an `anyOf` that does not hold is left at its first error instead of being walked
 * whole. A body it rejects is validated again by the `allErrors` validator, for every error.
 */
const FIRST_ERROR_OPTIONS = { ...AJV_OPTIONS, allErrors: false } as const;
const FIRST_ERROR_OPTIONS_KEY = JSON.stringify(FIRST_ERROR_OPTIONS);

function newAjv(openapi: string, unknownFormats: readonly string[], options: typeof AJV_OPTIONS | typeof FIRST_ERROR_OPTIONS = AJV_OPTIONS): Ajv {
  // logger false: a format no validator knows is noted once in LoadedSpec.notes, not per schema.
  // Documents are upgraded to OAS 3.1 at load (JSON Schema 2020-12); an older one keeps draft-07 with `nullable`.
  const ajv: Ajv = openapi.startsWith('3.0') ? new Ajv(options) : (new Ajv2020(options) as unknown as Ajv);
  addFormats(ajv);
  // A format the document names that no validator knows accepts any string (OAS 3.1 section 4.4: formats are open).
  for (const format of unknownFormats) ajv.addFormat(format, true);
  return ajv;
}

/**
 * The document with each `oneOf` that has a `discriminator` read as OpenAPI reads it: the value is
 * validated against the alternative its discriminator property names (by `mapping`, else by the
 * alternative's schema name), not against "exactly one" alternative, which alternatives that
 * overlap (no `additionalProperties: false`) would fail for a correct value. A `oneOf` whose
 * alternatives are not all `$ref`s named by the discriminator is left as it is. Changes the
 * document in place and returns it.
 * @see https://spec.openapis.org/oas/v3.1.0#discriminator-object
 */
export function withDiscriminators(document: Schema): Schema {
  forEachSchemaNode(document, (record) => {
    const discriminator = record.discriminator;
    const alternatives: unknown = record.oneOf;
    if (!discriminator || typeof discriminator.propertyName !== 'string' || !Array.isArray(alternatives) || alternatives.length < 2) return;
    const mapping: Record<string, string> = discriminator.mapping && typeof discriminator.mapping === 'object' ? discriminator.mapping : {};
    const branches: Schema[] = [];
    for (const alternative of alternatives as Schema[]) {
      const ref = alternative?.$ref;
      if (typeof ref !== 'string') return;
      const mapped = Object.entries(mapping).filter(([, target]) => target === ref || `#/components/schemas/${target}` === ref).map(([value]) => value);
      const values = mapped.length ? mapped : [ref.split('/').pop()!.replace(/~1/g, '/').replace(/~0/g, '~')];
      branches.push({ allOf: [{ type: 'object', required: [discriminator.propertyName], properties: { [discriminator.propertyName]: { enum: values } } }, alternative] });
    }
    delete record.oneOf;
    // Beside an anyOf of its own, the branches are a further condition.
    if (record.anyOf !== undefined) record.allOf = [...(Array.isArray(record.allOf) ? record.allOf : []), { anyOf: branches }];
    else record.anyOf = branches;
  }, 'after');
  return document;
}

/** Keywords whose values are instances, not schemas: {@link forEachSchemaNode} never walks into them. */
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'enum', 'const']);

/**
 * Calls `visit` once on every object below `root` (an object reached twice, or through a cycle, is
 * visited once), arrays walked through, data keywords ({@link DATA_KEYWORDS}) left out.
 * @param order `before`: a node before what it holds; `after`: after (so `visit` may rewrite what it holds)
 */
function forEachSchemaNode(root: unknown, visit: (node: Schema) => void, order: 'before' | 'after' = 'before'): void {
  const seen = new WeakSet<object>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) return node.forEach(walk);
    const record = node as Schema;
    if (order === 'before') visit(record);
    for (const [key, value] of Object.entries(record)) if (!DATA_KEYWORDS.has(key)) walk(value);
    if (order === 'after') visit(record);
  };
  walk(root);
}

/** Every `format` the document names that {@link KNOWN_FORMATS} lacks, sorted. */
function unknownFormatsOf(document: Schema): string[] {
  const found = new Set<string>();
  const note = (record: Schema): void => {
    if (typeof record.format === 'string' && (typeof record.type === 'string' || Array.isArray(record.type) || record.pattern || record.minLength !== undefined) && !KNOWN_FORMATS.has(record.format)) {
      found.add(record.format);
    }
  };
  for (const part of [document.paths, document.components, document.webhooks]) forEachSchemaNode(part, note);
  return [...found].sort();
}

/**
 * A copy of a document in which every object schema's `required` leaves out the properties hidden
 * in one direction (`writeOnly` ones for responses, `readOnly` ones for requests): OpenAPI says a
 * writeOnly property "MAY be sent as part of a request but SHOULD NOT be sent as part of a
 * response", so its `required` applies to requests only (and the other way round for readOnly).
 * `$ref`ed property schemas are looked up in the document. A `nullable` without `type`, which ajv
 * refuses and which constrains nothing, is dropped.
 * @see https://spec.openapis.org/oas/v3.0.3#fixed-fields-19 (readOnly, writeOnly)
 */
export function withoutHiddenRequired(document: Schema, hidden: 'readOnly' | 'writeOnly'): Schema {
  const copy = structuredClone(document);
  const resolve = (node: Schema | undefined, hops = 0): Schema | undefined =>
    node && typeof node.$ref === 'string' && node.$ref.startsWith('#/') && hops < 20
      ? resolve(
          node.$ref
            .slice(2)
            .split('/')
            .map((s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
            .reduce<any>((at, key) => (at == null ? undefined : at[key]), copy),
          hops + 1,
        )
      : node;
  const isHidden = (node: Schema | undefined): boolean => {
    const target = resolve(node);
    if (!target || typeof target !== 'object') return false;
    return target[hidden] === true || (Array.isArray(target.allOf) && target.allOf.some((part: Schema) => resolve(part)?.[hidden] === true));
  };
  forEachSchemaNode(copy, (record) => {
    // `nullable` without `type` says nothing (OAS 3.0) or is no keyword at all (3.1); ajv refuses it.
    if (record.nullable !== undefined && record.type === undefined) delete record.nullable;
    if (Array.isArray(record.required) && record.properties && typeof record.properties === 'object') {
      record.required = record.required.filter((name: unknown) => typeof name !== 'string' || !isHidden(record.properties[name]));
    }
  });
  return copy;
}

/** A parameter object's documented examples: `example`, and the `value` of each of `examples`. */
function parameterExamples(p: Schema): { examples?: unknown[] } {
  const values: unknown[] = [];
  if (p.example !== undefined) values.push(p.example);
  if (p.examples && typeof p.examples === 'object') for (const e of Object.values<Schema>(p.examples)) if (e && typeof e === 'object' && e.value !== undefined) values.push(e.value);
  return values.length ? { examples: values } : {};
}

/** Where the credential of an operation's first security alternative goes, from its first scheme the harness can fill. */
function placement(security: SecurityRequirement[], schemes: Record<string, Schema>): { credential?: CredentialPlacement } {
  for (const alternative of security) {
    for (const name of Object.keys(alternative)) {
      const scheme = schemes[name];
      if (!scheme) continue;
      if (scheme.type === 'apiKey' && ['header', 'query', 'cookie'].includes(scheme.in) && typeof scheme.name === 'string') {
        return { credential: { kind: 'apiKey', in: scheme.in, name: scheme.name } };
      }
      if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'basic') return { credential: { kind: 'basic' } };
      if (scheme.type === 'http' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') return { credential: { kind: 'bearer' } };
    }
  }
  return security.length > 0 && !security.some((alt) => Object.keys(alt).length === 0) ? { credential: { kind: 'bearer' } } : {};
}

/** Bump when what the cache holds changes shape. */
const CACHE_FORMAT = 3;
const SWAGGER_PARSER_VERSION: string = (() => {
  try {
    return String(createRequire(import.meta.url)('@apidevtools/swagger-parser/package.json').version);
  } catch {
    return 'unknown';
  }
})();

/**
 * Where validated documents are kept between processes: `$CONFORMANCE_CACHE_DIR`, else a folder of
 * the system's temporary directory (per user). Entries are named by content hash, so they never go stale.
 */
export function specCacheDir(): string {
  // os.userInfo() asks the system every time: the user's folder is read once per process.
  return process.env.CONFORMANCE_CACHE_DIR ?? (userCacheDir ??= path.join(os.tmpdir(), `billing-api-conformance-${os.userInfo().uid}`));
}
let userCacheDir: string | undefined;

/**
 * A document as validation leaves it: the parsed text (for ajv's `$ref`s) and its dereferenced
 * copy, both upgraded to OpenAPI 3.1 when the document is 3.0 (`declared` keeps its own version).
 */
interface Prepared {
  parsed: Schema;
  dereferenced: Schema;
  declared: string;
  /** What preparing changed, for {@link LoadedSpec.notes}. */
  notes: string[];
}

function cacheFile(text: string): string {
  const key = createHash('sha256').update(`${CACHE_FORMAT}\0${SWAGGER_PARSER_VERSION}\0${text}`).digest('hex');
  return path.join(specCacheDir(), `spec-${key.slice(0, 32)}.v8`);
}

/** A document validated before, from the cache; undefined when not there or unreadable. */
async function readPrepared(file: string): Promise<Prepared | undefined> {
  try {
    const value = v8.deserialize(await readFile(file)) as Prepared;
    return value && typeof value.parsed === 'object' && typeof value.dereferenced === 'object' && typeof value.declared === 'string' && Array.isArray(value.notes) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps a validated document for the next process (v8 serialization keeps the shared and circular references of dereferencing); failures are ignored. */
async function writePrepared(file: string, prepared: Prepared): Promise<void> {
  try {
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temp, v8.serialize(prepared));
    await rename(temp, file);
  } catch {
    // A read-only or full disk only costs the next start its validation.
  }
}

/**
 * The text of a document file and its absolute path.
 * @throws HarnessError CNF_ERR_SPEC_INVALID when the file cannot be read
 */
export async function readDocumentText(file: string): Promise<{ absolute: string; text: string }> {
  const absolute = path.resolve(file);
  try {
    return { absolute, text: await readFile(absolute, 'utf8') };
  } catch (error) {
    throw new HarnessError('CNF_ERR_SPEC_INVALID', `cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Reads, validates and prepares an OpenAPI 3.x document. A document is validated once per content:
 * the validated and dereferenced document is kept in {@link specCacheDir} (invalid documents never
 * are), which makes the next load of the same text a few milliseconds instead of half a second.
 * @param file path to a YAML or JSON document
 * @throws HarnessError CNF_ERR_SPEC_INVALID when the file cannot be read or the document is invalid
 */
export async function loadSpec(file: string = specPath()): Promise<LoadedSpec> {
  const started = performance.now();
  try {
    return await loadSpecUntimed(file);
  } finally {
    addWork('document', performance.now() - started);
  }
}

async function loadSpecUntimed(file: string): Promise<LoadedSpec> {
  const { absolute, text } = await readDocumentText(file);
  // A document with external references depends on more than its text: it is validated every time.
  const cache = /\$ref['"]?\s*:(?!\s*['"]?#)/.test(text) ? undefined : cacheFile(text);
  const cached = cache === undefined ? undefined : await readPrepared(cache);
  const ready = cached ?? (await prepare(file, text));
  if (cache !== undefined && !cached) await writePrepared(cache, ready);
  return prepared(absolute, file, ready, cache);
}

/**
 * Parses and validates a document's text.
 * @throws HarnessError CNF_ERR_SPEC_INVALID
 */
async function prepare(file: string, text: string): Promise<Prepared> {
  // Imported here: a cached document needs neither the YAML parser nor the validator.
  const [{ default: YAML }, { default: SwaggerParser }] = await Promise.all([import('yaml'), import('@apidevtools/swagger-parser')]);
  let parsed: Schema;
  try {
    parsed = YAML.parse(text, { maxAliasCount: 1000 }) as Schema;
  } catch (error) {
    throw new HarnessError('CNF_ERR_SPEC_INVALID', `${file} is not valid YAML or JSON: ${(error as Error).message}`, { cause: error });
  }
  if (!parsed || typeof parsed !== 'object' || typeof parsed.openapi !== 'string' || !parsed.openapi.startsWith('3.')) {
    throw new HarnessError('CNF_ERR_SPEC_INVALID', `${file} is not an OpenAPI 3.x document (no "openapi: 3.x" field)`);
  }
  let dereferenced: Schema;
  const notes: string[] = [];
  try {
    // validate() dereferences in place, so give it a copy and keep `parsed` for ajv's $refs.
    dereferenced = (await SwaggerParser.validate(structuredClone(parsed) as any)) as Schema;
  } catch (error) {
    // Schemas with an `$id` re-base their `$ref`s (JSON Schema 2020-12 section 8.2.1), which
    // authors often do not mean: `$ref: '#/components/…'` under an `$id` is written for the
    // document. Such a document is read as its author meant, without the `$id`s, and says so.
    const stripped = withoutSchemaIds(parsed);
    if (stripped.count === 0) throw new HarnessError('CNF_ERR_SPEC_INVALID', `${file} is not a valid OpenAPI document: ${(error as Error).message}`, { cause: error });
    try {
      dereferenced = (await SwaggerParser.validate(structuredClone(stripped.document) as any)) as Schema;
    } catch {
      throw new HarnessError('CNF_ERR_SPEC_INVALID', `${file} is not a valid OpenAPI document: ${(error as Error).message}`, { cause: error });
    }
    parsed = stripped.document;
    notes.push(`${stripped.count} schema $id${stripped.count > 1 ? 's' : ''} ignored: their $refs (#/components/…) resolve against the OpenAPI document, as their authors meant; their $dynamicRefs accept any value`);
  }
  const declared = parsed.openapi;
  if (declared.startsWith('3.0')) {
    // One dialect downstream: nullable, boolean exclusive bounds, example and binary formats of
    // OAS 3.0 become their JSON Schema 2020-12 forms (Scalar's upgrader, a maintained converter),
    // so ajv, the generators and the checks see OAS 3.1 only. Validated as written, upgraded after.
    parsed = upgradeFromThreeToThreeOne(structuredClone(parsed) as any) as Schema;
    try {
      dereferenced = (await SwaggerParser.dereference(structuredClone(parsed) as any)) as Schema;
    } catch (error) {
      throw new HarnessError('CNF_ERR_SPEC_INVALID', `${file} could not be upgraded from OpenAPI ${declared} to 3.1: ${(error as Error).message}`, { cause: error });
    }
  }
  return { parsed, dereferenced, declared, notes };
}

/** A copy of a document without the `$id` of its schemas, and how many there were. */
function withoutSchemaIds(document: Schema): { document: Schema; count: number } {
  const copy = structuredClone(document);
  let count = 0;
  const walk = (node: unknown, key?: string): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((item) => walk(item));
    const record = node as Schema;
    if (key !== 'properties') {
      if (typeof record.$id === 'string') {
        delete record.$id;
        count++;
      }
      // Anchors of the resources an $id made become duplicates in one document: their dynamic
      // references cannot be resolved there, and accept any value instead.
      delete record.$anchor;
      delete record.$dynamicAnchor;
      delete record.$dynamicRef;
    }
    for (const [name, value] of Object.entries(record)) if (!['example', 'examples', 'default', 'enum', 'const'].includes(name)) walk(value, name);
  };
  walk(copy.paths);
  walk(copy.components);
  walk(copy.webhooks);
  return { document: copy, count };
}

/** The operations and validators of a validated document. */
function prepared(absolute: string, file: string, { parsed, dereferenced, declared, notes: preparing }: Prepared, cacheKey?: string): LoadedSpec {
  const DOC_ID = 'openapi-document';
  const apiRules = documentHasApiRules(absolute, parsed);
  const unknownFormats = unknownFormatsOf(parsed);
  const notes: string[] = [...preparing];
  if (declared !== parsed.openapi) notes.push(`OpenAPI ${declared} upgraded to ${parsed.openapi} for validation (nullable, exclusive bounds, examples)`);
  if (unknownFormats.length) notes.push(`format${unknownFormats.length > 1 ? 's' : ''} ${unknownFormats.join(', ')} not known to the validators: any string is accepted`);
  const schemes: Record<string, Schema> = dereferenced.components?.securitySchemes ?? {};
  // Made with the first response validated: adding the document walks all of it, which a reference
  // server that never validates a response should not pay for at every start.
  const ajvs: { all?: Ajv; first?: Ajv } = {};
  let responseDocument: Schema | undefined;
  const ajvOf = (which: 'all' | 'first'): Ajv => {
    let made = ajvs[which];
    if (!made) {
      made = newAjv(parsed.openapi, unknownFormats, which === 'all' ? AJV_OPTIONS : FIRST_ERROR_OPTIONS);
      // Responses: a writeOnly property is never required in them; a discriminator picks the alternative.
      responseDocument ??= withDiscriminators(withoutHiddenRequired(parsed, 'writeOnly'));
      made.addSchema(responseDocument, DOC_ID);
      ajvs[which] = made;
    }
    return made;
  };
  /** Per response: the verdict-only validator and, made at the first body it rejects, the every-error one. */
  const validators = new Map<string, { ref: string; first: ValidateFunction; all?: ValidateFunction } | null>();
  const compileResponse = (which: 'all' | 'first', ref: string): ValidateFunction =>
    timed('document', () =>
      // Kept between processes by the document's content (core/spec/validator-cache.ts).
      compileCached(() => ajvOf(which), { $ref: ref }, cacheKey === undefined ? undefined : `${cacheKey}\0${which === 'all' ? AJV_OPTIONS_KEY : FIRST_ERROR_OPTIONS_KEY}\0${ref}`, specCacheDir()),
    );

  const operations: Operation[] = [];
  for (const [template, pathItem] of Object.entries<Schema>(dereferenced.paths ?? {})) {
    for (const method of METHODS) {
      const op = pathItem[method];
      if (!op) continue;
      const params = new Map<string, Schema>();
      for (const p of [...(pathItem.parameters ?? []), ...(op.parameters ?? [])]) params.set(`${p.in}:${p.name}`, p);
      const parameters: Parameter[] = [...params.values()].map((p) => ({
        name: p.name,
        in: p.in,
        required: Boolean(p.required) || p.in === 'path',
        schema: p.schema ?? {},
        style: p.style ?? (p.in === 'query' || p.in === 'cookie' ? 'form' : 'simple'),
        explode: p.explode ?? (p.style ?? (p.in === 'query' ? 'form' : 'simple')) === 'form',
        ...(p['x-filter'] ? { filter: p['x-filter'] } : {}),
        ...(p['x-sort-keys'] ? { sortKeys: p['x-sort-keys'] } : {}),
        ...(typeof p['x-fixture'] === 'string' ? { fixture: p['x-fixture'] } : {}),
        ...parameterExamples(p),
        ...(p.allowEmptyValue === true ? { allowEmptyValue: true } : {}),
      }));
      const security: SecurityRequirement[] = op.security ?? dereferenced.security ?? [];
      const responses: Schema = op.responses ?? {};
      const responseMediaTypes: Record<string, string[]> = {};
      for (const [status, response] of Object.entries<Schema>(responses)) {
        responseMediaTypes[status] = Object.keys(response?.content ?? {});
      }
      const okSchema = responses['200']?.content?.['application/json']?.schema;
      operations.push({
        operationId: op.operationId ?? `${method.toUpperCase()} ${template}`,
        method: method.toUpperCase(),
        path: template,
        tags: op.tags ?? [],
        parameters,
        responseStatuses: Object.keys(responses),
        responseMediaTypes,
        security,
        scopes: [...new Set(security.flatMap((alt) => Object.values(alt).flat()))],
        paginated: Boolean(okSchema?.properties?.items?.type === 'array' && okSchema?.properties?.pagination),
        apiRules,
        ...placement(security, schemes),
        requestMediaTypes: Object.keys(op.requestBody?.content ?? {}),
        raw: op,
      });
    }
  }
  const byId = new Map(operations.map((o) => [o.operationId, o]));
  // A document that opts in to the bundled API's rules may name its operations otherwise: found by route.
  const byRoute = new Map(operations.map((o) => [routeKey(o.method, o.path), o]));
  const byBundledRoute = (operationId: string): Operation | undefined => {
    const route = BUNDLED_ROUTES[operationId];
    return route === undefined ? undefined : byRoute.get(route.replace(/\{[^}]*\}/g, '{}'));
  };

  const spec: LoadedSpec = {
    file: absolute,
    version: String(dereferenced.info?.version ?? ''),
    openapi: declared,
    apiRules,
    notes,
    document: dereferenced,
    operations,
    operation(operationId) {
      const found = byId.get(operationId) ?? (apiRules ? byBundledRoute(operationId) : undefined);
      if (!found) throw new HarnessError('CNF_ERR_SPEC_INVALID', `operation ${operationId} is not in ${file}`);
      return found;
    },
    matchStatus(operation, status) {
      const keys = operation.responseStatuses;
      const exact = String(status);
      if (keys.includes(exact)) return exact;
      const range = `${exact[0]}XX`;
      const found = keys.find((k) => k.toUpperCase() === range);
      if (found) return found;
      return keys.includes('default') ? 'default' : undefined;
    },
    validateResponse(operation, statusKey, mediaType, body) {
      const key = `${operation.method} ${operation.path} ${statusKey} ${mediaType}`;
      let validate = validators.get(key);
      if (validate === undefined) {
        const opPointer = `/paths/${escapePointer(operation.path)}/${operation.method.toLowerCase()}`;
        const rawOp = resolveObject(parsed, parsed.paths?.[operation.path]?.[operation.method.toLowerCase()], opPointer);
        const response = resolveObject(parsed, rawOp.value?.responses?.[statusKey], `${rawOp.pointer}/responses/${escapePointer(statusKey)}`);
        const media = response.value?.content?.[mediaType];
        if (media?.schema) {
          const ref = `${DOC_ID}#${response.pointer}/content/${escapePointer(mediaType)}/schema`;
          validate = { ref, first: compileResponse('first', ref) };
        } else validate = null;
        validators.set(key, validate);
      }
      if (!validate) return undefined;
      if (validate.first(body)) return { ok: true };
      validate.all ??= compileResponse('all', validate.ref);
      return validate.all(body) ? { ok: true } : { ok: false, errors: [...(validate.all.errors ?? [])] };
    },
  };
  const rate = dereferenced.info?.['x-rate-limit'];
  if (rate && typeof rate.requests === 'number') spec.rateLimit = { requests: rate.requests, per_seconds: rate.per_seconds ?? 1 };
  return spec;
}
