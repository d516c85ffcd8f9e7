import type { LoadedSpec, Operation } from '../core/spec/load.js';
import type { Check } from '../core/types.js';
import { mediaTypeOf } from './content-type-conformance.js';
import { brief } from './support.js';

type Validation = ReturnType<LoadedSpec['validateResponse']>;

/** Most characters of bodies remembered per document; past it, the memory starts again. */
const MAX_REMEMBERED_CHARS = 16 * 1024 * 1024;
/** Most bodies remembered per operation, status, media type and length; past it, the oldest is let go. */
const MAX_SAME_LENGTH = 8;
/** A body validated, and its validation. */
interface Remembered {
  text: string;
  validation: Validation;
}
/** Per document, the validations of the bodies seen, by operation, status, media type and body length. */
const validations = new WeakMap<LoadedSpec, { bodies: Map<string, Remembered[]>; chars: number }>();

/**
 * The validation of a body against its documented schema, remembered by the body's text: a target
 * answers many cases with the same page, and validating a page of records costs far more than
 * comparing its text with the few of the same length seen before (a body of a length not seen
 * before costs a lookup, where a hash of it cost as much as the validation of a small page). The
 * verdict is the validator's own.
 */
function validate(spec: LoadedSpec, operation: Operation, key: string, mediaType: string, text: string, json: unknown): Validation {
  let known = validations.get(spec);
  if (!known) validations.set(spec, (known = { bodies: new Map(), chars: 0 }));
  const id = `${operation.method} ${operation.path} ${key} ${mediaType} ${text.length}`;
  let same = known.bodies.get(id);
  const seen = same?.find((remembered) => remembered.text === text);
  if (seen) return seen.validation;
  const validation = spec.validateResponse(operation, key, mediaType, json);
  if (text.length > MAX_REMEMBERED_CHARS) return validation;
  if (known.chars + text.length > MAX_REMEMBERED_CHARS) {
    known.bodies.clear();
    known.chars = 0;
    same = undefined;
  }
  if (!same) known.bodies.set(id, (same = []));
  same.push({ text, validation });
  known.chars += text.length;
  if (same.length > MAX_SAME_LENGTH) known.chars -= same.shift()!.text.length;
  return validation;
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
