/**
 * The arbitrary of malformed requests to the reference server: a request to an operation of the
 * spec, valid to start with (the operation's path with fixture ids, the token of a role that may
 * call it, a valid body), or to an unknown path, broken in one or more ways: its body (invalid,
 * truncated, huge, 10,000 levels deep, `__proto__` keys, invalid UTF-8, the other format), its
 * content type, its query (prototype keys, invalid UTF-8, bad escapes), its path (bad ids, junk
 * suffixes), its method, its Authorization header and other headers.
 * Values are plain data, so that a counterexample reads as what was sent; {@link materialize} turns
 * one into the request and says why the server must refuse it (a mutation that cannot leave the
 * request valid), or nothing when a documented success is also a right answer.
 * @see spec/rules.yaml robustness.no_server_error; docs/design.md (Reference server)
 */
import { METHODS } from 'node:http';
import fc from 'fast-check';
import type { LoadedSpec, Operation } from '../../../core/spec/load.js';
import type { DemoTokenName } from '../../../server/auth.js';

/** A request as `inject()` takes it; `url` is the path and query, already percent-encoded. */
export interface RawRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  payload?: string | Buffer;
}

/** What the request is aimed at before it is broken. */
export type Target = { kind: 'operation'; operationId: string } | { kind: 'unknown-path'; method: string; path: string };

/** A broken body; `field` mutations act on the body's first (or `index`-th) field. */
export type BodyMutation =
  | { kind: 'not-json'; text: string }
  | { kind: 'truncated'; permille: number }
  | { kind: 'huge'; shape: 'json-string' | 'json-array' | 'form' | 'text' }
  | { kind: 'deep'; shape: 'array' | 'object'; depth: number; where: 'top' | 'field' | 'inside-field' | 'inside-every-field'; index: number }
  | { kind: 'proto-keys'; where: 'top' | 'constructor' | 'prototype' | 'every-object' }
  | { kind: 'invalid-utf8'; bytes: readonly number[]; permille: number }
  | { kind: 'swapped-format' }
  | { kind: 'multipart' };

/** A broken path: the path parameter replaced by a bad id, or junk appended. */
export type PathMutation = { kind: 'bad-id'; id: string } | { kind: 'suffix'; suffix: string };

/** One generated malformed request. `{token}` in an Authorization value is the target's own token, `{no_scope}` and `{other_org}` those roles'. */
export interface MalformedRequest {
  target: Target;
  body?: BodyMutation;
  /** A Content-Type set after the body (null: none at all). */
  contentType?: { value: string | null };
  /** Raw `key=value` pairs appended to the query. */
  query: { key: string; value: string }[];
  path?: PathMutation;
  method?: string;
  authorization?: { value: string | string[] | null };
  headers: { name: string; value: string }[];
}

/** What {@link materialize} gives: the request, the operation that serves it when still routed there, and why it must be refused. */
export interface Materialized {
  request: RawRequest;
  operation: Operation | undefined;
  /** Empty when the request may still be valid; otherwise the mutations that make it invalid. */
  refusedBecause: string[];
}

/** What `materialize` and the arbitrary need of a built reference server. */
export interface RequestContext {
  spec: LoadedSpec;
  fixtures: Record<string, string>;
  tokens: Record<DemoTokenName, string>;
}

const FORM = 'application/x-www-form-urlencoded';
/** Larger than Fastify's default body limit (1 MiB). */
const HUGE = 1_200_000;
/** Nesting of deep bodies and keys: the 10,000 levels of the robustness bar, and ten times that (still under the body limit). */
const DEPTHS = [10_000, 100_000] as const;
const UNKNOWN_UUID = '00000000-0000-4000-8000-00000000dead';
const PLACEHOLDER = '__RAW_JSON_PLACEHOLDER__';

type Media = 'json' | 'form' | undefined;

function mediaOf(operation: Operation | undefined): Media {
  const content = operation?.raw.requestBody?.content ?? {};
  if (content[FORM]) return 'form';
  return content['application/json'] ? 'json' : undefined;
}

/** The demo role whose token may call an operation; null for an operation without security. */
function roleOf(operation: Operation): DemoTokenName | null {
  if (operation.security.length === 0) return null;
  const kinds = new Set(operation.security.flatMap((alternative) => Object.keys(alternative)));
  return kinds.has('oat') ? 'admin' : 'customer_session';
}

