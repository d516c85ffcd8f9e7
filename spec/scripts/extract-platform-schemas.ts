/**
 * Transcribes the platform's record schemas into `spec/platform/<version>.json`, for the tests that
 * validate every record the reference emits (test/server/platform-records.test.ts): for each
 * operation the reference serves, the platform's response schema per status code, and the
 * component schemas they reach, nothing else (no descriptions, examples or other operations).
 *
 * The platform's document is reference material outside the repository; give its path:
 * `npx tsx spec/scripts/extract-platform-schemas.ts /path/to/openapi-2026-10.json`.
 * The platform's 2026-04 document is the same except `info.version` (its notes), so both files come
 * from one document; then the documented drift after the document's snapshot is applied (see
 * {@link PLATFORM_DRIFT} and docs/platform.md).
 * @see docs/platform.md
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SPEC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the transcribed schemas are written: `spec/platform/<version>.json`. */
export const PLATFORM_DIR = path.join(SPEC_DIR, 'platform');

/** The API versions transcribed. */
export const PLATFORM_VERSIONS = ['2026-04', '2026-10'] as const;

/** The platform operations whose responses are transcribed: `METHOD path` (the platform's paths, which are ours). */
export const PLATFORM_OPERATIONS = [
  'GET /v1/products/',
  'GET /v1/products/{id}',
  'POST /v1/products/{id}/benefits',
  'POST /v1/oauth2/token',
  'POST /v1/oauth2/introspect',
  'GET /v1/files/',
  'POST /v1/files/',
  'GET /v1/customer-portal/license-keys/',
  'GET /v1/customers/{id}',
  'GET /v1/customers/{id}/payment-methods',
  'DELETE /v1/customers/external/{external_id}',
  'POST /v1/customer-seats/claim',
  'GET /v1/refunds/',
  'GET /v1/subscriptions/',
  'GET /v1/subscriptions/{id}',
  'GET /v1/webhooks/endpoints',
  'GET /v1/orders/{id}',
  'PATCH /v1/orders/{id}',
  'GET /v1/orders/{id}/receipt',
  'GET /v1/orders/{id}/invoice',
  'POST /v1/orders/{id}/invoice',
  'GET /v1/customer-portal/orders/{id}',
  'PATCH /v1/customer-portal/orders/{id}',
  'GET /v1/customer-portal/orders/{id}/receipt',
  'GET /v1/customer-portal/orders/{id}/invoice',
  'POST /v1/customer-portal/orders/{id}/invoice',
] as const;

type Schema = Record<string, unknown>;

/** Keywords dropped from every schema: prose and examples, not shape. */
const PROSE = new Set(['title', 'description', 'examples', 'example', 'deprecated', 'x-speakeasy-name-override']);

/** A schema without prose; `oneOf` becomes `anyOf` and `discriminator` goes (see the module comment of spec/platform/README.md). */
function clean(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clean);
  if (value === null || typeof value !== 'object') return value;
  const out: Schema = {};
  for (const [key, child] of Object.entries(value as Schema)) {
    if (PROSE.has(key) || key === 'discriminator') continue;
    // Property names are data, not keywords: keep a property called `title` or `description`.
    if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(child as Schema).map(([name, s]) => [name, clean(s)]));
      continue;
    }
    out[key === 'oneOf' ? 'anyOf' : key] = clean(child);
  }
  return out;
}

/** Component schema names a value refers to, directly. */
function refsOf(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) refsOf(v, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value as Schema)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) found.add(child.slice('#/components/schemas/'.length));
      else refsOf(child, found);
    }
  }
}

/** A price schema of the two amount types the document's snapshot lacks, from the types of `@polar-sh/sdk@1.0.1` (both versions). */
function driftPrice(amountType: 'unit_based' | 'metered_tiers'): Schema {
  const common: Schema = {
    created_at: { type: 'string', format: 'date-time' },
    modified_at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
    id: { type: 'string', format: 'uuid4' },
    source: { $ref: '#/components/schemas/ProductPriceSource' },
    amount_type: { type: 'string', const: amountType },
    price_currency: { type: 'string' },
    tax_behavior: { anyOf: [{ $ref: '#/components/schemas/TaxBehaviorOption' }, { type: 'null' }] },
    is_archived: { type: 'boolean' },
    product_id: { type: 'string', format: 'uuid4' },
    tiers: { $ref: '#/components/schemas/PriceTiers' },
  };
  const own: Schema = amountType === 'unit_based'
    ? {
        minimum_units: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
        unit_label: { anyOf: [{ type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'string' } } }, { type: 'null' }] },
        maximum_units: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      }
    : {
        cap_amount: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
        meter_id: { type: 'string', format: 'uuid4' },
        meter: { $ref: '#/components/schemas/ProductPriceMeter' },
      };
  const properties = { ...common, ...own };
  return { type: 'object', properties, required: Object.keys(properties), 'x-source': 'platform: types of @polar-sh/sdk@1.0.1 (drift after the document)' };
}

