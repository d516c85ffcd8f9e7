import { Ajv2020 } from 'ajv/dist/2020.js';
import { Ajv, type ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { Check, CheckContext, Exchange, Finding } from '../core/types.js';
import type { Operation, Schema } from '../core/spec/load.js';
import { brief } from './support.js';

// ajv-formats is CommonJS with `exports.default`; under NodeNext the function is on `.default`.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv) => Ajv;

/** undici's code for a response whose body is shorter or longer than its Content-Length. */
export const CONTENT_LENGTH_MISMATCH_CODE = 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH';

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const IMF_FIXDATE = /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
/** tchar of RFC 9110 section 5.6.2. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const DIGITS = /^\d+$/;
const URI_REFERENCE = fullFormats['uri-reference'] as RegExp;

/**
 * Why a value is not an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`: a real calendar date whose
 * day name matches it, hour 00-23, minute 00-59, second 00-60), or undefined when it is one.
 * Senders must generate HTTP-dates in this format; the obsolete RFC 850 and asctime forms are
 * for recipients only.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-5.6.7
 */
export function imfFixdateProblem(value: string): string | undefined {
  const match = IMF_FIXDATE.exec(value);
  if (!match) return 'is not an IMF-fixdate like "Sun, 06 Nov 1994 08:49:37 GMT"';
  const [, dayName, day, month, year, hour, minute, second] = match;
  const monthIndex = MONTHS.indexOf(month!);
  const date = new Date(Date.UTC(Number(year), monthIndex, Number(day)));
  if (date.getUTCFullYear() !== Number(year) || date.getUTCMonth() !== monthIndex || date.getUTCDate() !== Number(day)) return `names no calendar date (${day} ${month} ${year})`;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 60) return `has no valid time of day (${hour}:${minute}:${second})`;
  if (DAY_NAMES[date.getUTCDay()] !== dayName) return `names ${dayName} for a ${DAY_NAMES[date.getUTCDay()]}`;
  return undefined;
}

/**
 * Why a Retry-After value is malformed, or undefined when it is delay-seconds (`1*DIGIT`) or an
 * HTTP-date (IMF-fixdate).
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3
 */
export function retryAfterProblem(value: string): string | undefined {
  if (DIGITS.test(value)) return undefined;
  return imfFixdateProblem(value) === undefined ? undefined : 'is neither delay-seconds (whole seconds, digits only) nor an HTTP-date (IMF-fixdate)';
}

/**
 * Why an Allow value is not a list of method tokens, or undefined when it is (an empty list is
 * allowed: the resource allows no method; empty list elements are tolerated).
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-10.2.1
 */
export function allowProblem(value: string): string | undefined {
  const bad = value.split(',').map((element) => element.trim()).filter((element) => element !== '' && !TOKEN.test(element));
  return bad.length ? `has elements that are not method tokens: ${bad.map((b) => JSON.stringify(b)).join(', ')}` : undefined;
}

/**
 * Why a Location value is not a URI reference, or undefined when it is.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-10.2.2 and RFC 3986 section 4.1
 */
export function locationProblem(value: string): string | undefined {
  return URI_REFERENCE.test(value) ? undefined : 'is not a URI reference (RFC 3986: no spaces or raw non-ASCII, % followed by two hex digits)';
}

/** The body's size in bytes, when the recorded text is the body as sent (not cut, no undecodable bytes). */
function recordedBodyBytes(body: string): number | undefined {
  if (body.includes('\uFFFD') || /\n\[\.\.\. \d+ more bytes cut\]$/.test(body)) return undefined;
  return Buffer.byteLength(body, 'utf8');
}

/** Findings for the standard headers present in a response (RFC 9110); absent ones are never judged. */
function standardHeaderFindings(exchange: Exchange): Finding[] {
  const response = exchange.response!;
  const findings: Finding[] = [];
  const malformed = (header: string, value: string, problem: string, section: string, expected: string): void => {
    findings.push({
      kind: 'malformed_header',
      title: 'Malformed response header',
      message: `The ${response.status} response's ${header} ${brief(value, 80)} ${problem} (RFC 9110 section ${section}).`,
      expected,
      actual: { header: header.toLowerCase(), value },
    });
  };
  const headers = response.headers;
  const retryAfter = headers['retry-after'];
  if (retryAfter !== undefined) {
    const problem = retryAfterProblem(retryAfter);
    if (problem) malformed('Retry-After', retryAfter, problem, '10.2.3', 'delay-seconds (digits) or an IMF-fixdate');
  }
  const date = headers.date;
  if (date !== undefined) {
    const problem = imfFixdateProblem(date);
    if (problem) malformed('Date', date, problem, '6.6.1', 'an IMF-fixdate');
  }
  const allow = headers.allow;
  if (allow !== undefined) {
    const problem = allowProblem(allow);
    if (problem) malformed('Allow', allow, problem, '10.2.1', 'a comma-separated list of method tokens');
  }
  const location = headers.location;
  if (location !== undefined) {
    const problem = locationProblem(location);
    if (problem) malformed('Location', location, problem, '10.2.2', 'a URI reference');
  }
  const contentLength = headers['content-length'];
  if (contentLength !== undefined) {
    if (!DIGITS.test(contentLength)) {
      malformed('Content-Length', contentLength, 'is not a single decimal number of bytes', '8.6', 'digits only');
    } else {
      // No body is sent with HEAD, 1xx, 204 and 304, whose Content-Length describes another
      // representation; a Transfer-Encoding overrides it (RFC 9112 section 6.3).
      const bodiless = exchange.request.method === 'HEAD' || response.status < 200 || response.status === 204 || response.status === 304;
      // Content-Length counts the bytes sent: those of the coded body when it came content-coded.
      const bytes = bodiless || headers['transfer-encoding'] !== undefined ? undefined : (response.wireBytes ?? recordedBodyBytes(response.body));
      if (bytes !== undefined && Number(contentLength) !== bytes) {
        findings.push({
          kind: 'content_length_mismatch',
          title: 'Content-Length does not match the body',
          message: `The ${response.status} response declares Content-Length ${contentLength} but its body is ${bytes} bytes (RFC 9110 section 8.6).`,
          expected: bytes,
          actual: Number(contentLength),
        });
      }
    }
  }
  return findings;
}

