/**
 * A valid request body for probes that must be answered for what their path names, not for their
 * body: drawn from the operation's JSON request body schema with a fixed seed, so that every run
 * sends the same one and a target cannot answer 422 merely because the body is missing.
 */
import fc from 'fast-check';
import { schemaArbitrary } from '../generators/schema-value.js';
import { schemaValidator } from '../core/spec/schema-validator.js';
import type { Operation, Schema } from '../core/spec/load.js';

/** Draws tried for a body its schema accepts before giving up. */
const MAX_DRAWS = 20;

/** A body drawn, as sent; undefined when none could be. */
type DrawnBody = { contentType: string; text: string } | undefined;

/**
 * The bodies drawn per operation and seed: a draw depends on nothing else, and the writes suite asks
 * for the same ones in every cell of an operation (building a schema's arbitrary, a pattern's most
 * of all, cost more than the rest of a write cell: 2.8 s of the 8 s a Rebilly writes run spent
 * between its requests).
 */
const drawn = new WeakMap<Operation, Map<number, DrawnBody>>();
/** The arbitrary of each request body schema, built once (an arbitrary is a pure description of its values). */
const arbitraries = new WeakMap<Schema, fc.Arbitrary<unknown>>();

/**
 * A body valid against the operation's JSON request body schema (`application/json` or another
 * JSON media type), else its `application/x-www-form-urlencoded` one.
 * @param seed the draw's seed (default 1: every run sends the same body)
 * @returns the body as sent (its media type and text), or undefined when the operation takes no
 *   JSON or form body, or when no valid value can be drawn from its schema
 * @see https://spec.openapis.org/oas/v3.1.0#request-body-object
 */
export function validRequestBody(operation: Operation, seed = 1): { contentType: string; text: string } | undefined {
  let bySeed = drawn.get(operation);
  if (!bySeed) drawn.set(operation, (bySeed = new Map()));
  if (!bySeed.has(seed)) bySeed.set(seed, drawBody(operation, seed));
  const body = bySeed.get(seed);
  // A copy: the caller's case may be changed, the draw kept may not.
  return body && { ...body };
}

/** {@link validRequestBody}, drawn. */
function drawBody(operation: Operation, seed: number): DrawnBody {
  const content: Record<string, { schema?: Schema }> = operation.raw.requestBody?.content ?? {};
  // JSON first (any +json or json-like type), then a form; other media types are not drawn.
  const contentType = Object.keys(content).find((t) => /^application\/(?:[\w.+-]*\+)?json\b/i.test(t)) ?? (content['application/x-www-form-urlencoded'] ? 'application/x-www-form-urlencoded' : undefined);
  const schema = contentType ? content[contentType]?.schema : undefined;
  if (!contentType || !schema) return undefined;
  let value: unknown;
  try {
    // The arbitrary bounds recursion and combinators, so a draw may still miss the schema: only a
    // value the validator accepts is sent as valid, else the next draw, a few times.
    const valid = schemaValidator(schema);
    let arbitrary = arbitraries.get(schema);
    if (!arbitrary) arbitraries.set(schema, (arbitrary = schemaArbitrary(schema, { direction: 'request', realistic: true })));
    const draws = fc.sample(arbitrary, { seed, numRuns: MAX_DRAWS });
    value = draws.find((draw) => valid(draw));
    if (value === undefined) return undefined;
  } catch {
    // No valid body can be drawn from the schema: the probe goes without one.
    return undefined;
  }
  if (contentType === 'application/x-www-form-urlencoded') {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const form = new URLSearchParams(Object.entries(value).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    return { contentType, text: form.toString() };
  }
  return { contentType, text: JSON.stringify(value) };
}
