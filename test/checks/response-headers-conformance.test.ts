// Table-driven tests of response_headers_conformance: headers the document declares for a status
// (a small document of its own, since the bundled one declares none) and the standard headers of
// RFC 9110, each with passing cases, failing cases with the exact kind, and absences never judged.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  allowProblem,
  CONTENT_LENGTH_MISMATCH_CODE,
  headerValue,
  imfFixdateProblem,
  locationProblem,
  responseHeadersConformance,
  retryAfterProblem,
} from '../../checks/response-headers-conformance.js';
import type { CheckContext, Exchange } from '../../core/types.js';
import { loadSpec } from '../../core/spec/load.js';
import { context, exchange, list, type ExchangeShape } from './fixtures.js';

const DATE = 'Sun, 22 Nov 2026 10:00:00 GMT';

/** An exchange of the fixtures with extra response headers (lower-case names). */
function withHeaders(shape: ExchangeShape, headers: Record<string, string>, method = 'GET'): Exchange {
  const base = exchange(shape);
  return { ...base, request: { ...base.request, method }, response: { ...base.response!, headers: { ...base.response!.headers, ...headers } } };
}

const body = JSON.stringify(list([]));
const bytes = String(Buffer.byteLength(body));
const cut = `${body}\n[... 12 more bytes cut]`;

// [name, exchange, expected kinds ([] = passes)]
const standard: [string, Exchange, string[]][] = [
  ['no standard header at all passes (absence is never judged)', withHeaders({ body: list([]) }, {}), []],
  ['an IMF-fixdate Date and a matching Content-Length pass', withHeaders({ rawBody: body }, { date: DATE, 'content-length': bytes }), []],
  ['an ISO 8601 Date fails', withHeaders({ body: list([]) }, { date: '2026-11-22T10:00:00.000Z' }), ['malformed_header']],
  ['a Date whose day name is wrong fails', withHeaders({ body: list([]) }, { date: 'Mon, 22 Nov 2026 10:00:00 GMT' }), ['malformed_header']],
  ['an RFC 850 Date (recipients only) fails', withHeaders({ body: list([]) }, { date: 'Sunday, 22-Nov-26 10:00:00 GMT' }), ['malformed_header']],
  ['Retry-After in seconds passes', withHeaders({ status: 429, body: { error: 'x', detail: 'y' } }, { 'retry-after': '120' }), []],
  ['Retry-After as an HTTP-date passes', withHeaders({ status: 429, body: { error: 'x', detail: 'y' } }, { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }), []],
  ['Retry-After with a fraction fails', withHeaders({ status: 429, body: { error: 'x', detail: 'y' } }, { 'retry-after': '1.5' }), ['malformed_header']],
  ['Retry-After with a unit fails', withHeaders({ status: 503, body: { error: 'x', detail: 'y' } }, { 'retry-after': '1 seconds' }), ['malformed_header']],
  ['a Content-Length that is not digits fails', withHeaders({ rawBody: body }, { 'content-length': '12 bytes' }), ['malformed_header']],
  ['a repeated Content-Length fails', withHeaders({ rawBody: body }, { 'content-length': `${bytes}, ${bytes}` }), ['malformed_header']],
  ['a Content-Length other than the body size fails', withHeaders({ rawBody: body }, { 'content-length': String(Number(bytes) + 3) }), ['content_length_mismatch']],
  ['a multi-byte body counts bytes, not characters', withHeaders({ rawBody: '{"name":"café"}' }, { 'content-length': '16' }), []],
  ['a cut body is not compared', withHeaders({ rawBody: cut }, { 'content-length': '99999999' }), []],
  ['a body with undecodable bytes is not compared', withHeaders({ rawBody: '{"a":"\uFFFD"}' }, { 'content-length': '9' }), []],
  ['a 204 is not compared with its (absent) body', withHeaders({ status: 204, contentType: null }, { 'content-length': '0' }), []],
  ['a HEAD response is not compared with its (absent) body', withHeaders({ contentType: null }, { 'content-length': '512' }, 'HEAD'), []],
  ['Allow with method tokens passes', withHeaders({ status: 405, body: { error: 'x', detail: 'y' } }, { allow: 'GET, HEAD,POST' }), []],
  ['an empty Allow passes (no method allowed)', withHeaders({ status: 405, body: { error: 'x', detail: 'y' } }, { allow: '' }), []],
  ['Allow with a space inside an element fails', withHeaders({ status: 405, body: { error: 'x', detail: 'y' } }, { allow: 'GET POST' }), ['malformed_header']],
  ['a relative Location passes', withHeaders({ status: 201, body: {} }, { location: '/v1/orders/7?x=1#top' }), []],
  ['an absolute Location passes', withHeaders({ status: 303, body: {} }, { location: 'https://api.example.com/v1/files/%41' }), []],
  ['a Location with a space fails', withHeaders({ status: 303, body: {} }, { location: '/v1/files/a b' }), ['malformed_header']],
  ['a Location with a broken percent-encoding fails', withHeaders({ status: 303, body: {} }, { location: '/v1/files/%zz' }), ['malformed_header']],
  ['two malformed headers give two findings', withHeaders({ body: list([]) }, { date: 'yesterday', 'retry-after': 'soon' }), ['malformed_header', 'malformed_header']],
  ['a body that did not match its Content-Length on the wire fails', exchange({ transportError: { code: CONTENT_LENGTH_MISMATCH_CODE, message: 'Response body length does not match content-length header' } }), ['content_length_mismatch']],
  ['any other transport error is not this check\'s', exchange({ transportError: { code: 'CNF_TIMEOUT', message: 'no answer' } }), []],
];

