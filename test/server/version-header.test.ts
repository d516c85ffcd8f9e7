// The API version per request (docs/platform.md): Polar-Version selects 2026-04 or 2026-10 on each
// request of one server, no header takes the server's default, an unsupported value is answered
// 404 {"detail":"Not Found"} as the platform does, and every answer carries the header, answers
// written from the response cache included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestedVersion } from '../../server/app.js';
import { startReferenceServer, type RunningReference } from '../../server/index.js';
import { testServer, type TestServer } from './support.js';

const FRACTION = /\.\d+Z$/;

describe('requestedVersion', () => {
  it.each([
    [undefined, undefined],
    ['2026-04', '2026-04'],
    ['2026-10', '2026-10'],
    [' 2026-04 ', '2026-04'],
    ['2027-01', null],
    ['latest', null],
    ['', null],
    ['2026-04, 2026-10', null],
    [['2026-04', '2026-10'], null],
  ] as const)('%j → %j', (header, want) => {
    expect(requestedVersion(header as string | string[] | undefined)).toBe(want);
  });
});

describe('one server, both versions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer();
  });
  afterAll(async () => {
    await server.app.close();
  });

  it('answers each request in the version it asks for, and without a header in the server\'s default', async () => {
    const path = `/v1/products/${server.fixtures.product_id}`;
    const older = await server.get(path, {}, 'admin', { 'polar-version': '2026-04' });
    const newer = await server.get(path, {}, 'admin', { 'polar-version': '2026-10' });
    const none = await server.get(path);
    expect([older.headers['polar-version'], newer.headers['polar-version'], none.headers['polar-version']]).toEqual(['2026-04', '2026-10', '2026-10']);
    expect(older.json()).not.toHaveProperty('is_deletable');
    expect(older.json().created_at).not.toMatch(FRACTION);
    expect(newer.json()).toHaveProperty('is_deletable');
    expect(newer.json().created_at).toMatch(FRACTION);
    expect(none.json()).toEqual(newer.json());
  });

  it.each(['2027-01', 'latest', '2026-4'])('answers an unsupported version %s 404 {"detail":"Not Found"} on any API path', async (value) => {
    for (const path of ['/v1/products/', `/v1/orders/${server.fixtures.order_id}`, '/v1/nothing-here']) {
      const response = await server.get(path, {}, 'admin', { 'polar-version': value });
      expect(response.statusCode, path).toBe(404);
      expect(response.json(), path).toEqual({ detail: 'Not Found' });
      expect(response.headers['polar-version'], path).toBe('2026-10');
    }
  });

  it('puts the header on error answers too, in the version asked for', async () => {
    const unauthenticated = await server.get('/v1/products/', {}, null, { 'polar-version': '2026-04' });
    expect(unauthenticated.statusCode).toBe(401);
    expect(unauthenticated.headers['polar-version']).toBe('2026-04');
    const invalid = await server.get('/v1/products/', { limit: 0 }, 'admin', { 'polar-version': '2026-04' });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.headers['polar-version']).toBe('2026-04');
  });
});

describe('a server whose default is 2026-04 (serve --api-version 2026-04)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer({ apiVersion: '2026-04' });
  });
  afterAll(async () => {
    await server.app.close();
  });

  it('answers requests without the header in 2026-04 and requests with 2026-10 in 2026-10', async () => {
    const none = await server.get(`/v1/products/${server.fixtures.product_id}`);
    expect(none.headers['polar-version']).toBe('2026-04');
    expect(none.json()).not.toHaveProperty('is_deletable');
    const newer = await server.get(`/v1/products/${server.fixtures.product_id}`, {}, 'admin', { 'polar-version': '2026-10' });
    expect(newer.json()).toHaveProperty('is_deletable');
  });
});

describe('the response cache over a real socket', () => {
  let reference: RunningReference;
  beforeAll(async () => {
    reference = await startReferenceServer({ host: '127.0.0.1', port: 0, rateLimit: false, control: false });
  });
  afterAll(async () => {
    await reference.close();
  });

  it('keeps one answer per version, each with its header', async () => {
    const get = (version?: string) => fetch(`${reference.url}/v1/products/?limit=2`, { headers: { authorization: `Bearer ${reference.tokens.admin}`, ...(version ? { 'polar-version': version } : {}) } });
    for (let round = 0; round < 2; round++) {
      // The second round is answered from the cache.
      for (const [version, shown] of [[undefined, '2026-10'], ['2026-04', '2026-04'], ['2026-10', '2026-10']] as const) {
        const response = await get(version);
        expect(response.headers.get('polar-version'), `${round} ${version}`).toBe(shown);
        const [product] = ((await response.json()) as { items: Record<string, unknown>[] }).items;
        expect(Object.hasOwn(product!, 'is_deletable'), `${round} ${version}`).toBe(shown === '2026-10');
      }
    }
    const unsupported = await get('2027-01');
    expect(unsupported.status).toBe(404);
  });
});