/**
 * The drift after the document's snapshot that the transcription applies, per version (platform
 * notes, section 4, and the types of `@polar-sh/sdk@1.0.1`): Product.is_deletable in 2026-10, and the
 * unit_based and metered_tiers prices in both versions.
 */
export const PLATFORM_DRIFT = [
  '2026-10: Product.is_deletable (boolean, required)',
  'both: ProductPrice adds ProductPriceUnitBased and ProductPriceMeteredTiers (tiers: {type, tiers: [{bound?, unit_amount}]})',
] as const;

function applyDrift(version: string, schemas: Record<string, Schema>): void {
  schemas.ProductPriceUnitBased = driftPrice('unit_based');
  schemas.ProductPriceMeteredTiers = driftPrice('metered_tiers');
  schemas.PriceTiers = {
    type: 'object',
    required: ['type', 'tiers'],
    properties: {
      type: { type: 'string', enum: ['volume', 'graduated'] },
      tiers: { type: 'array', minItems: 1, items: { type: 'object', required: ['unit_amount'], properties: { bound: { anyOf: [{ type: 'integer' }, { type: 'null' }] }, unit_amount: { type: 'string' } } } },
    },
    'x-source': 'platform: types of @polar-sh/sdk@1.0.1 (Tiers)',
  };
  const productPrice = schemas.ProductPrice as { anyOf: Schema[] };
  productPrice.anyOf.push({ $ref: '#/components/schemas/ProductPriceUnitBased' }, { $ref: '#/components/schemas/ProductPriceMeteredTiers' });
  if (version === '2026-10') {
    const product = schemas.Product as { properties: Schema; required: string[] };
    product.properties.is_deletable = { type: 'boolean' };
    product.required.push('is_deletable');
  }
}

/** The transcription of one version. */
export interface PlatformSchemas {
  version: string;
  source: { document: string; commit: string; sha256: string; drift: readonly string[] };
  /** `METHOD path` → status code → schema (a `$ref` into components, `{}` for any JSON, or null for no body). */
  operations: Record<string, Record<string, Schema | null>>;
  components: { schemas: Record<string, Schema> };
}

/**
 * The transcription of `document` (the platform's parsed OpenAPI document) for `version`.
 * @throws Error when an operation of {@link PLATFORM_OPERATIONS} is not in the document
 */
export function transcribe(document: { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: Schema }> }> }>>; components: { schemas: Record<string, Schema> } }, version: string, sha256: string): PlatformSchemas {
  const operations: PlatformSchemas['operations'] = {};
  const wanted = new Set<string>();
  for (const key of PLATFORM_OPERATIONS) {
    const [method, route] = key.split(' ') as [string, string];
    const operation = document.paths[route]?.[method.toLowerCase()];
    if (!operation) throw new Error(`the platform's document has no ${key}`);
    operations[key] = {};
    for (const [status, response] of Object.entries(operation.responses)) {
      const schema = response.content?.['application/json']?.schema;
      operations[key][status] = schema === undefined ? null : (clean(schema) as Schema);
      refsOf(schema, wanted);
    }
  }
  const schemas: Record<string, Schema> = {};
  const queue = [...wanted, 'TaxBehaviorOption', 'ProductPriceMeter', 'ProductPriceSource'];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (Object.hasOwn(schemas, name)) continue;
    const schema = document.components.schemas[name];
    if (!schema) throw new Error(`the platform's document has no schema ${name}`);
    schemas[name] = clean(schema) as Schema;
    const next = new Set<string>();
    refsOf(schema, next);
    queue.push(...next);
  }
  applyDrift(version, schemas);
  const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  return {
    version,
    source: { document: 'polarsource/polar docs/openapi/2026-10.openapi.json (2026-04 is identical but for info.version)', commit: 'c6c3645e639ee8eeaa05aa0835cf8e39e330382f', sha256, drift: PLATFORM_DRIFT },
    operations,
    components: { schemas: sorted },
  };
}

async function main(file: string | undefined): Promise<void> {
  if (!file) throw new Error('usage: tsx spec/scripts/extract-platform-schemas.ts <the platform\'s openapi-2026-10.json>');
  const bytes = await readFile(file);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const document = JSON.parse(bytes.toString('utf8'));
  await mkdir(PLATFORM_DIR, { recursive: true });
  for (const version of PLATFORM_VERSIONS) {
    const out = path.join(PLATFORM_DIR, `${version}.json`);
    await writeFile(out, `${JSON.stringify(transcribe(document, version, sha256), null, 1)}\n`);
    process.stdout.write(`wrote ${path.relative(process.cwd(), out)}\n`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv[2]).catch((error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  });
}
