import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuildAppOptions, type ReferenceApp } from '../../server/app.js';
import { MIN_CODED_BYTES, preferredCoding } from '../../server/content-coding.js';
import { ResponseCache } from '../../server/response-cache.js';
import { createStore, markStoreChanged } from '../../server/store.js';
import { testServer, type TestServer } from './support.js';

const decode = (coding: string | undefined, body: Buffer) => (coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body).toString();

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

  it('holds no answer of an older revision once the store changed: the next lookup or keep drops them all', () => {
    const { cache, store } = setUp();
    for (const key of ['a', 'b', 'c']) cache.set(key, ok(`{"key":"${key}"}`), Infinity);
    expect(cache.size.entries).toBe(3);
    markStoreChanged(store);
    cache.set('d', ok('{"key":"d"}'), Infinity);
    expect(cache.size).toEqual({ entries: 1, bytes: '{"key":"d"}'.length });
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('d')).toBeDefined();
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

describe('ResponseCache with content codings', () => {
  const big = Buffer.from(JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `product ${i}` })) }));
  const reply = { status: 200, body: big, headers: { 'content-type': 'application/json; charset=utf-8' } };

  it('codes an answer on its first request in that coding, then gives back the same bytes', () => {
    const cache = new ResponseCache(createStore({ seed: 1 }));
    const first = cache.set('a', reply, Infinity, 'br');
    expect(first.headers).toMatchObject({ 'content-encoding': 'br', vary: 'Accept-Encoding' });
    expect(decode('br', first.body as Buffer)).toBe(big.toString());
    expect(cache.get('a', 'br')!.body).toBe(first.body);
    const identity = cache.get('a')!;
    expect(identity.body).toBe(big);
    expect(identity.headers).toMatchObject({ vary: 'Accept-Encoding' });
    expect(identity.headers?.['content-encoding']).toBeUndefined();
    const gzip = cache.get('a', 'gzip')!;
    expect(decode('gzip', gzip.body as Buffer)).toBe(big.toString());
    expect(cache.size).toEqual({ entries: 1, bytes: big.length + (first.body as Buffer).length + (gzip.body as Buffer).length });
  });

  it('counts coded bytes against maxBytes and drops them with their answer', () => {
    const cache = new ResponseCache(createStore({ seed: 1 }), { maxBytes: big.length + 100 });
    cache.set('a', reply, Infinity);
    cache.get('a', 'gzip');
    expect(cache.size.entries).toBe(0);
    expect(cache.size.bytes).toBe(0);
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

  it.each([
    ['gzip', 'br', 'gzip, deflate, br'],
    ['br', 'br', 'br, deflate'],
    ['gzip', 'gzip', 'gzip, deflate'],
    [undefined, undefined, 'identity'],
    [undefined, undefined, undefined],
  ])('answers %s, then %s once kept, to Accept-Encoding %j, the same JSON with and without the response cache', async (coding, keptCoding, header) => {
    const headers: Record<string, string> = header === undefined ? {} : { 'accept-encoding': header };
    const plain = await uncached.get('/v1/subscriptions/', { limit: 100 });
    // Nothing kept from the cases before; the second request to the cached server is answered from its kept answer.
    markStoreChanged(cached.store);
    for (const [server, expected] of [[cached, coding], [uncached, coding], [cached, keptCoding]] as const) {
      const response = await server.get('/v1/subscriptions/', { limit: 100 }, 'admin', headers);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(expected);
      expect(response.headers.vary).toBe('Accept-Encoding');
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      expect(decode(expected, response.rawPayload)).toBe(plain.body);
    }
  });

  it('codes a large answer of an operation other than a list, and no answer under the threshold', async () => {
    const accept = { 'accept-encoding': 'gzip' };
    const benefits = (id: string) => cached.app.inject({
      method: 'POST',
      url: `/v1/products/${id}/benefits`,
      headers: { authorization: `Bearer ${cached.tokens.admin}`, ...accept },
      payload: { benefits: [cached.fixtures.benefit_id] },
    });
    const product = await benefits(cached.fixtures.product_id!);
    expect(product.statusCode).toBe(200);
    expect(product.headers['content-encoding']).toBe('gzip');
    expect(product.headers.vary).toBe('Accept-Encoding');
    expect(JSON.parse(decode('gzip', product.rawPayload))).toMatchObject({ id: cached.fixtures.product_id, benefits: [{ id: cached.fixtures.benefit_id }] });
    const missing = await benefits('00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.rawPayload.length).toBeLessThan(MIN_CODED_BYTES);
    expect(missing.headers['content-encoding']).toBeUndefined();
    expect(missing.json()).toMatchObject({ error: 'ResourceNotFound' });
    const empty = await cached.get('/v1/products/', { limit: 1, query: 'no product has this name' }, 'admin', accept);
    expect(empty.headers['content-encoding']).toBeUndefined();
    expect(empty.headers.vary).toBeUndefined();
    expect(empty.json()).toMatchObject({ items: [] });
  });

  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
  ])('codes a write\'s answer, which has nothing to assemble, brotli first when the client weighs both alike (%s: %s)', async (header, expected) => {
    const answer = await cached.app.inject({
      method: 'POST',
      url: `/v1/products/${cached.fixtures.product_id}/benefits`,
      headers: { authorization: `Bearer ${cached.tokens.admin}`, 'accept-encoding': header },
      payload: { benefits: [cached.fixtures.benefit_id] },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.rawPayload.length).toBeGreaterThan(0);
    expect(answer.headers['content-encoding']).toBe(expected);
    expect(JSON.parse(decode(expected, answer.rawPayload))).toMatchObject({ id: cached.fixtures.product_id, benefits: [{ id: cached.fixtures.benefit_id }] });
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

  it.each<[Record<string, string>]>([[{}], [{ 'accept-encoding': 'gzip' }], [{ 'accept-encoding': 'br, gzip' }], [{ 'accept-encoding': 'gzip, deflate, br' }]])('answers a kept list with the status, headers and JSON Fastify wrote the first time (%o)', async (headers) => {
    const { built, origin } = await listening({ rateLimit: false });
    const first = await get(origin, built.credentials.admin, '/v1/subscriptions/?limit=100', headers);
    const kept = await get(origin, built.credentials.admin, '/v1/subscriptions/?limit=100', headers);
    const again = await get(origin, built.credentials.admin, '/v1/subscriptions/?limit=100', headers);
    expect(first.status).toBe(200);
    // Made for the first request: gzip preferred (assembled from its items); kept and asked again: brotli preferred, coded whole once.
    const firstCoding = first.headers['content-encoding'] as 'br' | 'gzip' | undefined;
    const keptCoding = kept.headers['content-encoding'] as 'br' | 'gzip' | undefined;
    expect(firstCoding).toBe(preferredCoding(headers['accept-encoding']));
    expect(keptCoding).toBe(preferredCoding(headers['accept-encoding'], 'kept'));
    const { 'content-length': _first, 'content-encoding': _firstCoding, ...firstHeaders } = first.headers;
    const { 'content-length': keptLength, 'content-encoding': _keptCoding, ...keptHeaders } = kept.headers;
    expect(keptHeaders).toEqual(firstHeaders);
    expect(Number(keptLength)).toBe(kept.body.length);
    expect(decode(keptCoding, kept.body)).toBe(decode(firstCoding, first.body));
    if (firstCoding === undefined) expect(kept.body.equals(first.body)).toBe(true);
    else expect(kept.body.length).toBeLessThan(first.body.length);
    expect(again.body.equals(kept.body)).toBe(true);
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
