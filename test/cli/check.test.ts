// `conformance check FILE.har`: recorded traffic judged offline. Bad input is one CNF_ERR_* line and
// exit 2, never a stack trace; a HAR of another API has every request reported as
// `undocumented_operation` (exit 1); a recording of conformant answers finds nothing (exit 0); a
// browser's recording has its page's own requests and calls to other origins set aside as not API
// traffic, never failed.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { checkHar } from '../../cli/check.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'conformance-check-'));

async function conformance(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CONFORMANCE_')));
  return promisify(execFile)(process.execPath, ['bin/conformance.js', ...args], { cwd: ROOT, env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

function file(name: string, text: string): string {
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
}

/** A HAR 1.2 entry with a JSON answer. */
function entry(method: string, url: string, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  return {
    startedDateTime: '2026-11-27T00:00:00.000Z',
    time: 3,
    request: { method, url, httpVersion: 'HTTP/1.1', headers: Object.entries(headers).map(([name, value]) => ({ name, value })), queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
    response: { status, statusText: '', httpVersion: 'HTTP/1.1', headers: [{ name: 'Content-Type', value: 'application/json' }, { name: 'Content-Length', value: String(Buffer.byteLength(text)) }], cookies: [], content: { size: text.length, mimeType: 'application/json', text }, redirectURL: '', headersSize: -1, bodySize: text.length },
    cache: {},
    timings: { send: 0, wait: 3, receive: 0 },
  };
}

const har = (entries: unknown[]) => JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } });
const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at |node_modules|vitest/);

describe('conformance check: bad input', () => {
  test.each([
    ['a truncated HAR', () => file('truncated.har', har([entry('GET', 'https://api.example.com/v1/products/', 200, {})]).slice(0, 120)), /is not JSON, or is cut short/],
    ['text that is not JSON', () => file('text.har', 'GET /v1/products/ 200\n'), /is not JSON, or is cut short/],
    ['JSON without a log', () => file('nolog.har', '{"entries":[]}'), /no "log" object/],
    ['an entry without a URL', () => file('nourl.har', JSON.stringify({ log: { entries: [{ request: { method: 'GET' }, response: { status: 200 } }] } })), /log\.entries\[0\]\.request has no method or url/],
    ['a file that does not exist', () => path.join(dir, 'missing.har'), /cannot be read \(ENOENT\)/],
  ])('%s: CNF_ERR_HAR_INVALID, exit 2', async (_name, make, why) => {
    const { code, stdout, stderr } = await conformance('check', make());
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^conformance: error CNF_ERR_HAR_INVALID: /);
    expect(stderr).toMatch(why);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    noStack(stderr);
  });

  test('a HAR of another API: every request is undocumented_operation, exit 1', async () => {
    const other = file('github.har', har([
      entry('GET', 'https://api.github.com/repos/octo/hello', 200, { id: 1 }),
      entry('POST', 'https://api.github.com/repos/octo/hello/issues', 201, { number: 7 }),
      entry('GET', 'https://api.github.com/users/octo', 200, { login: 'octo' }),
    ]));
    const { code, stdout, stderr } = await conformance('check', other, '--reporter', 'console', '--output-dir', path.join(dir, 'github'));
    expect(code).toBe(1);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/undocumented_operation/);
    const outcome = await checkHar({ file: other, reporters: [], env: {} });
    const failed = outcome.results.cells.filter((c) => c.status === 'failed');
    expect(failed.map((c) => [c.operationId, c.checkId, c.failures.map((f) => f.kind)])).toEqual([
      ['GET /repos/octo/hello', 'operation_documented', ['undocumented_operation']],
      ['POST /repos/octo/hello/issues', 'operation_documented', ['undocumented_operation']],
      ['GET /users/octo', 'operation_documented', ['undocumented_operation']],
    ]);
    // Nothing of the document was observed: its cells are not observed, never passed.
    expect(outcome.results.cells.filter((c) => c.status === 'passed')).toEqual([]);
    expect(outcome.results.cells.filter((c) => c.status === 'skipped').every((c) => c.skipReason?.startsWith('not observed'))).toBe(true);
  });
});

