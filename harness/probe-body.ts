/**
 * A valid request body for probes that must be answered for what their path names, not for their
 * body: drawn from the operation's JSON request body schema with a fixed seed, so that every run
 * sends the same one and a target cannot answer 422 merely because the body is missing.
 */
import fc from 'fast-check';
import { schemaArbitrary } from '../generators/schema-value.js';
import type { Operation, Schema } from '../spec/load.js';

/**
 * A body valid against the operation's `application/json` request body schema.
 * @returns the body as sent (`application/json` and its text), or undefined when the operation
 *   takes no JSON body
 * @see https://spec.openapis.org/oas/v3.1.0#request-body-object
 */
export function validRequestBody(operation: Operation): { contentType: string; text: string } | undefined {
  const schema: Schema | undefined = operation.raw.requestBody?.content?.['application/json']?.schema;
  if (!schema) return undefined;
  const [value] = fc.sample(schemaArbitrary(schema, { direction: 'request', realistic: true }), { seed: 1, numRuns: 1 });
  return { contentType: 'application/json', text: JSON.stringify(value) };
}
