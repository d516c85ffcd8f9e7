/**
 * Negative request bodies: a valid body (drawn from the request body's schema with a fixed seed)
 * with one required field removed or one field of the wrong type.
 * @see api-description.md, Errors (422: request fails validation)
 */
import fc from 'fast-check';
import type { Operation, Schema } from '../../spec/load.js';
import { schemaArbitrary } from '../schema-value.js';

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

const WRONG: Record<string, unknown> = { string: 12345, integer: 'abc', number: 'abc', boolean: 'maybe', array: 'not-a-list', object: 'not-an-object' };

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
  const properties: Record<string, Schema> = schema.properties ?? {};
  const [valid] = fc.sample(schemaArbitrary(schema, { direction: 'request' }), { seed: 1, numRuns: 1 }) as Record<string, unknown>[];
  const base = valid ?? {};
  const bodies: NegativeBody[] = [];
  for (const field of (schema.required ?? []) as string[]) {
    const { [field]: _dropped, ...rest } = base;
    bodies.push({ contentType, text: encode(contentType, rest), field, mutation: 'missing_required', reason: `${field} is required` });
  }
  // A form body carries only text, so a wrong type is not expressible there.
  if (contentType === 'application/json') {
    for (const [field, sub] of Object.entries(properties)) {
      const type = Array.isArray(sub.type) ? undefined : sub.type;
      if (!type || !(type in WRONG) || sub.readOnly) continue;
      bodies.push({ contentType, text: encode(contentType, { ...base, [field]: WRONG[type] }), field, mutation: 'wrong_type', reason: `${field} must be a ${type}` });
    }
  }
  return bodies;
}