describe('conformance check: judging', () => {
  const pagination = { total_count: 1, max_page: 1 };

  test('a documented 401 error body passes; an undocumented status code is a finding of its check', async () => {
    const recorded = file('mixed.har', har([
      entry('GET', 'https://api.example.com/v1/products/', 401, { error: 'Unauthorized', detail: 'no token' }, { 'polar-version': '2026-10' }),
      entry('GET', 'https://api.example.com/v1/files/', 418, { items: [], pagination }, { authorization: 'Bearer secret-token-1', 'polar-version': '2026-10' }),
    ]));
    const outcome = await checkHar({ file: recorded, reporters: [], env: {} });
    expect(outcome.exitCode).toBe(1);
    const failed = outcome.results.cells.filter((c) => c.status === 'failed');
    expect(failed.map((c) => `${c.operationId} ${c.checkId}`)).toContain('files:list status_code_conformance');
    expect(failed.map((c) => `${c.operationId} ${c.checkId}`)).not.toContain('products:list missing_auth_rejected');
    const statusFailure = failed.find((c) => c.checkId === 'status_code_conformance')!.failures[0]!;
    // The reproducer names the token by a variable, never prints it.
    expect(statusFailure.reproduce.curl).toContain('"authorization: Bearer ${CONFORMANCE_TOKEN_1}"');
    expect(statusFailure.reproduce.curl).not.toContain('secret-token-1');
    expect(outcome.results.cells.find((c) => c.operationId === 'products:list' && c.checkId === 'missing_auth_rejected')?.status).toBe('passed');
  });

  test('pages of one list walked by one client: an item on two pages is pages_overlap', async () => {
    const headers = { authorization: 'Bearer t', 'polar-version': '2026-10' };
    const page = (n: number, ids: string[]) => ({ items: ids.map((id) => ({ id })), pagination: { total_count: 4, max_page: 2 }, n });
    const recorded = file('walk.har', har([
      entry('GET', 'https://api.example.com/v1/refunds/?limit=2&page=1', 200, page(1, ['a', 'b']), headers),
      entry('GET', 'https://api.example.com/v1/refunds/?limit=2&page=2', 200, page(2, ['b', 'c']), headers),
    ]));
    const outcome = await checkHar({ file: recorded, reporters: [], env: {}, apiVersion: '2026-10' });
    const walk = outcome.results.cells.find((c) => c.operationId === 'refunds:list' && c.checkId === 'pages_disjoint_and_complete');
    expect(walk?.status).toBe('failed');
    expect(walk?.failures.map((f) => f.kind)).toContain('pages_overlap');
  });

  test('a write between two pages ends the walk: no overlap is judged across it', async () => {
    const headers = { authorization: 'Bearer t', 'polar-version': '2026-10' };
    const recorded = file('walk-write.har', har([
      entry('GET', 'https://api.example.com/v1/refunds/?limit=2&page=1', 200, { items: [{ id: 'a' }, { id: 'b' }], pagination: { total_count: 4, max_page: 2 } }, headers),
      entry('DELETE', 'https://api.example.com/v1/customers/external/x', 204, {}, headers),
      entry('GET', 'https://api.example.com/v1/refunds/?limit=2&page=2', 200, { items: [{ id: 'b' }, { id: 'c' }], pagination: { total_count: 4, max_page: 2 } }, headers),
    ]));
    const outcome = await checkHar({ file: recorded, reporters: [], env: {}, apiVersion: '2026-10' });
    const walk = outcome.results.cells.find((c) => c.operationId === 'refunds:list' && c.checkId === 'pages_disjoint_and_complete');
    expect(walk?.status).toBe('skipped');
    expect(walk?.skipReason).toMatch(/^not observed/);
  });
});

