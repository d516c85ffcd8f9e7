import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testServer, type TestServer } from './support.js';

const LISTS = [
  ['/v1/products/', { limit: 100, sorting: 'name' }, 'admin'],
  ['/v1/subscriptions/', { limit: 100, page: 2 }, 'admin'],
  ['/v1/refunds/', { limit: 100 }, 'admin'],
  ['/v1/files/', { limit: 100 }, 'admin'],
  ['/v1/webhooks/endpoints', { limit: 100 }, 'admin'],
  ['/v1/customer-portal/license-keys/', {}, 'customer_session'],
  ['/v1/products/', { limit: 100 }, 'other_org'],
] as const;

describe('the demo store kept between starts', () => {
  let dir: string;
  let previous: string | undefined;
  const started: TestServer[] = [];
  const start = async () => {
    const server = await testServer({ responseCache: false });
    started.push(server);
    return server;
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'demo-cache-test-'));
    previous = process.env.CONFORMANCE_CACHE_DIR;
    process.env.CONFORMANCE_CACHE_DIR = dir;
  });
  afterAll(async () => {
    await Promise.all(started.map((server) => server.app.close()));
    if (previous === undefined) delete process.env.CONFORMANCE_CACHE_DIR;
    else process.env.CONFORMANCE_CACHE_DIR = previous;
    await rm(dir, { recursive: true, force: true });
  });

  it('is written by a start that seeds, and gives the next start the same store, tokens and fixtures', async () => {
    const seeded = await start();
    const entries = (await readdir(dir)).filter((file) => file.startsWith('demo-1-'));
    expect(entries).toHaveLength(1);
    const restored = await start();
    expect(restored.tokens).toEqual(seeded.tokens);
    expect(restored.fixtures).toEqual(seeded.fixtures);
    expect(restored.store.idSequence).toBe(seeded.store.idSequence);
    for (const [url, query, as] of LISTS) {
      const [a, b] = await Promise.all([seeded.get(url, query, as), restored.get(url, query, as)]);
      expect(a.statusCode, url).toBe(200);
      expect(b.body, `${url} as ${as}`).toBe(a.body);
    }
  });

  it('is not shared: a change to one started store leaves the entry, and the next start, as seeded', async () => {
    const first = await start();
    const product = (await first.get('/v1/products/', { limit: 1 })).json().items[0];
    expect((await first.send('POST', `/v1/products/${product.id}/benefits`, { json: { benefits: [] } })).statusCode).toBe(200);
    const next = await start();
    const again = (await next.get('/v1/products/', { limit: 1 })).json().items[0];
    expect(again.id).toBe(product.id);
    expect(again.benefits).toEqual(product.benefits);
  });

  it('is ignored when it cannot be read: the start seeds instead', async () => {
    const [entry] = (await readdir(dir)).filter((file) => file.startsWith('demo-1-'));
    await writeFile(path.join(dir, entry!), 'not a snapshot');
    const reference = started[0]!;
    const fallback = await start();
    expect(fallback.tokens).toEqual(reference.tokens);
    const [a, b] = await Promise.all([reference.get('/v1/products/', { limit: 100 }), fallback.get('/v1/products/', { limit: 100 })]);
    expect(b.body).toBe(a.body);
  });
});

describe('a seed this process drew before (any seed, in memory)', () => {
  const started: TestServer[] = [];
  const start = async (seed: number) => {
    const server = await testServer({ seed, responseCache: false });
    started.push(server);
    return server;
  };
  afterAll(async () => {
    await Promise.all(started.map((server) => server.app.close()));
  });

  it('gives a second start of the seed the same store, tokens and fixtures, unchanged by what the first start was sent', async () => {
    const first = await start(20261122);
    const before = await Promise.all(LISTS.map(([url, query, as]) => first.get(url, query, as)));
    const idSequence = first.store.idSequence;
    const product = (await first.get('/v1/products/', { limit: 1 })).json().items[0];
    expect((await first.send('POST', `/v1/products/${product.id}/benefits`, { json: { benefits: [] } })).statusCode).toBe(200);
    const second = await start(20261122);
    expect(second.tokens).toEqual(first.tokens);
    expect(second.fixtures).toEqual(first.fixtures);
    expect(second.store.idSequence).toBe(idSequence);
    for (const [i, [url, query, as]] of LISTS.entries()) {
      const answer = await second.get(url, query, as);
      expect(answer.statusCode, url).toBe(200);
      expect(answer.body, `${url} as ${as}`).toBe(before[i]!.body);
    }
  });

  it('is kept per seed: another seed draws its own dataset', async () => {
    const [a, b] = [await start(20261123), await start(20261124)];
    expect(b.tokens).not.toEqual(a.tokens);
    const [pa, pb] = await Promise.all([a.get('/v1/products/', { limit: 100 }), b.get('/v1/products/', { limit: 100 })]);
    expect(pb.body).not.toBe(pa.body);
  });
});
