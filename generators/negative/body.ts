/**
 * Negative request bodies: a valid, realistic body (drawn from the request body's schema with a
 * fixed seed) changed by one body mutation (one required field removed, one field of the wrong
 * type).
 * @see spec/rules.yaml errors.validation (422: request fails validation)
 */
import fc from 'fast-check';
import type { Operation, Schema } from '../../core/spec/load.js';
import { schemaArbitrary } from '../schema-value.js';
import { acyclic, schemaValidator } from '../../core/spec/schema-validator.js';
import { missingRequired } from './missing-required.js';
import type { BodyMutation } from './types.js';
import { wrongType } from './wrong-type.js';

/** Every body mutation, in the order their bodies are listed. */
export const BODY_MUTATIONS: readonly BodyMutation[] = [missingRequired, wrongType];

/** A negative body: its media type, its text, and which field was mutated how. */
export interface NegativeBody {
  contentType: string;
  text: string;
  field: string;
  mutation: string;
  reason: string;
}

/** The object schema of a body: the first variant of a union, the merge of an allOf. */
function objectSchema(schema: Schema): Schema {
  if (Array.isArray(schema.oneOf ?? schema.anyOf)) return objectSchema((schema.oneOf ?? schema.anyOf)[0]);
  if (Array.isArray(schema.allOf)) {
    const merged: Schema = { type: 'object', properties: {}, required: [] };
    for (const part of schema.allOf as Schema[]) {
      const inner = objectSchema(part);
      Object.assign(merged.properties, inner.properties ?? {});
      merged.required.push(...(inner.required ?? []));
    }
    return merged;
  }
  return schema;
}

function encode(contentType: string, body: Record<string, unknown>): string {
  if (contentType === 'application/x-www-form-urlencoded') {
    return new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
  }
  return JSON.stringify(body);
}

/**
 * A copy of a (dereferenced, finite) schema whose `required` lists leave out readOnly properties,
 * which a request does not send (OpenAPI: readOnly properties are required in responses only).
 */
function requestSchema(schema: Schema): Schema {
  const copy = structuredClone(acyclic(schema));
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(walk);
    const record = node as Schema;
    if (Array.isArray(record.required) && record.properties) record.required = record.required.filter((n: string) => record.properties[n]?.readOnly !== true);
    for (const [key, value] of Object.entries(record)) if (!['example', 'examples', 'default', 'enum', 'const'].includes(key)) walk(value);
  };
  walk(copy);
  return copy;
}

/**
 * Every negative body of an operation (none when it takes no JSON or form body): each mutation of
 * a valid body that the whole request body schema (with its `anyOf`/`oneOf`) rejects; a mutated
 * body that is still valid (a union in which `{}` is valid) is no negative case and is left out.
 */
export function negativeBodies(operation: Operation): NegativeBody[] {
  const content: Record<string, { schema?: Schema }> = operation.raw.requestBody?.content ?? {};
  const contentType = ['application/json', 'application/x-www-form-urlencoded'].find((t) => content[t]?.schema);
  if (!contentType) return [];
  const whole = content[contentType]!.schema!;
  const schema = objectSchema(whole);
  let base: Record<string, unknown>;
  let valid: (value: unknown) => boolean;
  try {
    const [drawn] = fc.sample(schemaArbitrary(schema, { direction: 'request', realistic: true }), { seed: 1, numRuns: 1 }) as Record<string, unknown>[];
    base = drawn && typeof drawn === 'object' && !Array.isArray(drawn) ? drawn : {};
    valid = schemaValidator(requestSchema(whole));
  } catch {
    // No valid body can be drawn (or the schema does not compile): no negative body can be told apart.
    return [];
  }
  return BODY_MUTATIONS.flatMap((mutation) => mutation({ schema, base, contentType })).filter(({ body }) => !valid(body)).map(({ field, mutation, reason, body }) => ({
    contentType,
    text: encode(contentType, body),
    field,
    mutation,
    reason,
  }));
}