describe('conformance check: traffic that is not the API\'s', () => {
  const API = 'https://api.example.com';
  const products = { items: [], pagination: { total_count: 0, max_page: 0 } };
  const call = { authorization: 'Bearer t', 'polar-version': '2026-10', accept: 'application/json', 'sec-fetch-dest': 'empty' };
  /** A page's own request: its answer is a page or a static file. */
  function own(url: string, destination: string, contentType: string) {
    const recorded = entry('GET', url, 200, {}, { 'sec-fetch-dest': destination });
    recorded.response.headers = [{ name: 'Content-Type', value: contentType }];
    recorded.response.content = { size: 0, mimeType: contentType, text: '' };
    return recorded;
  }
  const browserHar = (extra: unknown[] = []) => har([
    own('https://app.example.com/', 'document', 'text/html'),
    own('https://app.example.com/app.js', 'script', 'text/javascript'),
    own('https://app.example.com/style.css', 'style', 'text/css'),
    own('https://app.example.com/logo.png', 'image', 'image/png'),
    entry('GET', 'https://app.example.com/api/session', 200, { user: 'me' }, { accept: 'application/json', 'sec-fetch-dest': 'empty' }),
    entry('GET', `${API}/v1/products/?limit=5`, 200, products, call),
    ...extra,
  ]);

  test('a browser\'s page on another origin than the API: its requests are listed as not API traffic, the API\'s judged, exit 0', async () => {
    const recorded = file('browser.har', browserHar());
    const { code, stdout } = await conformance('check', recorded, '--reporter', 'console', '--output-dir', path.join(dir, 'browser'));
    expect(code).toBe(0);
    expect(stdout).toMatch(/Not API traffic \(5 exchanges, not judged: 5 another origin than the API's\)/);
    expect(stdout).toContain('#1 GET https://app.example.com/ — another origin than the API\'s (https://api.example.com)');
    const outcome = await checkHar({ file: recorded, reporters: [], env: {} });
    expect(outcome.exchanges).toBe(6);
    expect(outcome.results.cells.filter((c) => c.status === 'failed')).toEqual([]);
    expect(outcome.results.cells.find((c) => c.operationId === 'products:list' && c.checkId === 'response_schema_conformance')?.status).toBe('passed');
    expect(outcome.results.notApiTraffic?.listed.map((e) => e.url)).toEqual(['https://app.example.com/', 'https://app.example.com/app.js', 'https://app.example.com/style.css', 'https://app.example.com/logo.png', 'https://app.example.com/api/session']);
  });

  test('a call of the API that matches no operation stays undocumented_operation, exit 1', async () => {
    const recorded = file('browser-unknown.har', browserHar([entry('GET', `${API}/v1/unknown`, 404, { detail: 'Not Found' }, call)]));
    const outcome = await checkHar({ file: recorded, reporters: [], env: {} });
    expect(outcome.exitCode).toBe(1);
    expect(outcome.results.cells.filter((c) => c.status === 'failed').map((c) => [c.operationId, c.failures[0]?.kind])).toEqual([['GET /v1/unknown', 'undocumented_operation']]);
  });

  test('--base-url names the API\'s origin and base path: a request elsewhere is not API traffic, even on a path of an operation', async () => {
    const recorded = file('base-url.har', har([
      entry('GET', 'https://sandbox.example.com/api/v1/products/', 200, products, call),
      entry('GET', 'https://other.example.com/v1/customers/cus_1', 200, { id: 'cus_1' }, call),
    ]));
    const outcome = await checkHar({ file: recorded, reporters: [], env: {}, baseUrl: 'https://sandbox.example.com/api' });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.results.cells.find((c) => c.operationId === 'products:list' && c.checkId === 'response_schema_conformance')?.status).toBe('passed');
    expect(outcome.results.notApiTraffic).toMatchObject({ count: 1, byReason: { other_origin: 1 } });
    // Without it, every origin where a request matches an operation is the API's: the other service's customer is judged, and fails.
    expect((await checkHar({ file: recorded, reporters: [], env: {} })).exitCode).toBe(1);
  });

  test('a --base-url that is not an http(s) URL: CNF_ERR_CONFIG_INVALID, exit 2', async () => {
    const { code, stderr } = await conformance('check', file('any.har', har([])), '--base-url', 'ftp://example.com');
    expect(code).toBe(2);
    expect(stderr).toMatch(/^conformance: error CNF_ERR_CONFIG_INVALID: --base-url must be an http or https URL, not ftp:/);
    noStack(stderr);
  });
});
