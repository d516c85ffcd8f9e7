// `conformance diff --har`: a session recorded by the proxy, replayed in order to a reference with
// the same demo data, agrees exchange for exchange (ids and timestamps normalized, the ids a write
// handed out carried into later requests); replayed to a reference with a fault, the operations the
// fault changes differ, per operation (exit 1). A browser's session: the page's own requests are set
// aside, never replayed.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runProxy } from '../../../cli/proxy.js';
import { diffHar } from '../../../cli/diff/har.js';
import { startReferenceServer, type RunningReference } from '../../../server/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'conformance-diff-har-'));
const har = path.join(dir, 'session.har');
let printed = '';
const out = () => new Writable({ write: (chunk, _encoding, done) => { printed += String(chunk); done(); } });
let faulty: RunningReference;

beforeAll(async () => {
  const recorded = await startReferenceServer({ host: '127.0.0.1', port: 0, seed: 1, rateLimit: false, control: false });
  faulty = await startReferenceServer({ host: '127.0.0.1', port: 0, seed: 1, rateLimit: false, control: false, faults: ['total_count_off_by_one'] });
  try {
    // The recording is the proxy's own: redacted, the admin token named by its variable.
    const command = await runProxy({ target: recorded.url, reporters: [], record: har, env: { CONFORMANCE_ADMIN_TOKEN: recorded.tokens.admin } });
    const headers = { authorization: `Bearer ${recorded.tokens.admin}`, 'polar-version': '2026-10', 'content-type': 'application/json' };
    const send = (method: string, url: string, body?: unknown) => fetch(`${command.proxy.url}${url}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) }).then((r) => r.text());
    await send('GET', '/v1/products/?limit=5');
    await send('GET', `/v1/products/${recorded.fixtures.product_id}`);
    await send('GET', '/v1/refunds/?limit=3');
    const created = JSON.parse(await send('POST', '/v1/files/', { name: 'a.png', mime_type: 'image/png', size: 10, service: 'product_media', upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 9 }] } })) as { id: string };
    expect(created.id).toBeTypeOf('string');
    // The file the write made is in the list read after it, on both sides.
    await send('GET', '/v1/files/?limit=100');
    await command.stop();
  } finally {
    await recorded.close();
  }
});

afterAll(async () => {
  await faulty.close();
});

describe('conformance diff --har', () => {
  test('against a reference with the same demo data: every exchange the same, exit 0', async () => {
    printed = '';
    const outcome = await diffHar({ har, out: out() });
    expect(outcome.operations.map((o) => [o.operationId, o.exchanges, o.same])).toEqual([
      ['products:list', 1, 1],
      ['products:get', 1, 1],
      ['refunds:list', 1, 1],
      ['files:create', 1, 1],
      ['files:list', 1, 1],
    ]);
    expect(outcome.exitCode).toBe(0);
    expect(printed).toMatch(/5 of 5 exchanges the same over 5 operations\n/);
  }, 60_000);

  test('against a reference with total_count_off_by_one: the lists differ in their counts, exit 1', async () => {
    printed = '';
    const outcome = await diffHar({ har, target: faulty.url, env: { CONFORMANCE_ADMIN_TOKEN: faulty.tokens.admin }, out: out() });
    expect(outcome.exitCode).toBe(1);
    const lists = outcome.operations.filter((o) => o.same < o.exchanges).map((o) => o.operationId);
    expect(lists).toEqual(expect.arrayContaining(['products:list', 'refunds:list']));
    expect(outcome.operations.find((o) => o.operationId === 'products:get')?.same).toBe(1);
    expect(outcome.operations.find((o) => o.operationId === 'products:list')?.differences.map((d) => d.where)).toContain('GET /v1/products/ body.pagination.total_count');
    expect(printed).toMatch(/products:list\s+0\/1 the same, 1 differ/);
  }, 60_000);

  test('a browser\'s session: the page\'s document and a script of another origin are set aside, not replayed; the API calls are', async () => {
    type Entry = { request: { method: string; url: string; headers: { name: string; value: string }[] }; response: { status: number; headers: { name: string; value: string }[]; content: Record<string, unknown> } };
    const recorded = JSON.parse(readFileSync(har, 'utf8')) as { log: { entries: Entry[] } };
    const first = recorded.log.entries[0]!;
    const origin = new URL(first.request.url).origin;
    const page = (url: string, dest: string, mimeType: string): Entry => ({
      ...first,
      request: { ...first.request, method: 'GET', url, headers: [{ name: 'accept', value: 'text/html,*/*' }, { name: 'sec-fetch-dest', value: dest }] },
      response: { ...first.response, status: 200, headers: [{ name: 'content-type', value: mimeType }], content: { size: 13, mimeType, text: '<html></html>' } },
    });
    recorded.log.entries = [page(`${origin}/dashboard`, 'document', 'text/html'), page('https://cdn.example.com/app.js', 'script', 'text/javascript'), ...recorded.log.entries];
    const browser = path.join(dir, 'browser.har');
    writeFileSync(browser, JSON.stringify(recorded));
    printed = '';
    const outcome = await diffHar({ har: browser, out: out() });
    expect(outcome.operations.map((o) => o.operationId)).toEqual(['products:list', 'products:get', 'refunds:list', 'files:create', 'files:list']);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.notApiTraffic.count).toBe(2);
    expect(outcome.notApiTraffic.listed.map((e) => [e.exchange, e.url])).toEqual([[1, `${origin}/dashboard`], [2, 'https://cdn.example.com/app.js']]);
    expect(printed).toMatch(/Not API traffic, not replayed \(2 exchanges/);
    expect(printed).toMatch(/5 of 5 exchanges the same over 5 operations\n/);
  }, 60_000);
});
