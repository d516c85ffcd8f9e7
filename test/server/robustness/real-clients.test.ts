// Real clients work: what HTTP libraries, browsers and generated SDKs send by habit (a
// Content-Type on a request without a body, one value where an array is documented, various
// Accept headers, HEAD, a list path without its trailing slash, keep-alive connections) is served
// like the canonical request.
// @see docs/design.md (Reference server); spec/openapi.yaml (the operations); spec/rules.yaml lists.sorting, limits.page_size
import net, { type AddressInfo } from 'node:net';
import { Client, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type ReferenceApp } from '../../../server/app.js';
import { expectConforms, ids, testServer, type TestServer } from '../support.js';

let server: TestServer;
let f: Record<string, string>;
let auth: { authorization: string };

beforeAll(async () => {
  server = await testServer({ rateLimit: false });
  f = server.fixtures;
  auth = { authorization: `Bearer ${server.tokens.admin}` };
});

describe('a Content-Type without a body', () => {
  it('serves a GET of a list sent with Content-Type: application/json and no body', async () => {
    const response = await server.app.inject({ url: '/v1/products/?limit=3', headers: { ...auth, 'content-type': 'application/json' } });
    expect(response.statusCode, response.body).toBe(200);
    expectConforms(server, 'products:list', response);
  });

  it('serves a GET of one resource sent with Content-Type: application/json; charset=utf-8 and no body', async () => {
    const response = await server.app.inject({ url: `/v1/orders/${f.order_id}/receipt`, headers: { ...auth, 'content-type': 'application/json; charset=utf-8' } });
    expect(response.statusCode, response.body).toBe(200);
    expectConforms(server, 'orders:get_receipt', response);
  });

  it('serves a DELETE sent with Content-Type: application/json and no body', async () => {
    const response = await server.app.inject({ method: 'DELETE', url: `/v1/customers/external/${encodeURIComponent(f.customer_external_id!)}`, headers: { ...auth, 'content-type': 'application/json' } });
    expect(response.statusCode, response.body).toBe(204);
    expectConforms(server, 'customers:delete_external', response);
    server.control.reset();
  });

  it('serves a DELETE sent with Content-Type: application/json and Content-Length: 0', async () => {
    const response = await server.app.inject({ method: 'DELETE', url: '/v1/customers/external/nobody-has-this-id', headers: { ...auth, 'content-type': 'application/json', 'content-length': '0' } });
    expect(response.statusCode, response.body).toBe(404);
    expectConforms(server, 'customers:delete_external', response);
  });

  it('serves a POST of an operation without a request body sent with Content-Type: application/json and no body', async () => {
    const response = await server.app.inject({ method: 'POST', url: `/v1/orders/${f.order_id}/invoice`, headers: { ...auth, 'content-type': 'application/json' } });
    expect(response.statusCode, response.body).toBe(202);
    expectConforms(server, 'orders:generate_invoice', response);
    server.control.reset();
  });
});

describe('one value or a repeated parameter', () => {
  it('takes a single sorting value as a list of one', async () => {
    const single = await server.get('/v1/products/', { sorting: '-created_at', limit: 20 });
    const asList = await server.get('/v1/products/', { sorting: ['-created_at'], limit: 20 });
    expect(single.statusCode, single.body).toBe(200);
    expectConforms(server, 'products:list', single);
    expect(ids(single.json().items)).toEqual(ids(asList.json().items));
    const created = single.json().items.map((item: { created_at: string }) => item.created_at);
    expect(created).toEqual([...created].sort().reverse());
  });

  it('takes a single sorting value on refunds and subscriptions', async () => {
    for (const [path, operationId, sorting] of [['/v1/refunds/', 'refunds:list', 'amount'], ['/v1/subscriptions/', 'subscriptions:list', '-started_at']] as const) {
      const response = await server.get(path, { sorting });
      expect(response.statusCode, response.body).toBe(200);
      expectConforms(server, operationId, response);
    }
  });

  it.each([
    ['products:list', '/v1/products/', 'id', () => [...server.store.products.inOrganization(f.organization_id!)].slice(0, 3).map((p) => p.id)],
    ['refunds:list', '/v1/refunds/', 'id', () => [...server.store.refunds.inOrganization(f.organization_id!)].slice(0, 2).map((r) => r.id)],
    ['files:list', '/v1/files/', 'ids', () => [...server.store.files.inOrganization(f.organization_id!)].slice(0, 2).map((file) => file.id)],
  ] as const)('%s (%s) takes a repeated ?%s= filter and a single value', async (operationId, path, name, wanted) => {
    const chosen = wanted();
    expect(chosen.length).toBeGreaterThanOrEqual(2);
    const repeated = await server.get(path, { [name]: chosen });
    expect(repeated.statusCode, repeated.body).toBe(200);
    expectConforms(server, operationId, repeated);
    expect(ids(repeated.json().items).sort()).toEqual([...chosen].sort());
    const single = await server.get(path, { [name]: chosen[0]! });
    expect(single.statusCode, single.body).toBe(200);
    expect(ids(single.json().items)).toEqual([chosen[0]]);
  });
});

