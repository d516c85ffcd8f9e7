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
import { HarnessError } from '../harness/errors.js';

// ajv-formats is CommonJS with `exports.default`; under NodeNext the function is on `.default`.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv) => Ajv;

/** A JSON Schema object as it appears in an OpenAPI document (loosely typed on purpose). */
export type Schema = Record<string, any>;

/** The API versions we ship a document for (section Versioning). */
export const API_VERSIONS = ['2026-10', '2026-04'] as const;
/** One of {@link API_VERSIONS}. */
export type ApiVersion = (typeof API_VERSIONS)[number];

const SPEC_DIR = path.dirname(fileURLToPath(import.meta.url));

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
}

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
  /** OpenAPI version of the document (`3.1.0`, `3.0.3`). */
  openapi: string;
  /** The dereferenced document. */
  document: Schema;
  operations: Operation[];
  /** Operation by operationId; throws a HarnessError for an unknown id (a bug in a suite). */
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
}

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

function newAjv(openapi: string): Ajv {
  const options = { strict: false, allErrors: true, validateFormats: true, validateSchema: false, discriminator: false } as const;
  // OAS 3.1 schemas are JSON Schema 2020-12; OAS 3.0 ones are draft-04-like with `nullable`.
  const ajv: Ajv = openapi.startsWith('3.1') ? (new Ajv2020(options) as unknown as Ajv) : new Ajv(options);
  addFormats(ajv);
  return ajv;
}

/** Bump when what the cache holds changes shape. */
const CACHE_FORMAT = 1;
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
  return process.env.CONFORMANCE_CACHE_DIR ?? path.join(os.tmpdir(), `billing-api-conformance-${os.userInfo().uid}`);
}

/** A document as validation leaves it: the parsed text (for ajv's `$ref`s) and its dereferenced copy. */
interface Prepared {
  parsed: Schema;
  dereferenced: Schema;
}

function cacheFile(text: string): string {
  const key = createHash('sha256').update(`${CACHE_FORMAT}\0${SWAGGER_PARSER_VERSION}\0${text}`).digest('hex');
  return path.join(specCacheDir(), `spec-${key.slice(0, 32)}.v8`);
}

/** A document validated before, from the cache; undefined when not there or unreadable. */
async function readPrepared(file: string): Promise<Prepared | undefined> {
  try {
    const value = v8.deserialize(await readFile(file)) as Prepared;
    return value && typeof value.parsed === 'object' && typeof value.dereferenced === 'object' ? value : undefined;
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
 * Reads, validates and prepares an OpenAPI 3.x document. A document is validated once per content:
 * the validated and dereferenced document is kept in {@link specCacheDir} (invalid documents never
 * are), which makes the next load of the same text a few milliseconds instead of half a second.
 * @param file path to a YAML or JSON document
 * @throws HarnessError CNF_ERR_SPEC_INVALID when the file cannot be read or the document is invalid
 */
export async function loadSpec(file: string = specPath()): Promise<LoadedSpec> {
  const absolute = path.resolve(file);
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (error) {
    throw new HarnessError('CNF_ERR_SPEC_INVALID', `cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
  // A document with external references depends on more than its text: it is validated every time.
  const cache = /\$ref['"]?\s*:(?!\s*['"]?#)/.test(text) ? undefined : cacheFile(text);
  const cached = cache === undefined ? undefined : await readPrepared(cache);
  const { parsed, dereferenced } = cached ?? (await prepare(file, text));
  if (cache !== undefined && !cached) await writePrepared(cache, { parsed, dereferenced });
  return prepared(absolute, file, parsed, dereferenced);
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
  try {
    // validate() dereferences in place, so give it a copy and keep `parsed` for ajv's $refs.
    dereferenced = (await SwaggerParser.validate(structuredClone(parsed) as any)) as Schema;
  } catch (error) {
    throw new HarnessError('CNF_ERR_SPEC_INVALID', `${file} is not a valid OpenAPI document: ${(error as Error).message}`, { cause: error });
  }
  return { parsed, dereferenced };
}

/** The operations and validators of a validated document. */
function prepared(absolute: string, file: string, parsed: Schema, dereferenced: Schema): LoadedSpec {

  const DOC_ID = 'openapi-document';
  // Made with the first response validated: adding the document walks all of it, which a reference
  // server that never validates a response should not pay for at every start.
  let ajv: Ajv | undefined;
  const ajvOf = (): Ajv => {
    if (!ajv) {
      ajv = newAjv(parsed.openapi);
      ajv.addSchema(parsed, DOC_ID);
    }
    return ajv;
  };
  const validators = new Map<string, ValidateFunction | null>();

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
        raw: op,
      });
    }
  }
  const byId = new Map(operations.map((o) => [o.operationId, o]));

  const spec: LoadedSpec = {
    file: absolute,
    version: String(dereferenced.info?.version ?? ''),
    openapi: parsed.openapi,
    document: dereferenced,
    operations,
    operation(operationId) {
      const found = byId.get(operationId);
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
        validate = media?.schema
          ? ajvOf().compile({ $ref: `${DOC_ID}#${response.pointer}/content/${escapePointer(mediaType)}/schema` })
          : null;
        validators.set(key, validate);
      }
      if (!validate) return undefined;
      return validate(body) ? { ok: true } : { ok: false, errors: [...(validate.errors ?? [])] };
    },
  };
  const rate = dereferenced.info?.['x-rate-limit'];
  if (rate && typeof rate.requests === 'number') spec.rateLimit = { requests: rate.requests, per_seconds: rate.per_seconds ?? 1 };
  return spec;
}