/** The first JSON Schema type of a schema (`[integer, "null"]` gives integer). */
function schemaType(schema: Schema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null');
  return typeof type === 'string' ? type : undefined;
}

/**
 * A header value as the value its schema describes, serialized in the `simple` style of a header
 * parameter: numbers, booleans and comma-separated arrays are converted; anything that does not
 * convert stays a string, which the schema then refuses.
 * @see https://spec.openapis.org/oas/v3.1.0#style-values
 */
export function headerValue(raw: string, schema: Schema): unknown {
  const type = schemaType(schema);
  if (type === 'integer' || type === 'number') {
    const trimmed = raw.trim();
    return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : raw;
  }
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  if (type === 'array') {
    const items: Schema = schema.items && typeof schema.items === 'object' ? schema.items : {};
    return raw.split(',').map((element) => headerValue(element.trim(), items));
  }
  return raw;
}

/** The header objects documented for a response status key, by lower-cased name (dereferenced). */
export function documentedHeaders(operation: Operation, statusKey: string): Record<string, Schema> {
  const headers: unknown = operation.raw.responses?.[statusKey]?.headers;
  if (!headers || typeof headers !== 'object') return {};
  return Object.fromEntries(Object.entries(headers as Record<string, Schema>).map(([name, header]) => [name.toLowerCase(), header]));
}

const validatorsByDocument = new WeakMap<object, WeakMap<Schema, ValidateFunction>>();

/** A validator of a header schema, compiled once per schema object. */
function headerValidator(ctx: CheckContext, schema: Schema): ValidateFunction {
  let compiled = validatorsByDocument.get(ctx.spec.document);
  if (!compiled) {
    compiled = new WeakMap();
    validatorsByDocument.set(ctx.spec.document, compiled);
  }
  let validate = compiled.get(schema);
  if (!validate) {
    const options = { strict: false, allErrors: true, validateFormats: true, validateSchema: false } as const;
    // OAS 3.1 schemas are JSON Schema 2020-12; OAS 3.0 ones are draft-04-like.
    const ajv: Ajv = ctx.spec.openapi.startsWith('3.1') ? (new Ajv2020(options) as unknown as Ajv) : new Ajv(options);
    addFormats(ajv);
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** Findings for the headers the document declares for the response's status. */
function documentedHeaderFindings(ctx: CheckContext, exchange: Exchange): Finding[] {
  const response = exchange.response!;
  const key = ctx.spec.matchStatus(ctx.operation, response.status);
  if (!key) return [];
  const findings: Finding[] = [];
  for (const [name, header] of Object.entries(documentedHeaders(ctx.operation, key))) {
    // "If a response header is defined with the name Content-Type, it SHALL be ignored."
    if (name === 'content-type') continue;
    const value = response.headers[name];
    if (value === undefined) {
      if (header.required === true) {
        findings.push({
          kind: 'missing_required_header',
          title: 'Missing required response header',
          message: `The ${response.status} response lacks the header ${name}, which the document marks required for ${key}.`,
          expected: name,
          actual: Object.keys(response.headers).sort(),
        });
      }
      continue;
    }
    // Headers described by `content` rather than `schema` are rare; their value is not judged.
    if (!header.schema || typeof header.schema !== 'object') continue;
    const validate = headerValidator(ctx, header.schema);
    if (validate(headerValue(value, header.schema))) continue;
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
    findings.push({
      kind: 'header_schema_violation',
      title: 'Response header violates schema',
      message: `The ${response.status} response's header ${name}: ${brief(value, 80)} does not match its documented schema: ${errors.join('; ')}.`,
      expected: header.schema,
      actual: { header: name, value },
    });
  }
  return findings;
}

/**
 * Every response carries the headers the document declares for its status (`required: true` ones
 * present, each present one valid against its schema, read in the `simple` style), and the
 * standard headers it carries are well-formed per RFC 9110: Retry-After (delay-seconds or an
 * HTTP-date), Content-Length (digits, equal to the body's size when the recorded body is the one
 * sent; a response whose body did not match its Content-Length is a finding too), Allow (method
 * tokens), Date (IMF-fixdate), Location (a URI reference). A header is never required for its
 * own sake: the API description shows none (its rate-limit headers are "not shown").
 * @see https://spec.openapis.org/oas/v3.1.0#header-object
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-10.2
 */
export const responseHeadersConformance: Check = {
  id: 'response_headers_conformance',
  title: 'Response headers conform',
  severity: 'medium',
  rule: 'http.response_headers',
  layer: 'generic',
  evidence: 'exchange',
  conformanceClass: 'core',
  level: 'should',
  needs: 'exchange',
  run(ctx, exchange) {
    if (exchange.transportError?.code === CONTENT_LENGTH_MISMATCH_CODE) {
      return [{
        kind: 'content_length_mismatch',
        title: 'Content-Length does not match the body',
        message: `The response's body did not match its Content-Length (RFC 9110 section 8.6): ${exchange.transportError.message}.`,
        expected: 'a body of exactly Content-Length bytes',
        actual: exchange.transportError,
      }];
    }
    if (!exchange.response) return [];
    return [...documentedHeaderFindings(ctx, exchange), ...standardHeaderFindings(exchange)];
  },
};
