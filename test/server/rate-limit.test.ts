import { afterAll, describe, expect, it } from 'vitest';
import { HarnessError } from '../../core/errors.js';
import { buildApp, type BuildAppOptions, type ReferenceApp } from '../../server/app.js';
import { isRateLimited, RATE_LIMIT_ERROR, resolveRateLimit } from '../../server/rate-limit.js';

const opened: ReferenceApp[] = [];

async function app(options: BuildAppOptions): Promise<ReferenceApp> {
  const built = await buildApp(options);
  opened.push(built);
  return built;
}

afterAll(async () => {
  await Promise.all(opened.map((built) => built.app.close()));
});

/** Sends `count` list requests from one address, as fast as inject allows, and returns the responses. */
async function burst(server: ReferenceApp, count: number, remoteAddress = '203.0.113.7', url = '/v1/products/?limit=1') {
  const responses = [];
  for (let i = 0; i < count; i++) {
    responses.push(await server.app.inject({ url, remoteAddress, headers: { authorization: `Bearer ${server.credentials.admin}` } }));
  }
  return responses;
}

describe('rate limit', () => {
  it('answers a burst of 150 requests within a second with 429, Retry-After and an error body (default 100 per second)', async () => {
    const server = await app({});
    expect(server.settings.rateLimit).toEqual({ max: 100, windowMs: 1000, allowList: [] });
    const responses = await burst(server, 150);
    const limited = responses.filter((r) => r.statusCode === 429);
    expect(limited.length).toBeGreaterThan(0);
    // Within one window the first 100 pass; a window boundary in the burst can only let more pass.
    expect(responses.slice(0, 100).filter((r) => r.statusCode === 429)).toEqual([]);
    const [first] = limited;
    expect(Number(first!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number.isInteger(Number(first!.headers['retry-after']))).toBe(true);
    expect(first!.headers['content-type']).toMatch(/^application\/json/);
    expect(first!.json()).toEqual({ error: RATE_LIMIT_ERROR, detail: expect.stringContaining('100 requests per second') });
  });

  it.each<[string, BuildAppOptions['rateLimit'], number]>([
    ['rateLimit: false, 150 requests', false, 150],
    ['the default limit, 60 requests', undefined, 60],
    ['a limit of 200, 150 requests', 200, 150],
  ])('never answers 429 with %s', async (_name, rateLimit, count) => {
    const server = await app(rateLimit === undefined ? {} : { rateLimit });
    const responses = await burst(server, count);
    expect(responses).toHaveLength(count);
    expect(responses.filter((r) => r.statusCode === 429)).toEqual([]);
  });

  it('counts per client address, with a fixed window whose length Retry-After tells', async () => {
    const server = await app({ rateLimit: { max: 3, windowMs: 60_000 } });
    const limited = (await burst(server, 5, '198.51.100.1')).map((r) => r.statusCode === 429);
    expect(limited).toEqual([false, false, false, true, true]);
    const [again] = await burst(server, 1, '198.51.100.1');
    expect(Number(again!.headers['retry-after'])).toBeGreaterThan(50);
    expect(again!.json().detail).toContain('3 requests per 60000 ms');
    expect((await burst(server, 1, '198.51.100.2'))[0]!.statusCode).not.toBe(429);
  });

  it('counts requests before authentication and to unknown paths, not the control API nor the upload, receipt and invoice URLs', async () => {
    const server = await app({ rateLimit: { max: 2, windowMs: 60_000 } });
    const address = '192.0.2.9';
    for (let i = 0; i < 5; i++) {
      expect((await server.app.inject({ method: 'POST', url: '/__control/clock/advance', remoteAddress: address, payload: { ms: 1 } })).statusCode).toBe(200);
      expect((await server.app.inject({ url: '/__receipts/nope.pdf', remoteAddress: address })).statusCode).not.toBe(429);
    }
    const statuses = [
      (await server.app.inject({ url: '/v1/products/', remoteAddress: address })).statusCode,
      (await server.app.inject({ url: '/nowhere', remoteAddress: address })).statusCode,
      (await server.app.inject({ url: '/v1/products/', remoteAddress: address })).statusCode,
    ];
    expect(statuses).toEqual([401, 404, 429]);
  });

  it('does not count the addresses of its allow-list (IPv4-mapped forms too), and counts the others', async () => {
    const server = await app({ rateLimit: { max: 2, windowMs: 60_000, allowList: ['127.0.0.1'] } });
    const limited = async (address: string) => (await burst(server, 4, address)).filter((r) => r.statusCode === 429).length;
    expect(await limited('127.0.0.1')).toBe(0);
    expect(await limited('::ffff:127.0.0.1')).toBe(0);
    expect(await limited('127.0.0.2')).toBe(2);
  });

  it('answers Retry-After as "<n> seconds" with the retry_after_malformed fault', async () => {
    const server = await app({ rateLimit: { max: 1, windowMs: 60_000 }, faults: ['retry_after_malformed'] });
    const [, refused] = await burst(server, 2, '198.51.100.3');
    expect(refused!.statusCode).toBe(429);
    expect(refused!.headers['retry-after']).toMatch(/^\d+ seconds$/);
  });

  it('is off with the rate_limit_ignored fault', async () => {
    const server = await app({ rateLimit: { max: 2, windowMs: 60_000 }, faults: ['rate_limit_ignored'] });
    expect((await burst(server, 10)).filter((r) => r.statusCode === 429)).toEqual([]);
  });
});

describe('resolveRateLimit', () => {
  it.each<[string, Parameters<typeof resolveRateLimit>[0], ReturnType<typeof resolveRateLimit>]>([
    ['the default', undefined, { max: 100, windowMs: 1000, allowList: [] }],
    ['a number per second', 20, { max: 20, windowMs: 1000, allowList: [] }],
    ['false', false, false],
    ['settings', { max: 3, windowMs: 500 }, { max: 3, windowMs: 500, allowList: [] }],
    ['settings with an allow-list', { max: 3, allowList: ['127.0.0.1', '::1'] }, { max: 3, windowMs: 1000, allowList: ['127.0.0.1', '::1'] }],
  ])('resolves %s', (_name, given, want) => {
    expect(resolveRateLimit(given)).toEqual(want);
  });

  it.each<[string, Parameters<typeof resolveRateLimit>[0]]>([
    ['zero', 0],
    ['a fraction', 1.5],
    ['a negative window', { max: 1, windowMs: -1 }],
    ['an allow-list entry that is not an IP address', { max: 1, allowList: ['localhost'] }],
  ])('refuses %s with CNF_ERR_CONFIG_INVALID', (_name, given) => {
    expect(() => resolveRateLimit(given)).toThrowError(HarnessError);
    expect(() => resolveRateLimit(given)).toThrowError(expect.objectContaining({ code: 'CNF_ERR_CONFIG_INVALID' }));
  });

  it.each<[string, boolean]>([
    ['/v1/products/', true],
    ['/.well-known/jwks.json', true],
    ['/__control/reset', false],
    ['/__uploads/a/1?signature=x', false],
  ])('isRateLimited(%s) is %s', (url, want) => {
    expect(isRateLimited(url)).toBe(want);
  });
});