describe('response_headers_conformance: standard headers (RFC 9110)', () => {
  test.each(standard)('%s', async (_name, given, want) => {
    const findings = responseHeadersConformance.run(await context('products:list'), given, []);
    expect(findings.map((f) => f.kind)).toEqual(want);
  });
});

const DOCUMENT = `
openapi: 3.1.0
info: { title: headers, version: "1" }
paths:
  /things:
    get:
      operationId: things:list
      responses:
        "200":
          description: ok
          headers:
            X-Request-Id: { required: true, schema: { type: string, format: uuid } }
            X-RateLimit-Remaining: { schema: { type: integer, minimum: 0 } }
            X-Flags: { schema: { type: array, items: { type: boolean } } }
            Content-Type: { required: true, schema: { type: string, const: never } }
          content:
            application/json: { schema: { type: object } }
        "4XX":
          description: refused
          headers:
            X-Error-Code: { required: true, schema: { type: string, enum: [A, B] } }
`;

let things: Promise<CheckContext> | undefined;

/** The context of `things:list` in {@link DOCUMENT}, loaded once. */
function thingsContext(): Promise<CheckContext> {
  things ??= (async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'cnf-headers-')), 'openapi.yaml');
    writeFileSync(file, DOCUMENT);
    const spec = await loadSpec(file);
    return { spec, operation: spec.operation('things:list') };
  })();
  return things;
}

const REQUEST_ID = '6a1c1b54-0a5c-4a43-9d5e-4e3f0c1d2a11';

