import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { MIN_CODED_BYTES, preferredCoding } from '../../server/content-coding.js';
import { ResponseCache } from '../../server/response-cache.js';
import { createStore } from '../../server/store.js';
import { testServer, type TestServer } from './support.js';

const decode = (coding: string | undefined, body: Buffer) => (coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body).toString();

describe('preferredCoding (RFC 9110 section 12.5.3)', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['deflate', undefined],
    ['identity', undefined],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['gzip;q=0, br;q=0', undefined],
    ['*', 'br'],
    ['zstd, *;q=0.1', 'br'],
  ])('%j: %s', (header, coding) => {
    expect(preferredCoding(header)).toBe(coding);
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

describe('the reference server codes JSON answers the request accepts', () => {
  let cached: TestServer;
  let uncached: TestServer;
  beforeAll(async () => {
    [cached, uncached] = await Promise.all([testServer(), testServer({ responseCache: false })]);
  });
  afterAll(async () => {
    await Promise.all([cached.app.close(), uncached.app.close()]);
  });

  it.each([
    ['br', 'gzip, deflate, br'],
    ['gzip', 'gzip, deflate'],
    [undefined, 'identity'],
    [undefined, undefined],
  ])('answers %s to Accept-Encoding %j, the same JSON with and without the response cache', async (coding, header) => {
    const headers: Record<string, string> = header === undefined ? {} : { 'accept-encoding': header };
    const plain = await uncached.get('/v1/subscriptions/', { limit: 100 });
    for (const server of [cached, uncached, cached]) {
      const response = await server.get('/v1/subscriptions/', { limit: 100 }, 'admin', headers);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(coding);
      expect(response.headers.vary).toBe('Accept-Encoding');
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      expect(decode(coding, response.rawPayload)).toBe(plain.body);
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
});

describe('preferredCoding on any header text', () => {
  it('never throws and answers br, gzip or nothing', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(fc.constantFrom('br', 'gzip', 'deflate', '*', 'identity', ';q=', '0', '1', '0.5', ',', ' ', ';', 'q', '=', 'x')).map((parts) => parts.join(''))), (header) => {
        expect([undefined, 'br', 'gzip']).toContain(preferredCoding(header));
      }),
      { seed: 20261122, numRuns: 2000 },
    );
  });
});