/** The path of an operation with its parameters filled from fixtures (`x-fixture`, else `<singular of the segment before>_id`). */
function pathOf(operation: Operation, fixtures: Record<string, string>): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_match, name: string, offset: number) => {
    const parameter = operation.parameters.find((p) => p.in === 'path' && p.name === name);
    const before = operation.path.slice(0, offset).split('/').filter(Boolean).at(-1) ?? '';
    const fixture = parameter?.fixture ?? `${before.replace(/s$/, '')}_id`;
    return encodeURIComponent(fixtures[fixture] ?? UNKNOWN_UUID);
  });
}

/** A valid body of each body operation; others get `{}`. */
function bodyOf(operation: Operation, fixtures: Record<string, string>): Record<string, unknown> {
  const client = { client_id: fixtures.oauth_client_id!, client_secret: fixtures.oauth_client_secret! };
  switch (operation.operationId) {
    case 'products:update_benefits':
      return { benefits: [fixtures.benefit_id] };
    case 'files:create':
      return { name: 'robust.pdf', mime_type: 'application/pdf', size: 10, service: 'downloadable', upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 9 }] } };
    case 'customer_seats:claim':
      return { invitation_token: 'not-an-invitation' };
    case 'orders:update':
    case 'customer_portal:orders:update':
      return { billing_address: { country: 'FR', city: 'Paris' }, billing_name: 'Robust Buyer' };
    case 'oauth2:token':
      return { grant_type: 'authorization_code', code: 'not-a-code', redirect_uri: 'https://example.com/callback', ...client };
    case 'oauth2:introspect':
      return { token: 'not-a-token', ...client };
    default:
      return {};
  }
}

function formText(fields: Record<string, unknown>): string {
  return new URLSearchParams(Object.entries(fields).map(([key, value]): [string, string] => [key, typeof value === 'string' ? value : JSON.stringify(value)])).toString();
}

/** JSON text of `value` with the string {@link PLACEHOLDER} replaced by raw JSON text. */
function withRaw(value: unknown, raw: string): string {
  return JSON.stringify(value).replace(`"${PLACEHOLDER}"`, raw);
}

/** JSON text of `value` with a raw `"key":value` entry first in the top object, or in every object. */
function withEntry(value: unknown, entry: string, everywhere: boolean, top = true): string {
  if (Array.isArray(value)) return `[${value.map((item) => withEntry(item, entry, everywhere, false)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${withEntry(item, entry, everywhere, false)}`);
    return `{${[...(top || everywhere ? [entry] : []), ...members].join(',')}}`;
  }
  return JSON.stringify(value);
}

