/**
 * Negative request bodies: a valid, realistic body (drawn from the request body's schema with a
 * fixed seed) changed by one body mutation (one required field removed, one field of the wrong
 * type).
 * @see api-description.md, Errors (422: request fails validation)
 */
import fc from 'fast-check';
import type { Operation, Schema } from '../../spec/load.js';
import { schemaArbitrary } from '../schema-value.js';
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

/** Every negative body of an operation (none when it takes no JSON or form body). */
export function negativeBodies(operation: Operation): NegativeBody[] {
  const content: Record<string, { schema?: Schema }> = operation.raw.requestBody?.content ?? {};
  const contentType = ['application/json', 'application/x-www-form-urlencoded'].find((t) => content[t]?.schema);
  if (!contentType) return [];
  const schema = objectSchema(content[contentType]!.schema!);
  const [valid] = fc.sample(schemaArbitrary(schema, { direction: 'request', realistic: true }), { seed: 1, numRuns: 1 }) as Record<string, unknown>[];
  const base = valid ?? {};
  return BODY_MUTATIONS.flatMap((mutation) => mutation({ schema, base, contentType })).map(({ field, mutation, reason, body }) => ({
    contentType,
    text: encode(contentType, body),
    field,
    mutation,
    reason,
  }));
}
