import { hash } from 'node:crypto';
import type { LoadedSpec, Operation } from '../core/spec/load.js';
import type { Check } from '../core/types.js';
import { mediaTypeOf } from './content-type-conformance.js';
import { brief } from './support.js';

type Validation = ReturnType<LoadedSpec['validateResponse']>;

/** Most validations remembered per document; past it, the memory starts again. */
const MAX_REMEMBERED = 5_000;
/** Per document, the validation of each (operation, status, media type, body text) seen. */
const validations = new WeakMap<LoadedSpec, Map<string, Validation>>();

/**
 * The validation of a body against its documented schema, remembered by the body's text (its
 * SHA-1, in one call of Node's `crypto.hash`, which saves the Hash object of `createHash`): a target
 * answers many cases with the same page, and validating a page of records costs far more than
 * hashing its text. The verdict is the validator's own.
 */
function validate(spec: LoadedSpec, operation: Operation, key: string, mediaType: string, text: string, json: unknown): Validation {
  let known = validations.get(spec);
  if (!known) validations.set(spec, (known = new Map()));
  const id = `${operation.method} ${operation.path} ${key} ${mediaType}\u0000${hash('sha1', text, 'base64')}`;
  if (known.has(id)) return known.get(id);
  const result = spec.validateResponse(operation, key, mediaType, json);
  if (known.size >= MAX_REMEMBERED) known.clear();
  known.set(id, result);
  return result;
}

/**
 * A response body validates against the schema documented for its status and media type;
 * a JSON media type whose body does not parse is a finding too. Unknown fields are allowed
 * unless the schema itself forbids them.
 * @see https://spec.openapis.org/oas/v3.1.0#media-type-object
 */
export const responseSchemaConformance: Check = {
  id: 'response_schema_conformance',
  title: 'Response violates schema',
  severity: 'high',
  rule: 'openapi.response.schema',
  layer: 'generic',
  evidence: 'exchange',
  conformanceClass: 'core',
  level: 'must',
  needs: 'exchange',
  run(ctx, exchange) {
    const response = exchange.response;
    if (!response) return [];
    const key = ctx.spec.matchStatus(ctx.operation, response.status);
    if (!key) return [];
    const documented = ctx.operation.responseMediaTypes[key] ?? [];
    const actual = mediaTypeOf(response.headers['content-type']);
    // Validate against the documented media type the response claims, or the only JSON one.
    const mediaType = documented.find((d) => d.toLowerCase() === actual) ?? documented.find((d) => /json/i.test(d));
    if (!mediaType || !/json/i.test(mediaType)) return [];
    if (response.json === undefined) {
      return [{
        kind: 'malformed_json',
        title: 'Response is not valid JSON',
        message: `The ${response.status} response is documented as ${mediaType} but its body does not parse: ${brief(response.body, 120)}.`,
        expected: mediaType,
        actual: response.body.slice(0, 200),
      }];
    }
    const result = validate(ctx.spec, ctx.operation, key, mediaType, response.body, response.json);
    if (!result || result.ok) return [];
    const errors = result.errors.slice(0, 10).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
    return [{
      kind: 'schema_violation',
      title: 'Response violates schema',
      message: `The ${response.status} body does not match its schema: ${errors.join('; ')}${result.errors.length > 10 ? ` (+${result.errors.length - 10} more)` : ''}.`,
      expected: `a body valid against the ${key} ${mediaType} schema`,
      actual: result.errors.slice(0, 10).map((e) => ({ path: e.instancePath, keyword: e.keyword, message: e.message, params: e.params })),
    }];
  },
};