describe('Accept headers', () => {
  it.each([
    ['*/*', { accept: '*/*' }],
    ['no Accept', {}],
    ['application/json', { accept: 'application/json' }],
    ['application/json; charset=utf-8', { accept: 'application/json; charset=utf-8' }],
    ['application/*', { accept: 'application/*' }],
    ['a browser\'s', { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }],
  ])('answers a list with Accept %s in JSON', async (_name, accept) => {
    const response = await server.app.inject({ url: '/v1/webhooks/endpoints', headers: { ...auth, ...accept } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expectConforms(server, 'webhooks:list_endpoints', response);
  });
});

describe('HEAD and the trailing slash', () => {
  it.each(['/v1/products/', '/v1/subscriptions/', '/v1/refunds/', '/v1/files/', '/v1/webhooks/endpoints'])('answers HEAD %s like GET without a body', async (path) => {
    const get = await server.app.inject({ url: path, headers: auth });
    const head = await server.app.inject({ method: 'HEAD', url: path, headers: auth });
    expect(head.statusCode).toBe(get.statusCode);
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
  });

  it.each(['/v1/products', '/v1/subscriptions', '/v1/refunds', '/v1/files'])('serves %s (no trailing slash) like the documented path with the slash', async (path) => {
    const without = await server.get(path, { limit: 5 });
    const withSlash = await server.get(`${path}/`, { limit: 5 });
    expect(without.statusCode, without.body).toBe(200);
    expect(without.body).toBe(withSlash.body);
  });

  it('serves the portal list without its trailing slash', async () => {
    const response = await server.get('/v1/customer-portal/license-keys', {}, 'customer_session');
    expect(response.statusCode, response.body).toBe(200);
    expectConforms(server, 'customer_portal:license_keys:list', response);
  });

  // A documented path without a trailing slash, requested with one, is not a route: it must not be
  // answered 405 "allowed: GET" (the method it refuses), which the 405 matcher once did.
  it.each(['/v1/webhooks/endpoints/', `/v1/orders/{order}/receipt/`])('never answers %s with a 405 that allows the very method', async (template) => {
    const response = await server.app.inject({ url: template.replace('{order}', f.order_id!), headers: auth });
    expect(response.statusCode === 405 && String(response.headers.allow).split(', ').includes('GET'), response.body).toBe(false);
  });
});

describe('keep-alive over a real socket', () => {
  let built: ReferenceApp;
  let origin: string;
  let connections = 0;

  beforeAll(async () => {
    built = await buildApp({ rateLimit: false });
    built.app.server.on('connection', () => connections++);
    await built.app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await built.app.close();
  });

  it('serves sequential requests of one undici client on one kept-alive connection', async () => {
    const client = new Client(origin, { pipelining: 1 });
    const before = connections;
    try {
      const requests = [
        { method: 'GET', path: '/v1/products/?limit=2' },
        { method: 'GET', path: '/v1/products?limit=2', headers: { 'content-type': 'application/json' } },
        { method: 'GET', path: `/v1/orders/${built.fixtures.order_id}/receipt`, headers: { accept: '*/*' } },
        { method: 'DELETE', path: '/v1/customers/external/nobody-has-this-id', headers: { 'content-type': 'application/json' } },
        { method: 'GET', path: '/v1/webhooks/endpoints' },
      ] as const;
      const statuses: number[] = [];
      for (const request of requests) {
        const response = await client.request({ ...request, headers: { authorization: `Bearer ${built.tokens.admin}`, ...('headers' in request ? request.headers : {}) } });
        statuses.push(response.statusCode);
        const text = await response.body.text();
        expect(() => JSON.parse(text)).not.toThrow();
      }
      expect(statuses).toEqual([200, 200, 200, 404, 200]);
      expect(connections - before).toBe(1);
    } finally {
      await client.close();
    }
  });

  // undici closes the connection after its own HEAD requests (it sends Connection: close), so the
  // server's side of a HEAD on a kept-alive connection is checked with raw bytes.
  it('keeps the connection open after a HEAD: a HEAD and a GET pipelined on one socket are both answered', async () => {
    const { port } = new URL(origin);
    const head = `HEAD /v1/subscriptions/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${built.tokens.admin}\r\n\r\n`;
    const get = `GET /v1/products/?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${built.tokens.admin}\r\nConnection: close\r\n\r\n`;
    const before = connections;
    const text = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.setTimeout(5_000, () => socket.destroy(new Error('no answer within 5 s')));
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.write(head + get);
    });
    const statusLines = text.match(/^HTTP\/1\.1 \d{3}/gm) ?? [];
    expect(statusLines).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
    // The HEAD answer has headers only: the GET's status line follows its blank line at once.
    expect(text.split('\r\n\r\n')[1]).toMatch(/^HTTP\/1\.1 200/);
    expect(connections - before).toBe(1);
  });

  it('serves sequential fetch requests, GET and DELETE with Content-Type: application/json and no body', async () => {
    const headers = { authorization: `Bearer ${built.tokens.admin}`, 'content-type': 'application/json' };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const list = await fetch(`${origin}/v1/refunds/?sorting=-created_at&limit=2`, { headers });
      statuses.push(list.status);
      expect(((await list.json()) as { items: unknown[] }).items).toHaveLength(2);
    }
    const deleted = await fetch(`${origin}/v1/customers/external/${encodeURIComponent(built.fixtures.customer_external_id!)}`, { method: 'DELETE', headers });
    statuses.push(deleted.status);
    await deleted.arrayBuffer();
    expect(statuses).toEqual([200, 200, 200, 204]);
  });

  it('answers fetch, which sends Accept-Encoding by default, coded; fetch reads the same JSON as a client that sends none', async () => {
    const headers = { authorization: `Bearer ${built.tokens.admin}` };
    const plain = await request(`${origin}/v1/subscriptions/?limit=100`, { headers });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const expected = await plain.body.json();
    for (let i = 0; i < 2; i++) {
      const coded = await fetch(`${origin}/v1/subscriptions/?limit=100`, { headers });
      expect(coded.status).toBe(200);
      expect(['br', 'gzip']).toContain(coded.headers.get('content-encoding'));
      expect(await coded.json()).toEqual(expected);
    }
  });
});