const documented: [string, Exchange, string[]][] = [
  ['the required header present and valid passes', withHeaders({ body: {} }, { 'x-request-id': REQUEST_ID }), []],
  ['every documented header valid passes', withHeaders({ body: {} }, { 'x-request-id': REQUEST_ID, 'x-ratelimit-remaining': '42', 'x-flags': 'true, false' }), []],
  ['a required header absent fails', withHeaders({ body: {} }, {}), ['missing_required_header']],
  ['an optional header absent passes', withHeaders({ body: {} }, { 'x-request-id': REQUEST_ID }), []],
  ['a required header with a value its schema refuses fails', withHeaders({ body: {} }, { 'x-request-id': 'not-a-uuid' }), ['header_schema_violation']],
  ['an integer header that is not a number fails', withHeaders({ body: {} }, { 'x-request-id': REQUEST_ID, 'x-ratelimit-remaining': 'many' }), ['header_schema_violation']],
  ['an integer header below its minimum fails', withHeaders({ body: {} }, { 'x-request-id': REQUEST_ID, 'x-ratelimit-remaining': '-1' }), ['header_schema_violation']],
  ['an array header with an element of the wrong type fails', withHeaders({ body: {} }, { 'x-request-id': REQUEST_ID, 'x-flags': 'true, maybe' }), ['header_schema_violation']],
  ['a documented Content-Type header is ignored (OAS 3.1 header object)', withHeaders({ body: {} }, { 'x-request-id': REQUEST_ID }), []],
  ['a range status key\'s headers apply (4XX)', withHeaders({ status: 404, body: {} }, { 'x-error-code': 'C' }), ['header_schema_violation']],
  ['a range status key\'s required header absent fails', withHeaders({ status: 404, body: {} }, {}), ['missing_required_header']],
  ['an undocumented status is not judged for documented headers', withHeaders({ status: 500, body: {} }, {}), []],
];

describe('response_headers_conformance: headers the document declares', () => {
  test.each(documented)('%s', async (_name, given, want) => {
    const findings = responseHeadersConformance.run(await thingsContext(), given, []);
    expect(findings.map((f) => f.kind)).toEqual(want);
  });
});

describe('header value readers', () => {
  test.each<[string, string | undefined]>([
    ['Sun, 06 Nov 1994 08:49:37 GMT', undefined],
    ['Sat, 29 Feb 2020 23:59:60 GMT', undefined],
    ['Sun, 30 Feb 2020 10:00:00 GMT', 'names no calendar date (30 Feb 2020)'],
    ['Sun, 06 Nov 1994 24:00:00 GMT', 'has no valid time of day (24:00:00)'],
    ['Sun, 06 Nov 1994 08:49:37 UTC', 'is not an IMF-fixdate like "Sun, 06 Nov 1994 08:49:37 GMT"'],
    ['Sun Nov  6 08:49:37 1994', 'is not an IMF-fixdate like "Sun, 06 Nov 1994 08:49:37 GMT"'],
  ])('imfFixdateProblem(%j) is %j', (value, want) => {
    expect(imfFixdateProblem(value)).toBe(want);
  });

  test.each<[string, boolean]>([
    ['0', true],
    ['86400', true],
    [DATE, true],
    ['-1', false],
    ['', false],
    [' 5', false],
  ])('retryAfterProblem(%j) accepts: %s', (value, ok) => {
    expect(retryAfterProblem(value) === undefined).toBe(ok);
  });

  test.each<[string, boolean]>([
    ['GET', true],
    ['GET, , PUT', true],
    ['GET;POST', false],
  ])('allowProblem(%j) accepts: %s', (value, ok) => {
    expect(allowProblem(value) === undefined).toBe(ok);
  });

  test.each<[string, boolean]>([
    ['', true],
    ['../up', true],
    ['urn:isbn:0451450523', true],
    ['/caf\u00e9', false],
    ['http://a/\u0000', false],
  ])('locationProblem(%j) accepts: %s', (value, ok) => {
    expect(locationProblem(value) === undefined).toBe(ok);
  });

  test.each<[string, Record<string, unknown>, unknown]>([
    ['42', { type: 'integer' }, 42],
    ['4.5', { type: ['number', 'null'] }, 4.5],
    ['x', { type: 'integer' }, 'x'],
    ['true', { type: 'boolean' }, true],
    ['1, 2', { type: 'array', items: { type: 'integer' } }, [1, 2]],
    ['plain', {}, 'plain'],
  ])('headerValue(%j, %j) is %j', (raw, schema, want) => {
    expect(headerValue(raw, schema)).toEqual(want);
  });
});
