// Both bundled documents: valid, every operation of the API description present with a
// `tag:verb` operationId, and every example valid against its schema.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import YAML from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Ajv } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import { API_VERSIONS, loadSpec, specPath } from '../../core/spec/load.js';

// ajv-formats is CommonJS with `exports.default` (as in core/spec/load.ts).
const addFormats = ajvFormats.default as unknown as (ajv: Ajv) => Ajv;

/** Every operation the API description names: its endpoints table and its change history. */
const OPERATIONS: [method: string, path: string, operationId: string][] = [
  ['POST', '/v1/products/{id}/benefits', 'products:update_benefits'],
  ['GET', '/v1/products/', 'products:list'],
  ['POST', '/v1/oauth2/token', 'oauth2:token'],
  ['POST', '/v1/oauth2/introspect', 'oauth2:introspect'],
  ['POST', '/v1/files/', 'files:create'],
  ['GET', '/v1/files/', 'files:list'],
  ['GET', '/v1/customer-portal/license-keys/', 'customer_portal:license_keys:list'],
  ['GET', '/v1/customers/{id}/payment-methods', 'customers:list_payment_methods'],
  ['DELETE', '/v1/customers/external/{external_id}', 'customers:delete_external'],
  ['POST', '/v1/customer-seats/claim', 'customer_seats:claim'],
  ['GET', '/v1/refunds/', 'refunds:list'],
  ['GET', '/v1/subscriptions/', 'subscriptions:list'],
  ['GET', '/v1/orders/{id}/receipt', 'orders:get_receipt'],
  ['GET', '/v1/webhooks/endpoints', 'webhooks:list_endpoints'],
  ['POST', '/v1/orders/{id}/invoice', 'orders:generate_invoice'],
  ['GET', '/v1/orders/{id}/invoice', 'orders:get_invoice'],
  ['POST', '/v1/customer-portal/orders/{id}/invoice', 'customer_portal:orders:generate_invoice'],
  ['GET', '/v1/customer-portal/orders/{id}/invoice', 'customer_portal:orders:get_invoice'],
  ['PATCH', '/v1/orders/{id}', 'orders:update'],
  ['PATCH', '/v1/customer-portal/orders/{id}', 'customer_portal:orders:update'],
  // Read-back operations the platform's clients call around the twenty (docs/platform.md).
  ['GET', '/v1/products/{id}', 'products:get'],
  ['GET', '/v1/customers/{id}', 'customers:get'],
  ['GET', '/v1/subscriptions/{id}', 'subscriptions:get'],
  ['GET', '/v1/orders/{id}', 'orders:get'],
  ['GET', '/v1/customer-portal/orders/{id}', 'customer_portal:orders:get'],
  ['GET', '/v1/customer-portal/orders/{id}/receipt', 'customer_portal:orders:get_receipt'],
];

/** The event kinds the API description names (the events.* rules of spec/rules.yaml), as OAS 3.1 webhooks. */
const WEBHOOKS = ['checkout.created', 'order.created', 'order.updated', 'order.paid'];

/** `tag:verb`, where the tag may itself hold a colon (`customer_portal:license_keys:list`). */
const OPERATION_ID = /^[a-z][a-z0-9_]*(:[a-z][a-z0-9_]*)+$/;

type Json = Record<string, any>;
interface Example {
  /** JSON pointer of the example value, for messages. */
  at: string;
  /** JSON pointer of the schema it must validate against. */
  schema: string;
  value: unknown;
}

