/**
 * Validation against the platform's record schemas transcribed in `spec/platform/<version>.json`
 * (spec/scripts/extract-platform-schemas.ts): the strict shapes the reference's records follow
 * where the API description says "not shown", used by the tests, never by the harness.
 * @see docs/platform.md
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import * as addFormats from 'ajv-formats';
import type { ApiVersion } from '../../core/spec/load.js';

const PLATFORM_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../spec/platform');

/** One version's transcription (see the extraction script for the shape). */
interface PlatformDocument {
  version: string;
  operations: Record<string, Record<string, Record<string, unknown> | null>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

/** A validation problem: the JSON pointer into the value and the message. */
export interface PlatformIssue {
  at: string;
  message: string;
}

/** Validators of one version's platform schemas. */
export interface PlatformSchemas {
  version: ApiVersion;
  /** The status codes the platform declares for `METHOD path` (its path template). */
  statuses(operation: string): string[];
  /**
   * Issues of `body` against the platform's schema of `operation` for `status` (empty: valid).
   * @throws Error when the platform declares no such operation or status code
   */
  response(operation: string, status: number, body: unknown): PlatformIssue[];
  /** Issues of `value` against the named component schema (empty: valid). @throws Error for an unknown name */
  record(name: string, value: unknown): PlatformIssue[];
}

const cache = new Map<ApiVersion, PlatformSchemas>();

/** The validators of a version's transcription, compiled once per process. */
export function platformSchemas(version: ApiVersion): PlatformSchemas {
  const kept = cache.get(version);
  if (kept) return kept;
  const document = JSON.parse(readFileSync(path.join(PLATFORM_DIR, `${version}.json`), 'utf8')) as PlatformDocument;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as { default: (ajv: Ajv2020) => void }).default(ajv);
  // The platform's ids are `uuid4`; any RFC 9562 uuid is accepted, as the SDK's zod schemas do.
  ajv.addFormat('uuid4', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addSchema({ $id: 'platform', components: document.components });
  const compiled = new Map<string, ValidateFunction>();
  const compile = (key: string, schema: Record<string, unknown>): ValidateFunction => {
    let validate = compiled.get(key);
    if (!validate) {
      const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"platform#/components/')) as Record<string, unknown>;
      validate = ajv.compile(rewritten);
      compiled.set(key, validate);
    }
    return validate;
  };
  const issues = (validate: ValidateFunction, value: unknown): PlatformIssue[] =>
    validate(value) ? [] : (validate.errors ?? []).map((e) => ({ at: e.instancePath, message: `${e.message ?? ''} ${JSON.stringify(e.params)}` }));
  const schemas: PlatformSchemas = {
    version,
    statuses: (operation) => Object.keys(document.operations[operation] ?? {}),
    response(operation, status, body) {
      const declared = document.operations[operation];
      if (!declared) throw new Error(`the platform declares no ${operation}`);
      const schema = declared[String(status)];
      if (schema === undefined) throw new Error(`the platform declares no ${status} for ${operation} (only ${Object.keys(declared).join(', ')})`);
      if (schema === null) return body === undefined || body === null || body === '' ? [] : [{ at: '', message: `no body declared, got ${JSON.stringify(body).slice(0, 80)}` }];
      return issues(compile(`${operation} ${status}`, schema), body);
    },
    record(name, value) {
      if (!document.components.schemas[name]) throw new Error(`no platform schema ${name}`);
      return issues(compile(name, { $ref: `#/components/schemas/${name}` }), value);
    },
  };
  cache.set(version, schemas);
  return schemas;
}
