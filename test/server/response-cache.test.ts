import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