const escape = (key: string | number) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
const SCHEMA_VALUES = new Set(['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

function resolve(doc: Json, node: Json): Json {
  if (typeof node?.$ref !== 'string' || !node.$ref.startsWith('#/')) return node;
  return node.$ref
    .slice(2)
    .split('/')
    .map((s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((n: Json | undefined, k: string) => n?.[k], doc) as Json;
}

/** `example` and `examples` of a schema and of every schema inside it. */
function schemaExamples(schema: unknown, at: string, out: Example[]): void {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return;
  const node = schema as Json;
  if ('example' in node) out.push({ at: `${at}/example`, schema: at, value: node.example });
  if (Array.isArray(node.examples)) node.examples.forEach((value: unknown, i: number) => out.push({ at: `${at}/examples/${i}`, schema: at, value }));
  for (const [key, value] of Object.entries(node)) {
    if (SCHEMA_MAPS.has(key) && value && typeof value === 'object') {
      for (const [name, sub] of Object.entries(value)) schemaExamples(sub, `${at}/${key}/${escape(name)}`, out);
    } else if (SCHEMA_VALUES.has(key)) schemaExamples(value, `${at}/${key}`, out);
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) value.forEach((sub, i) => schemaExamples(sub, `${at}/${key}/${i}`, out));
  }
}

/** `example` and `examples` of a media type or parameter (Example Objects, `$ref`s followed), and of its schema. */
function objectExamples(doc: Json, node: Json, at: string, out: Example[]): void {
  if (!node?.schema) return;
  if ('example' in node) out.push({ at: `${at}/example`, schema: `${at}/schema`, value: node.example });
  for (const [name, example] of Object.entries<Json>(node.examples ?? {})) {
    const resolved = resolve(doc, example);
    if (resolved && 'value' in resolved) out.push({ at: `${at}/examples/${escape(name)}`, schema: `${at}/schema`, value: resolved.value });
  }
  schemaExamples(node.schema, `${at}/schema`, out);
}

/** Every example of a document: request bodies, responses and parameters of paths and webhooks, and components. */
function collectExamples(doc: Json): Example[] {
  const out: Example[] = [];
  const operation = (op: Json, at: string) => {
    for (const [i, p] of (op.parameters ?? []).entries()) objectExamples(doc, p, `${at}/parameters/${i}`, out);
    for (const [type, media] of Object.entries<Json>(op.requestBody?.content ?? {})) objectExamples(doc, media, `${at}/requestBody/content/${escape(type)}`, out);
    for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
      for (const [type, media] of Object.entries<Json>(response?.content ?? {})) objectExamples(doc, media, `${at}/responses/${status}/content/${escape(type)}`, out);
    }
  };
  for (const root of ['paths', 'webhooks'] as const) {
    for (const [name, item] of Object.entries<Json>(doc[root] ?? {})) {
      for (const [method, op] of Object.entries<Json>(item)) if (METHODS.has(method)) operation(op, `/${root}/${escape(name)}/${method}`);
    }
  }
  const c = doc.components ?? {};
  for (const [name, schema] of Object.entries(c.schemas ?? {})) schemaExamples(schema, `/components/schemas/${escape(name)}`, out);
  for (const [name, p] of Object.entries<Json>(c.parameters ?? {})) objectExamples(doc, p, `/components/parameters/${escape(name)}`, out);
  for (const [name, r] of Object.entries<Json>(c.responses ?? {})) {
    for (const [type, media] of Object.entries<Json>(r.content ?? {})) objectExamples(doc, media, `/components/responses/${escape(name)}/content/${escape(type)}`, out);
  }
  for (const [name, r] of Object.entries<Json>(c.requestBodies ?? {})) {
    for (const [type, media] of Object.entries<Json>(r.content ?? {})) objectExamples(doc, media, `/components/requestBodies/${escape(name)}/content/${escape(type)}`, out);
  }
  return out;
}

/** The examples of a document that do not validate against their schema, with ajv's reasons. */
function invalidExamples(raw: Json): { at: string; errors: string }[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, validateSchema: false, discriminator: false }) as unknown as Ajv;
  addFormats(ajv);
  ajv.addSchema(raw, 'doc');
  return collectExamples(raw).flatMap((example) => {
    const validate = ajv.compile({ $ref: `doc#${example.schema}` });
    return validate(example.value) ? [] : [{ at: example.at, errors: ajv.errorsText(validate.errors, { separator: '; ' }) }];
  });
}

describe('the example walker', () => {
  const doc: Json = YAML.parse(`
openapi: 3.1.0
info: { title: T, version: "1" }
paths:
  /things/{id}:
    get:
      parameters:
        - { name: id, in: path, required: true, schema: { type: string, format: uuid }, example: not-a-uuid }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Thing" }
              example: { id: 1 }
              examples:
                good: { value: { id: "a" } }
                shared: { $ref: "#/components/examples/Bad" }
components:
  examples:
    Bad: { value: { id: false } }
  schemas:
    Thing:
      type: object
      properties:
        id: { type: string, examples: ["fine", 7] }
`);

  test('finds every kind of example and reports exactly the invalid ones', () => {
    expect(collectExamples(doc)).toHaveLength(6);
    expect(invalidExamples(doc).map((f) => f.at).sort()).toEqual([
      '/components/schemas/Thing/properties/id/examples/1',
      '/paths/~1things~1{id}/get/parameters/0/example',
      '/paths/~1things~1{id}/get/responses/200/content/application~1json/example',
      '/paths/~1things~1{id}/get/responses/200/content/application~1json/examples/shared',
    ]);
  });
});

describe.each(API_VERSIONS.map((v) => [v]))('spec document %s', (version) => {
  const file = specPath(version);
  const raw = YAML.parse(readFileSync(file, 'utf8')) as Json;

  test('is a valid OpenAPI 3.1 document of its version (swagger-parser, through loadSpec)', async () => {
    const spec = await loadSpec(file);
    expect(spec.openapi).toMatch(/^3\.1\./);
    expect(spec.version).toBe(version);
  });

  test('has every operation the API description names and the read-back ones, and no other, with its operationId', async () => {
    const spec = await loadSpec(file);
    const actual = spec.operations.map((o) => [o.method, o.path, o.operationId]);
    expect(actual.sort()).toEqual([...OPERATIONS].sort());
  });

  test('operationIds are unique and in the tag:verb form, led by the operation\'s tag', async () => {
    const spec = await loadSpec(file);
    const ids = spec.operations.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const operation of spec.operations) {
      expect(operation.operationId).toMatch(OPERATION_ID);
      expect(operation.tags, operation.operationId).toContain(operation.operationId.split(':')[0]);
    }
  });

  test('declares the four events as webhooks, each with a tag:verb operationId', () => {
    expect(Object.keys(raw.webhooks ?? {}).sort()).toEqual([...WEBHOOKS].sort());
    for (const item of Object.values<Json>(raw.webhooks)) {
      for (const [method, op] of Object.entries<Json>(item)) if (METHODS.has(method)) expect(op.operationId).toMatch(OPERATION_ID);
    }
  });

  test('every example validates against its schema', () => {
    expect(collectExamples(raw).length).toBeGreaterThan(0);
    expect(invalidExamples(raw)).toEqual([]);
  });
});
