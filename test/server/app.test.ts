import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { testServer, type TestServer } from './support.js';

let server: TestServer;
let auth: { authorization: string };

beforeAll(async () => {
  server = await testServer();
  auth = { authorization: `Bearer ${server.tokens.admin}` };
});

describe('routes', () => {
  it('serves every operation at its path, with and without the trailing slash', async () => {
    for (const operation of server.spec.operations) {
      for (const url of [operation.path, operation.path.replace(/\/$/, '')]) {
        const response = await server.app.inject({ method: operation.method as 'GET', url, headers: auth });
        // A served route answers one of its documented statuses; a missing one would be 404 "No resource", 405 or 501.
        expect(server.spec.matchStatus(operation, response.statusCode), `${operation.method} ${url}: ${response.statusCode} ${response.body.slice(0, 200)}`).toBeDefined();
        expect(response.body).not.toContain('No resource at');
      }
    }
  });

  it('serves the ID token signing key as a JWK set', async () => {
    const response = await server.app.inject({ url: '/.well-known/jwks.json' });
    expect(response.statusCode).toBe(200);
    expect(response.json().keys).toEqual([expect.objectContaining({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: expect.any(String) })]);
    expect(response.json().keys[0]).not.toHaveProperty('d');
  });
});

describe('HTTP edges', () => {
  it('answers an unknown route 404 ResourceNotFound', async () => {
    const response = await server.app.inject({ url: '/v1/nothing-here', headers: auth });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'ResourceNotFound', detail: 'No resource at GET /v1/nothing-here.' });
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const)('answers %s on a list 405 MethodNotAllowed with Allow', async (method) => {
    const response = await server.app.inject({ method, url: '/v1/products/', headers: auth });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(response.json()).toEqual({ error: 'MethodNotAllowed', detail: `Method ${method} is not allowed on /v1/products/; allowed: GET, HEAD.` });
  });

  it('serves a GET sent with Content-Type: application/json and no body', async () => {
    const response = await server.app.inject({ url: '/v1/products/', headers: { ...auth, 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(200);
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await server.app.inject({ method: 'HEAD', url: '/v1/subscriptions/', headers: auth });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
  });

  it.each<[string, { method: 'GET' | 'POST' | 'DELETE' | 'PUT'; url: string; headers?: Record<string, string>; payload?: string }]>([
    ['invalid JSON body', { method: 'POST', url: '/v1/products/', headers: { 'content-type': 'application/json' }, payload: '{"a":' }],
    ['__proto__ in a JSON body', { method: 'POST', url: '/v1/products/', headers: { 'content-type': 'application/json' }, payload: '{"__proto__":{"x":1}}' }],
    ['an empty JSON body on DELETE', { method: 'DELETE', url: '/v1/products/', headers: { 'content-type': 'application/json' } }],
    ['an unknown content type', { method: 'POST', url: '/v1/products/', headers: { 'content-type': 'application/x-nope' }, payload: '<x/>' }],
    ['a malformed content type', { method: 'POST', url: '/v1/products/', headers: { 'content-type': '/;;' }, payload: 'x' }],
    ['a bad percent-escape in the path', { method: 'GET', url: '/v1/%zz/products' }],
    ['a huge page number', { method: 'GET', url: '/v1/products/?page=99999999999999999999999999' }],
    ['a 400-digit limit', { method: 'GET', url: `/v1/products/?limit=${'9'.repeat(400)}` }],
    ['a NUL in a value', { method: 'GET', url: '/v1/products/?limit=%00&query=%00' }],
    ['invalid UTF-8 in a value', { method: 'GET', url: '/v1/products/?query=%C3%28&id=%FF' }],
    ['a prototype key', { method: 'GET', url: '/v1/products/?__proto__=1&constructor=2&metadata%5B__proto__%5D=x' }],
    ['an impossible date', { method: 'GET', url: '/v1/subscriptions/?started_after=2026-13-45T99:99:99Z' }],
    ['a leap second', { method: 'GET', url: '/v1/subscriptions/?started_after=2016-12-31T23:59:60Z' }],
    ['an empty sorting value', { method: 'GET', url: '/v1/subscriptions/?sorting=' }],
    ['a very long query', { method: 'GET', url: `/v1/products/?${'query=x&'.repeat(2000)}` }],
    ['a huge body', { method: 'POST', url: '/v1/products/', headers: { 'content-type': 'application/json' }, payload: `[${'1,'.repeat(700_000)}1]` }],
    ['invalid JSON to a body operation', { method: 'POST', url: '/v1/files/', headers: { 'content-type': 'application/json' }, payload: '{"name":' }],
    ['a JSON array to a body operation', { method: 'POST', url: '/v1/files/', headers: { 'content-type': 'application/json' }, payload: '[1,2]' }],
    ['a deeply nested JSON body', { method: 'POST', url: '/v1/files/', headers: { 'content-type': 'application/json' }, payload: `${'['.repeat(100_000)}${']'.repeat(100_000)}` }],
    ['__proto__ keys in a body operation', { method: 'POST', url: '/v1/files/', headers: { 'content-type': 'application/json' }, payload: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}' }],
    ['text/plain to a JSON operation', { method: 'POST', url: '/v1/files/', headers: { 'content-type': 'text/plain' }, payload: 'hello' }],
    ['a form body to a JSON operation', { method: 'POST', url: '/v1/customer-seats/claim', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'invitation_token=x' }],
    ['JSON to a form operation', { method: 'POST', url: '/v1/oauth2/token', headers: { 'content-type': 'application/json' }, payload: '{"grant_type":"authorization_code"}' }],
    ['a repeated form field', { method: 'POST', url: '/v1/oauth2/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'grant_type=a&grant_type=b' }],
    ['invalid percent-escapes in a form', { method: 'POST', url: '/v1/oauth2/introspect', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'token=%E0%A4%A&client_id=%zz' }],
    ['an empty body to a form operation', { method: 'POST', url: '/v1/oauth2/introspect', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' }],
    ['a number as invitation token', { method: 'POST', url: '/v1/customer-seats/claim', headers: { 'content-type': 'application/json' }, payload: '{"invitation_token":5}' }],
    ['a huge upload plan', { method: 'POST', url: '/v1/files/', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'x', mime_type: 'x', size: 1e15, service: 'downloadable', upload: { parts: Array.from({ length: 20_000 }, (_, i) => ({ number: i + 1, chunk_start: i, chunk_end: i })) } }) }],
    ['an unsigned upload part', { method: 'POST', url: '/__uploads/x/1' }],
    ['an upload part without a signature', { method: 'PUT', url: '/__uploads/x/1', payload: 'abc' }],
    ['a document without a signature', { method: 'GET', url: '/__receipts/x.pdf' }],
    ['a control call with a body that is not an object', { method: 'POST', url: '/__control/orders', headers: { 'content-type': 'application/json' }, payload: '[1]' }],
    ['a control call with a field of the wrong type', { method: 'POST', url: '/__control/orders', headers: { 'content-type': 'application/json' }, payload: '{"customer_id":5}' }],
    ['a control call with invalid JSON', { method: 'POST', url: '/__control/clock/advance', headers: { 'content-type': 'application/json' }, payload: '{' }],
  ])('answers %s with a 4xx or 200 and a JSON body, never a 5xx', async (_name, request) => {
    const response = await server.app.inject({ ...request, headers: { ...auth, ...request.headers } });
    expect(response.statusCode, response.body).toBeLessThan(500);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(() => response.json()).not.toThrow();
  });

  it('never answers a 5xx to any query string (property)', async () => {
    const names = [...new Set(server.spec.operations.flatMap((o) => o.parameters.map((p) => p.name))), 'metadata[tier]', 'metadata[a][b]', 'metadata', '__proto__'];
    const value = fc.oneof(fc.string(), fc.constantFrom('0', '-1', '101', 'true', 'false', '', 'name', '-started_at', server.fixtures.organization_id!), fc.integer().map(String));
    const query = fc.array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/v1/products/', '/v1/subscriptions/'), query, async (path, pairs) => {
        const url = `${path}?${new URLSearchParams(pairs).toString()}`;
        const response = await server.app.inject({ url, headers: auth });
        expect([200, 422]).toContain(response.statusCode);
        expect(() => response.json()).not.toThrow();
      }),
      { numRuns: 300, seed: 42 },
    );
  });

  it('never answers a 5xx to any JSON body of a body operation (property)', async () => {
    const bodyOperations = server.spec.operations.filter((o) => o.raw.requestBody?.content?.['application/json']);
    const json = fc.jsonValue({ maxDepth: 4 });
    const shaped = fc.record({ benefits: fc.array(fc.oneof(fc.uuid(), fc.string())), invitation_token: fc.string(), name: fc.string(), size: fc.integer(), service: fc.constantFrom('downloadable', 'x'), upload: fc.record({ parts: fc.array(fc.record({ number: fc.integer(), chunk_start: fc.integer(), chunk_end: fc.integer() })) }), billing_name: fc.oneof(fc.string(), fc.constant(null), fc.integer()), billing_address: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...bodyOperations), fc.oneof(json, shaped), async (operation, body) => {
        const url = operation.path.replace('{id}', server.fixtures.order_id!).replace('/products/' + server.fixtures.order_id, '/products/' + server.fixtures.product_id);
        const response = await server.app.inject({ method: operation.method as 'POST', url, headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
        expect(response.statusCode, response.body).toBeLessThan(500);
        expect(() => response.json()).not.toThrow();
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it('never answers a 5xx to any form body of the OAuth endpoints (property)', async () => {
    const field = fc.constantFrom('grant_type', 'code', 'redirect_uri', 'client_id', 'client_secret', 'refresh_token', 'token', 'scope', '__proto__');
    const value = fc.oneof(fc.string(), fc.constantFrom('authorization_code', 'refresh_token', server.fixtures.oauth_client_id!, server.fixtures.oauth_client_secret!));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/v1/oauth2/token', '/v1/oauth2/introspect'), fc.array(fc.tuple(field, value), { maxLength: 6 }), async (url, pairs) => {
        const response = await server.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(pairs).toString() });
        expect([200, 400, 401]).toContain(response.statusCode);
        expect(response.headers['cache-control']).toBe('no-store');
      }),
      { numRuns: 200, seed: 11 },
    );
  });

  it('maps an unexpected error to a JSON 500 as the last resort', async () => {
    const built = await testServer();
    built.app.get('/__explode', async () => {
      throw new Error('boom');
    });
    const response = await built.app.inject({ url: '/__explode' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'InternalServerError', detail: 'The server failed to handle the request.' });
  });
});
