// The bundled OpenAPI documents as the generator tests walk them: every schema keyword and format
// they use (raw, so that $ref is seen), and every body schema with the direction it travels in.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import YAML from 'yaml';
import type { Direction } from '../../generators/schema-value.js';
import { API_VERSIONS, loadSpec, specPath, type ApiVersion, type LoadedSpec, type Schema } from '../../core/spec/load.js';

/** Both API versions' documents, loaded once per test file. */
export async function loadBoth(): Promise<[ApiVersion, LoadedSpec][]> {
  return Promise.all(API_VERSIONS.map(async (v) => [v, await loadSpec(specPath(v))] as [ApiVersion, LoadedSpec]));
}

/** The raw (not dereferenced) document of a version. */
export function rawDocument(version: ApiVersion): Schema {
  return YAML.parse(readFileSync(specPath(version), 'utf8'), { maxAliasCount: 1000 }) as Schema;
}

const ONE_SUBSCHEMA = ['items', 'additionalProperties', 'propertyNames', 'not', 'if', 'then', 'else', 'contains', 'additionalItems', 'unevaluatedProperties', 'unevaluatedItems', 'contentSchema'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every keyword used in a schema and its subschemas, each with the JSON pointer of a first use; formats too. */
export function collectKeywords(schema: unknown, pointer: string, keywords: Map<string, string>, formats: Map<string, string>): void {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return;
  const s = schema as Schema;
  for (const key of Object.keys(s)) if (!keywords.has(key)) keywords.set(key, pointer);
  if (typeof s.format === 'string' && !formats.has(s.format)) formats.set(s.format, pointer);
  for (const key of ONE_SUBSCHEMA) if (key in s) collectKeywords(s[key], `${pointer}/${key}`, keywords, formats);
  for (const key of SUBSCHEMA_LISTS) (Array.isArray(s[key]) ? s[key] : []).forEach((sub: unknown, i: number) => collectKeywords(sub, `${pointer}/${key}/${i}`, keywords, formats));
  for (const key of SUBSCHEMA_MAPS) for (const [name, sub] of Object.entries(s[key] ?? {})) collectKeywords(sub, `${pointer}/${key}/${name}`, keywords, formats);
}

/** Every schema keyword and format a raw OpenAPI document uses, where: components, parameters, bodies, responses, headers, webhooks. */
export function documentKeywords(doc: Schema): { keywords: Map<string, string>; formats: Map<string, string> } {
  const keywords = new Map<string, string>();
  const formats = new Map<string, string>();
  const walk = (schema: unknown, pointer: string) => collectKeywords(schema, pointer, keywords, formats);
  const content = (c: Schema | undefined, pointer: string) => {
    for (const [media, m] of Object.entries<Schema>(c ?? {})) walk(m?.schema, `${pointer}/content/${media}/schema`);
  };
  const headers = (h: Schema | undefined, pointer: string) => {
    for (const [name, header] of Object.entries<Schema>(h ?? {})) walk(header?.schema, `${pointer}/headers/${name}/schema`);
  };
  const parameters = (list: Schema[] | undefined, pointer: string) => (list ?? []).forEach((p, i) => walk(p?.schema, `${pointer}/parameters/${i}/schema`));
  const operation = (op: Schema, pointer: string) => {
    parameters(op.parameters, pointer);
    content(op.requestBody?.content, `${pointer}/requestBody`);
    for (const [status, r] of Object.entries<Schema>(op.responses ?? {})) {
      content(r?.content, `${pointer}/responses/${status}`);
      headers(r?.headers, `${pointer}/responses/${status}`);
    }
  };
  const components = doc.components ?? {};
  for (const [name, s] of Object.entries(components.schemas ?? {})) walk(s, `#/components/schemas/${name}`);
  for (const [name, p] of Object.entries<Schema>(components.parameters ?? {})) walk(p.schema, `#/components/parameters/${name}/schema`);
  for (const [name, r] of Object.entries<Schema>(components.responses ?? {})) {
    content(r.content, `#/components/responses/${name}`);
    headers(r.headers, `#/components/responses/${name}`);
  }
  for (const [name, b] of Object.entries<Schema>(components.requestBodies ?? {})) content(b.content, `#/components/requestBodies/${name}`);
  for (const [name, h] of Object.entries<Schema>(components.headers ?? {})) walk(h.schema, `#/components/headers/${name}/schema`);
  for (const [root, items] of [['paths', doc.paths], ['webhooks', doc.webhooks]] as const) {
    for (const [key, item] of Object.entries<Schema>(items ?? {})) {
      const at = `#/${root}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      parameters(item.parameters, at);
      for (const method of METHODS) if (item[method]) operation(item[method], `${at}/${method}`);
    }
  }
  return { keywords, formats };
}

/** A body schema of a document: request bodies (the client sends them), responses and webhook payloads (the API sends them). */
export interface BodySchema {
  where: string;
  direction: Direction;
  schema: Schema;
  /** Validates a value as the document's validation does (responses through `spec.validateResponse`). */
  validate(value: unknown): { ok: boolean; errors?: unknown };
}

let requestAjv: Ajv2020 | undefined;

/** ajv as core/spec/load.ts configures it for a 3.1 document, for request bodies and webhook payloads (load.ts validates responses only). */
function compileRequest(schema: Schema): (value: unknown) => { ok: boolean; errors?: unknown } {
  if (!requestAjv) {
    requestAjv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, validateSchema: false, discriminator: false });
    (ajvFormats.default as unknown as (a: Ajv2020) => void)(requestAjv);
  }
  const validate = requestAjv.compile(schema);
  return (value) => (validate(value) ? { ok: true } : { ok: false, errors: validate.errors });
}

/** Every request body, response body and webhook payload schema of a loaded document. */
export function bodySchemas(spec: LoadedSpec): BodySchema[] {
  const out: BodySchema[] = [];
  for (const op of spec.operations) {
    for (const [media, c] of Object.entries<Schema>(op.raw.requestBody?.content ?? {})) {
      if (c.schema) out.push({ where: `${op.operationId} request ${media}`, direction: 'request', schema: c.schema, validate: compileRequest(c.schema) });
    }
    for (const [status, r] of Object.entries<Schema>(op.raw.responses ?? {})) {
      for (const [media, c] of Object.entries<Schema>(r?.content ?? {})) {
        if (!c.schema) continue;
        out.push({
          where: `${op.operationId} ${status} ${media}`,
          direction: 'response',
          schema: c.schema,
          validate: (value) => spec.validateResponse(op, status, media, value) ?? { ok: false, errors: 'no validator' },
        });
      }
    }
  }
  for (const [event, item] of Object.entries<Schema>(spec.document.webhooks ?? {})) {
    for (const [media, c] of Object.entries<Schema>(item.post?.requestBody?.content ?? {})) {
      if (c.schema) out.push({ where: `webhook ${event} ${media}`, direction: 'response', schema: c.schema, validate: compileRequest(c.schema) });
    }
  }
  return out;
}