function deepText(shape: 'array' | 'object', depth: number): string {
  return shape === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

function multipartText(fields: Record<string, unknown>): string {
  const parts = Object.entries(fields).map(([key, value]) => `--XyZ\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${typeof value === 'string' ? value : JSON.stringify(value)}\r\n`);
  return `${parts.join('')}--XyZ--\r\n`;
}

/** A broken body: payload, content type, and whether it cannot be a valid body of an operation taking `media`. */
function brokenBody(mutation: BodyMutation, media: Media, fields: Record<string, unknown>): { payload: string | Buffer; contentType: string; invalid: boolean } {
  const json = 'application/json';
  const ownType = media === 'form' ? FORM : json;
  const ownText = media === 'form' ? formText(fields) : JSON.stringify(fields);
  switch (mutation.kind) {
    case 'not-json':
      return { payload: mutation.text, contentType: json, invalid: true };
    case 'truncated': {
      const cut = ownText.slice(0, Math.floor((ownText.length * mutation.permille) / 1000));
      // A strict prefix of a JSON object is never JSON; a cut form may still be a valid form.
      return { payload: cut, contentType: ownType, invalid: media === 'json' };
    }
    case 'huge': {
      const payloads = {
        'json-string': [`"${'x'.repeat(HUGE)}"`, json],
        'json-array': [`[${'1,'.repeat(HUGE / 2)}1]`, json],
        form: [`a=${'x'.repeat(HUGE)}`, FORM],
        text: ['x'.repeat(HUGE), 'text/plain'],
      } as const;
      const [payload, contentType] = payloads[mutation.shape];
      return { payload, contentType, invalid: true };
    }
    case 'deep': {
      const deep = deepText(mutation.shape, mutation.depth);
      if (media === 'form') return { payload: `${ownText}&a${'[a]'.repeat(mutation.depth)}=1`, contentType: FORM, invalid: false };
      if (mutation.where === 'top') return { payload: deep, contentType: json, invalid: mutation.shape === 'array' };
      // Inside a field, the deep value is an unknown member of an object or an extra array item, so
      // that an operation whose schema allows unknown members still reaches its handler with it.
      const inside = (current: unknown): unknown => {
        if (Array.isArray(current)) return [...current, PLACEHOLDER];
        if (current !== null && typeof current === 'object') return { ...current, a: PLACEHOLDER };
        return current;
      };
      if (mutation.where === 'inside-every-field') {
        const augmented = { ...Object.fromEntries(Object.entries(fields).map(([key, current]) => [key, inside(current)])), a: PLACEHOLDER };
        return { payload: JSON.stringify(augmented).replaceAll(`"${PLACEHOLDER}"`, deep), contentType: json, invalid: false };
      }
      const keys = Object.keys(fields);
      const containers = keys.filter((key) => fields[key] !== null && typeof fields[key] === 'object');
      const candidates = mutation.where === 'inside-field' && containers.length > 0 ? containers : keys;
      const key = candidates.length > 0 ? candidates[mutation.index % candidates.length]! : 'a';
      const replacement = mutation.where === 'inside-field' ? inside(fields[key]) : PLACEHOLDER;
      return { payload: withRaw({ ...fields, [key]: replacement }, deep), contentType: json, invalid: false };
    }
    case 'proto-keys': {
      if (media === 'form') return { payload: `${ownText}&__proto__=x&__proto__%5Bpolluted%5D=yes&constructor%5Bprototype%5D%5Bpolluted%5D=yes`, contentType: FORM, invalid: false };
      const entries = {
        top: '"__proto__":{"polluted":"yes"}',
        constructor: '"constructor":{"prototype":{"polluted":"yes"}}',
        prototype: '"prototype":{"polluted":"yes"}',
        'every-object': '"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}',
      } as const;
      return { payload: withEntry(fields, entries[mutation.where], mutation.where === 'every-object'), contentType: json, invalid: false };
    }
    case 'invalid-utf8': {
      const bytes = Buffer.from(ownText);
      const at = Math.floor((bytes.length * mutation.permille) / 1000);
      return { payload: Buffer.concat([bytes.subarray(0, at), Buffer.from(mutation.bytes), bytes.subarray(at)]), contentType: ownType, invalid: false };
    }
    case 'swapped-format':
      return media === 'form' ? { payload: JSON.stringify(fields), contentType: json, invalid: true } : { payload: formText({ a: 1, ...fields }), contentType: FORM, invalid: media === 'json' };
    case 'multipart':
      return { payload: multipartText({ a: 1, ...fields }), contentType: 'multipart/form-data; boundary=XyZ', invalid: media !== undefined };
  }
}

/** Content types and whether a JSON / form operation reads its body under them (`either`: not decided here). */
const CONTENT_TYPES: Record<string, { json: 'yes' | 'no' | 'either'; form: 'yes' | 'no' | 'either' }> = {
  'text/plain': { json: 'no', form: 'no' },
  'application/xml': { json: 'no', form: 'no' },
  'text/xml': { json: 'no', form: 'no' },
  'multipart/form-data; boundary=XyZ': { json: 'no', form: 'no' },
  'application/octet-stream': { json: 'no', form: 'no' },
  'application/json-patch+json': { json: 'no', form: 'no' },
  'application/vnd.api+json': { json: 'no', form: 'no' },
  '': { json: 'no', form: 'no' },
  ';;': { json: 'no', form: 'no' },
  '*/*': { json: 'no', form: 'no' },
  'application/json': { json: 'yes', form: 'no' },
  'application/json; charset=utf-8': { json: 'yes', form: 'no' },
  'application/json; charset=utf-16': { json: 'either', form: 'no' },
  'Application/JSON': { json: 'either', form: 'no' },
  'application/json, text/plain': { json: 'either', form: 'no' },
  [FORM]: { json: 'no', form: 'yes' },
  [`${FORM}; charset=utf-8`]: { json: 'no', form: 'yes' },
};

/** Authorization values; `refused` when an operation with security must refuse them. */
const AUTHORIZATIONS: { value: string | string[] | null; refused: boolean }[] = [
  { value: null, refused: true },
  { value: '', refused: true },
  { value: 'Bearer', refused: true },
  { value: 'Bearer ', refused: true },
  { value: 'Basic dXNlcjpwYXNzd29yZA==', refused: true },
  { value: 'Bearer not-a-token', refused: true },
  { value: 'Bearer {token}x', refused: true },
  { value: 'Token {token}', refused: true },
  { value: 'Bearer {token} {token}', refused: true },
  { value: 'Bearer <20000 x a>', refused: true },
  { value: 'Bearer \u00e9\u00ff\u00fe', refused: true },
  { value: 'Bearer {token}\u00e9', refused: true },
  { value: 'Bearer {no_scope}', refused: true },
  { value: 'Bearer {other_org}', refused: false },
  { value: 'bearer {token}', refused: false },
  { value: 'BEARER   {token}', refused: false },
  { value: ['Bearer {token}', 'Bearer {token}'], refused: false },
  { value: ['Bearer {token}', 'Bearer not-a-token'], refused: false },
  { value: ['Bearer not-a-token', 'Bearer {token}'], refused: false },
];

const QUERY_KEYS = [
  '__proto__', '__proto__[polluted]', '__proto__%5Bpolluted%5D', 'constructor', 'constructor[prototype][polluted]', 'prototype',
  'metadata[__proto__]', 'metadata%5B__proto__%5D', 'metadata[__proto__][polluted]', 'metadata[constructor]', 'metadata[constructor][prototype]',
  'metadata[prototype]', 'metadata[toString]', 'metadata[hasOwnProperty]', 'hasOwnProperty', 'toString', 'valueOf',
  '%FF', '%C3%28', 'metadata[%FF]', 'metadata%5B%ED%A0%80%5D', '%00', '', '%zz', `metadata<${DEPTHS[0]} x %5Ba%5D>`,
];
const QUERY_VALUES = [
  '1', 'polluted', '', '%FF', '%C3%28', '%ED%A0%80', '%F4%90%80%80', '%C0%AF', '%zz', '%', '%0', '%00', '-1', '0', '101',
  '1e309', 'NaN', 'Infinity', 'true', 'null', '[]', '{}', '%5B%5D', '<10000 x a>', '+', '%2B', UNKNOWN_UUID,
];
const BAD_IDS = [
  'abc', '42', '-1', '<37 x a>', '<101 x a>', '<5000 x a>', `${UNKNOWN_UUID}x`, `${UNKNOWN_UUID}%00`, '%00', '%FF%FE',
  '%C3%28', '%ED%A0%80', '..', '%2e%2e', '%2E%2E%2F%2E%2E', '.', '%2F', '%20', 'null', 'undefined', '__proto__', 'constructor',
  'prototype', '%7B%7D', UNKNOWN_UUID, '00000000-0000-0000-0000-000000000000', '%E2%80%AE', 'x%0D%0ASet-Cookie:%20a=b',
];
const PATH_SUFFIXES = ['/..', '/x', '//', '/%FF', ';x=1', '/../../../../etc/passwd', '%00', '.json', '/%2e%2e', '/%C3%28'];
/** Methods the spec never documents; `inject()` accepts only methods Node knows, so custom verbs are sent over a socket elsewhere. */
const ODD_METHODS = ['PROPFIND', 'PROPPATCH', 'TRACE', 'SEARCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'PURGE', 'REPORT', 'CONNECT', 'OPTIONS', 'PUT', 'HEAD', 'NOTIFY', 'SUBSCRIBE', 'MERGE'].filter((method) => METHODS.includes(method));
const HEADERS: { name: string; value: string }[] = [
  { name: 'x-junk', value: '<65536 x j>' },
  { name: 'accept', value: 'text/html' },
  { name: 'accept', value: 'application/xml' },
  { name: 'accept', value: '' },
  { name: 'accept', value: '*/*;q=0' },
  { name: 'accept-charset', value: 'latin1' },
  { name: 'content-encoding', value: 'gzip' },
  { name: 'content-encoding', value: 'br' },
  { name: 'accept-encoding', value: 'br;q=x, gzip;q=, ;;;,,*;q=-1' },
  { name: 'accept-encoding', value: '<10000 x ,>' },
  { name: 'accept-encoding', value: 'identity;q=0, *;q=0' },
  { name: 'content-length', value: '5' },
  { name: 'x-http-method-override', value: 'DELETE' },
  { name: 'host', value: '\u00e9vil.example:99999' },
  { name: 'x-forwarded-proto', value: 'gopher' },
  { name: 'x-forwarded-host', value: 'evil.example' },
  { name: 'cookie', value: '__proto__=1; constructor=2' },
  { name: 'x-junk', value: '\u00e9\u00ff' },
];
const UNKNOWN_PATHS = [
  '/v1/nothing', '/v2/products/', '/v1/products/extra/more', '/v1/orders', `/v1/orders/${UNKNOWN_UUID}/refund`, '/', '/..',
  '/%2e%2e/%2e%2e/etc/passwd', '/v1/%FF', '/v1/products%00/', '/__proto__', '/constructor/prototype', '/v1/customers',
  `/v1/customers/${UNKNOWN_UUID}`, '/v1/oauth2/authorize', '/v1/oauth2/', '/%C3%A9', '/v1/customer-portal/orders/', `/v1/files/${UNKNOWN_UUID}`,
  '/v1/PRODUCTS/', '/v1/products/%2F', '//v1/products/', '/v1/webhooks', '/v1/webhooks/endpoints/x', '/*', '/v1/products/*',
];
const SEGMENTS = ['v1', 'v2', 'products', 'orders', 'customers', '..', '.', '%2e%2e', '%FF', '%00', '__proto__', 'constructor', 'prototype', '{id}', ':id', '*', '%C3%A9', '%C3%28', 'receipt'];

/** The path a request reaches once `.` and `..` segments are resolved (as `inject()` and WHATWG URLs do), without its query. */
function normalizedPath(path: string): string | undefined {
  try {
    return new URL(path, 'http://reference.invalid').pathname;
  } catch {
    return undefined;
  }
}

/** Whether an operation's route serves a (normalized) path: its template, or without the trailing slash of a list. */
function templateMatches(operation: Operation, path: string): boolean {
  const source = operation.path
    .replace(/\/$/, '')
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${source}${operation.path.endsWith('/') ? '/?' : ''}$`).test(path);
}

/** The operation that serves `method` on `path` (HEAD: the GET operation), or undefined when none does. */
export function routeOf(spec: LoadedSpec, method: string, path: string): Operation | undefined {
  const normalized = normalizedPath(path);
  if (normalized === undefined) return undefined;
  const wanted = method === 'HEAD' ? 'GET' : method;
  return spec.operations.find((operation) => operation.method === wanted && templateMatches(operation, normalized));
}

/** Whether any method of an operation, or a route of the reference outside the API (`/__...`, `/.well-known/...`), may serve a path. */
export function servedPath(spec: LoadedSpec, path: string): boolean {
  const normalized = normalizedPath(path);
  if (normalized === undefined) return false;
  if (/^\/(__|\.well-known)/i.test(normalized)) return true;
  const loose = (operation: Operation) => new RegExp(`^${operation.path.replace(/\/$/, '').replace(/\{[^}]+\}/g, '[^/]*')}/?$`);
  return spec.operations.some((operation) => loose(operation).test(normalized) || loose(operation).test(path));
}

/** Expands the `<N x text>` notation of long values (kept short in counterexamples) into `text` repeated N times. */
export function expand(text: string): string {
  return text.replace(/<(\d+) x ([^>]+)>/g, (_match, times: string, unit: string) => unit.repeat(Number(times)));
}

/** `arbitrary` in `percent` of the values, undefined in the others. */
function sometimes<T>(arbitrary: fc.Arbitrary<T>, percent: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 100 - percent, arbitrary: fc.constant(undefined) }, { weight: percent, arbitrary });
}

/** The arbitrary of {@link MalformedRequest}s for a reference server; at least one thing is broken in each. */
export function malformedRequest(ctx: RequestContext): fc.Arbitrary<MalformedRequest> {
  const weightedIds = ctx.spec.operations.flatMap((operation) => Array<string>(mediaOf(operation) ? 3 : 1).fill(operation.operationId));
  const queryNames = [...new Set(ctx.spec.operations.flatMap((operation) => operation.parameters.filter((p) => p.in === 'query').map((p) => p.name)))];
  const generatedPath = fc
    .array(fc.oneof(fc.constantFrom(...SEGMENTS), fc.stringMatching(/^[a-z0-9_-]{1,12}$/)), { minLength: 1, maxLength: 6 })
    .map((segments) => `/${segments.join('/')}`);
  const target: fc.Arbitrary<Target> = fc.oneof(
    // Operations that take a body have more to break, so they are drawn three times as often.
    { weight: 6, arbitrary: fc.constantFrom(...weightedIds).map((operationId) => ({ kind: 'operation' as const, operationId })) },
    {
      weight: 1,
      arbitrary: fc
        .record({ method: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS', 'PROPFIND', 'TRACE'), path: fc.oneof(fc.constantFrom(...UNKNOWN_PATHS), generatedPath) })
        .filter(({ path }) => !servedPath(ctx.spec, path))
        .map(({ method, path }) => ({ kind: 'unknown-path' as const, method, path })),
    },
  );
  const permille = fc.integer({ min: 0, max: 999 });
  const body: fc.Arbitrary<BodyMutation> = fc.oneof(
    {
      weight: 2,
      arbitrary: fc
        .oneof(fc.constantFrom('{', '{"a":', '[1,', "{'a':1}", 'nul', 'NaN', '{"a":1}}', '{"a":1,}', '{"a" 1}', '\u0000', '{"a":"\\u12"}', '[]]', '"unterminated', '{"a":01}', '\ufeff{}'), fc.string())
        .filter((text) => {
          try {
            JSON.parse(text);
            return false;
          } catch {
            return text.trim() !== '';
          }
        })
        .map((text) => ({ kind: 'not-json' as const, text })),
    },
    { weight: 1, arbitrary: permille.map((value) => ({ kind: 'truncated' as const, permille: value })) },
    { weight: 1, arbitrary: fc.constantFrom('json-string', 'json-array', 'form', 'text').map((shape) => ({ kind: 'huge' as const, shape })) },
    {
      weight: 3,
      arbitrary: fc
        .record({ shape: fc.constantFrom('array', 'object'), depth: fc.constantFrom(...DEPTHS), where: fc.constantFrom('top', 'field', 'inside-field', 'inside-every-field'), index: fc.nat(5) })
        .map((value) => ({ kind: 'deep' as const, ...value })),
    },
    { weight: 2, arbitrary: fc.constantFrom('top', 'constructor', 'prototype', 'every-object').map((where) => ({ kind: 'proto-keys' as const, where })) },
    {
      weight: 1,
      arbitrary: fc
        .record({ bytes: fc.constantFrom([0xff], [0xfe, 0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf], [0x80], [0xe2, 0x82]), permille })
        .map((value) => ({ kind: 'invalid-utf8' as const, ...value })),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'swapped-format' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'multipart' as const }) },
  );
  const query = fc.record({
    key: fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.constantFrom(...queryNames)),
    value: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...QUERY_VALUES) }, { weight: 1, arbitrary: fc.string().map(encodeURIComponent) }),
  });
  const path: fc.Arbitrary<PathMutation> = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...BAD_IDS).map((id) => ({ kind: 'bad-id' as const, id })) },
    { weight: 1, arbitrary: fc.constantFrom(...PATH_SUFFIXES).map((suffix) => ({ kind: 'suffix' as const, suffix })) },
  );
  return fc
    .record({
      target,
      body: sometimes(body, 60),
      contentType: sometimes(fc.constantFrom<string | null>(null, ...Object.keys(CONTENT_TYPES)).map((value) => ({ value })), 15),
      query: fc.oneof(fc.constant([]), fc.array(query, { minLength: 1, maxLength: 3 })),
      path: sometimes(path, 15),
      method: sometimes(fc.constantFrom(...ODD_METHODS), 8),
      authorization: sometimes(fc.constantFrom(...AUTHORIZATIONS.map(({ value }) => ({ value }))), 15),
      headers: fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(fc.constantFrom(...HEADERS), { minLength: 1, maxLength: 2 }) }),
    })
    .filter((value) => value.target.kind === 'unknown-path' || value.body !== undefined || value.contentType !== undefined || value.query.length > 0 || value.path !== undefined || value.method !== undefined || value.authorization !== undefined || value.headers.length > 0)
    .map((value) => {
      // Optional keys the record drew as undefined are left out, so that counterexamples stay short.
      const compact = Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined && !(Array.isArray(item) && item.length === 0)));
      return { query: [], headers: [], ...compact } as unknown as MalformedRequest;
    });
}

/**
 * Builds the request of a generated value and says why the server must refuse it.
 * A refusing mutation is one that no valid request survives: an unknown path or method, a bad id,
 * a body or content type the operation cannot read, missing or unacceptable credentials.
 */
export function materialize(value: MalformedRequest, ctx: RequestContext): Materialized {
  const refusedBecause: string[] = [];
  let operation = value.target.kind === 'operation' ? ctx.spec.operation(value.target.operationId) : undefined;
  if (value.target.kind === 'unknown-path') refusedBecause.push('unknown path');
  let method = value.target.kind === 'operation' ? operation!.method : value.target.method;
  let path = value.target.kind === 'operation' ? pathOf(operation!, ctx.fixtures) : value.target.path;
  const role = operation ? roleOf(operation) : 'admin';
  const token = role ? ctx.tokens[role] : ctx.tokens.admin;
  const headers: Record<string, string | string[]> = role ? { authorization: `Bearer ${token}` } : {};
  const fields = operation ? bodyOf(operation, ctx.fixtures) : {};
  let payload: string | Buffer | undefined;

  if (value.method !== undefined) method = value.method;
  if (value.path?.kind === 'bad-id' && operation && /\{[^}]+\}/.test(operation.path)) {
    path = operation.path.replace(/\{[^}]+\}/, expand(value.path.id));
    refusedBecause.push(`bad id ${value.path.id}`);
  } else if (value.path?.kind === 'suffix') {
    path = `${path}${value.path.suffix}`;
  }
  if (operation && (value.method !== undefined || value.path !== undefined)) {
    // A new method or path may reach another operation (HEAD: the GET one; `/..` may resolve back), or none.
    const routed = routeOf(ctx.spec, method, path);
    if (!routed) refusedBecause.push(`no operation serves ${method} ${value.path?.kind === 'suffix' ? `${operation.path}${value.path.suffix}` : operation.path}`);
    operation = routed;
  }

  const media = mediaOf(operation);
  if (media === 'json') {
    payload = JSON.stringify(fields);
    headers['content-type'] = 'application/json';
  } else if (media === 'form') {
    payload = formText(fields);
    headers['content-type'] = FORM;
  }
  if (value.body) {
    const broken = brokenBody(value.body, media, fields);
    payload = broken.payload;
    headers['content-type'] = broken.contentType;
    if (broken.invalid && media) refusedBecause.push(`body ${value.body.kind}`);
  }
  if (value.contentType) {
    const type = value.contentType.value;
    if (type === null) delete headers['content-type'];
    else headers['content-type'] = type;
    payload ??= '{}';
    const reads = type === null ? 'no' : (CONTENT_TYPES[type]?.[media ?? 'json'] ?? 'either');
    if (media && reads === 'no') refusedBecause.push(`content type ${String(type)}`);
  }

  for (const { key, value: text } of value.query) path = `${path}${path.includes('?') ? '&' : '?'}${expand(key)}=${expand(text)}`;

  if (value.authorization) {
    const fill = (text: string) => expand(text).replaceAll('{token}', token).replaceAll('{no_scope}', ctx.tokens.no_scope).replaceAll('{other_org}', ctx.tokens.other_org);
    const given = value.authorization.value;
    if (given === null) delete headers.authorization;
    else headers.authorization = Array.isArray(given) ? given.map(fill) : fill(given);
    const refused = AUTHORIZATIONS.find((entry) => JSON.stringify(entry.value) === JSON.stringify(given))?.refused ?? false;
    if (refused && role) refusedBecause.push('authorization');
  }
  for (const header of value.headers) {
    // A Content-Length without a body would make the request wait for bytes that never come.
    if (header.name === 'content-length' && payload === undefined) continue;
    headers[header.name] = expand(header.value);
  }
  return { request: { method, url: path, headers, ...(payload !== undefined ? { payload } : {}) }, operation, refusedBecause };
}
