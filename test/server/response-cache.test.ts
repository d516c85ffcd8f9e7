import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuildAppOptions, type ReferenceApp } from '../../server/app.js';
import { ResponseCache } from '../../server/response-cache.js';
import { createStore, markStoreChanged } from '../../server/store.js';
import { testServer, type TestServer } from './support.js';

describe('ResponseCache', () => {
  const setUp = () => {
    let now = Date.parse('2026-11-22T00:00:00Z');
    const store = createStore({ seed: 1, clock: () => new Date(now) });
    return { store, cache: new ResponseCache(store, { maxBytes: 100 }), advance: (ms: number) => (now += ms) };
  };
  const ok = (text: string) => ({ status: 200, body: Buffer.from(text), headers: { 'content-type': 'application/json; charset=utf-8' } });

  it('gives back the bytes it kept, and serializes an object body once', () => {
    const { cache } = setUp();
    cache.set('a', ok('{"items":[]}'), Infinity);
    expect(cache.get('a')?.body).toEqual(Buffer.from('{"items":[]}'));
    const kept = cache.set('b', { status: 200, body: { x: 1 } }, Infinity);
    expect(kept.body).toEqual(Buffer.from('{"x":1}'));
    expect(kept.headers?.['content-type']).toBe('application/json; charset=utf-8');
    expect(cache.get('c')).toBeUndefined();
  });

  it.each([
    ['a change of the store', ({ store }: ReturnType<typeof setUp>) => markStoreChanged(store)],
    ['the expiry of the token', ({ advance }: ReturnType<typeof setUp>) => advance(1000)],
  ])('drops an answer at %s', (_name, change) => {
    const setup = setUp();
    setup.cache.set('a', ok('{}'), Date.parse('2026-11-22T00:00:01Z'));
    expect(setup.cache.get('a')).toBeDefined();
    change(setup);
    expect(setup.cache.get('a')).toBeUndefined();
    expect(setup.cache.size).toEqual({ entries: 0, bytes: 0 });
  });

  it('keeps only 200 answers, and at most maxBytes, dropping the oldest', () => {
    const { cache } = setUp();
    cache.set('error', { status: 404, body: { error: 'ResourceNotFound' } }, Infinity);
    expect(cache.get('error')).toBeUndefined();
    cache.set('a', ok('a'.repeat(40)), Infinity);
    cache.set('b', ok('b'.repeat(40)), Infinity);
    cache.set('c', ok('c'.repeat(40)), Infinity);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.size.bytes).toBe(80);
  });
});

describe('the reference server with its response cache', () => {
  let cached: TestServer;
  let uncached: TestServer;
  beforeAll(async () => {
    [cached, uncached] = await Promise.all([testServer(), testServer({ responseCache: false })]);
  });
  afterAll(async () => {
    await Promise.all([cached.app.close(), uncached.app.close()]);
  });

  it.each([
    ['/v1/products/', { limit: 10, sorting: 'name' }, 'admin'],
    ['/v1/subscriptions/', { limit: 100 }, 'admin'],
    ['/v1/products/', { limit: 10, sorting: 'name' }, 'reader'],
    ['/v1/customer-portal/license-keys/', {}, 'customer_session'],
    ['/v1/products/', { limit: 10 }, 'other_org'],
  ] as const)('answers GET %s %o as %s byte for byte as without it, the first time and the next', async (path, query, as) => {
    const first = await cached.get(path, query, as);
    const again = await cached.get(path, query, as);
    const reference = await uncached.get(path, query, as);
    expect(first.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(first.body).toBe(reference.body);
    expect(again.headers['content-type']).toBe(reference.headers['content-type']);
  });

  it('shows a change made by a request at the next read', async () => {
    const query = { limit: 100 };
    const before = (await cached.get('/v1/products/', query)).json();
    const product = before.items.find((item: { benefits: unknown[] }) => item.benefits.length > 0);
    const changed = await cached.send('POST', `/v1/products/${product.id}/benefits`, { json: { benefits: [] } });
    expect(changed.statusCode).toBe(200);
    const after = (await cached.get('/v1/products/', query)).json();
    expect(after.items.find((item: { id: string }) => item.id === product.id).benefits).toEqual([]);
  });

});

describe('kept answers in front of Fastify (answerKeptFirst), over a real socket', () => {
  const opened: ReferenceApp[] = [];
  const listening = async (options: BuildAppOptions) => {
    const built = await buildApp(options);
    opened.push(built);
    await built.app.listen({ host: '127.0.0.1', port: 0 });
    return { built, origin: `http://127.0.0.1:${(built.app.server.address() as { port: number }).port}` };
  };
  afterAll(async () => {
    await Promise.all(opened.map((built) => built.app.close()));
  });
  const get = async (origin: string, token: string, path: string, headers: Record<string, string> = {}) => {
    const response = await request(`${origin}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
    const { date: _date, ...rest } = response.headers;
    return { status: response.statusCode, headers: rest, body: Buffer.from(await response.body.arrayBuffer()) };
  };

  it.each([[{}], [{ 'accept-encoding': 'gzip' }], [{ 'accept-encoding': 'br, gzip' }]])('answers a kept list with the status, headers and bytes Fastify wrote the first time (%o)', async (headers) => {
    const { built, origin } = await listening({ rateLimit: false });
    const first = await get(origin, built.credentials.admin, '/v1/subscriptions/?limit=100', headers);
    const kept = await get(origin, built.credentials.admin, '/v1/subscriptions/?limit=100', headers);
    expect(first.status).toBe(200);
    expect(kept).toEqual(first);
    // Another token's answer is its own: the key holds the Authorization header.
    const other = await get(origin, built.credentials.other_org, '/v1/subscriptions/?limit=100', headers);
    expect(other.body.equals(first.body)).toBe(false);
  });

  it('still counts a client the rate limit counts, and serves an exempt one past the limit', async () => {
    const { built, origin } = await listening({ rateLimit: { max: 3, windowMs: 60_000 } });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await get(origin, built.credentials.admin, '/v1/products/?limit=1')).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const exempt = await listening({ rateLimit: { max: 3, windowMs: 60_000, allowList: ['127.0.0.1'] } });
    const served = [];
    for (let i = 0; i < 5; i++) served.push((await get(exempt.origin, exempt.built.credentials.admin, '/v1/products/?limit=1')).status);
    expect(served).toEqual([200, 200, 200, 200, 200]);
  });

  it('answers what changed after a write, not the kept answer', async () => {
    const { built, origin } = await listening({ rateLimit: false });
    const before = JSON.parse((await get(origin, built.credentials.admin, '/v1/products/?limit=100')).body.toString());
    await get(origin, built.credentials.admin, '/v1/products/?limit=100');
    const product = before.items.find((item: { benefits: unknown[] }) => item.benefits.length > 0);
    const changed = await request(`${origin}/v1/products/${product.id}/benefits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${built.credentials.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ benefits: [] }),
    });
    expect(changed.statusCode).toBe(200);
    await changed.body.dump();
    const after = JSON.parse((await get(origin, built.credentials.admin, '/v1/products/?limit=100')).body.toString());
    expect(after.items.find((item: { id: string }) => item.id === product.id).benefits).toEqual([]);
  });
});
