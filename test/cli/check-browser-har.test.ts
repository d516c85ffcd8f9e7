// `conformance check` of a HAR a real browser wrote: headless Chromium, driven by Playwright with
// `recordHar`, opens a small app page on the reference's own origin (its document, script,
// stylesheet and image served by `page.route`, so that the browser takes them for same-origin
// resources and the HAR records them) whose script makes the ordinary calls of a dashboard with
// the demo admin token: a page walk of the products, a sorted and a filtered list, a subscription
// read, a missing id (404), an anonymous call (401) and a call of version 2026-10. Judged from the
// file: exit 0 and no failed cell on the clean reference, the page's own requests listed as not API
// traffic; the same page against the reference with the fault `missing_field` fails that fault's
// check, `response_schema_conformance` of products:list.
// Chromium: test/support/chromium.ts (the npm package's, or Debian's; never a downloaded one).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkHar, type CheckHarOutcome } from '../../cli/check.js';
import { startReferenceServer, type RunningReference } from '../../server/index.js';
import { chromiumToRun } from '../support/chromium.js';

/** The app's own files, served on the reference's origin by the browser's router, never by the reference. */
const APP_FILES = ['/', '/app.js', '/style.css', '/logo.png'];
const MISSING = '00000000-0000-4000-8000-000000000000';
// A 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const PAGE = '<!doctype html><html><head><title>Billing dashboard</title><link rel="stylesheet" href="/style.css"><script src="/app.js" defer></script></head><body><img src="/logo.png" alt="logo"><main id="calls"></main></body></html>';

/**
 * The app's script: the calls a dashboard makes with `fetch`, one after another; when done, the
 * path and status of each as JSON in `document.body.dataset.calls` (or the error in `dataset.error`).
 */
function appScript(config: { token: string; subscriptionId: string }): string {
  return `(async () => {
  const config = ${JSON.stringify(config)};
  const admin = { authorization: 'Bearer ' + config.token, accept: 'application/json' };
  const calls = [];
  async function call(path, headers = admin) {
    const response = await fetch(path, { headers });
    const body = await response.json();
    calls.push({ path, status: response.status });
    return body;
  }
  try {
    // Every page of the products, 50 a page, and the page past the last.
    for (let page = 1, last = 1; page <= last + 1; page++) last = (await call('/v1/products/?limit=50&page=' + page)).pagination.max_page;
    await call('/v1/products/?sorting=-created_at&limit=20');
    await call('/v1/subscriptions/?status=active&limit=10');
    await call('/v1/subscriptions/' + config.subscriptionId);
    await call('/v1/products/${MISSING}');
    await call('/v1/products/?limit=5', { accept: 'application/json' });
    await call('/v1/products/?limit=5', { ...admin, 'polar-version': '2026-10' });
    document.body.dataset.calls = JSON.stringify(calls);
  } catch (error) {
    document.body.dataset.error = String(error);
  }
})();`;
}

let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cnf-browser-har-'));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** What the page's session came to: the calls its script made, the HAR's entries, and `conformance check` of the file. */
interface Session {
  calls: { path: string; status: number }[];
  entries: { request: { url: string }; _resourceType?: string }[];
  outcome: CheckHarOutcome;
  console: string;
}

/**
 * Opens the app page on `reference`'s origin in a browser of its own recording a HAR, waits for
 * its calls, closes the context (which writes the HAR) and judges the file with `checkHar`. A
 * browser per session: the packaged Chromium runs in one process (`--single-process`), which ends
 * with the first context's last page.
 */
async function session(reference: RunningReference, name: string): Promise<Session> {
  const har = join(dir, `${name}.har`);
  const browser = await chromium.launch({ ...(await chromiumToRun()), headless: true });
  const context = await browser.newContext({ recordHar: { path: har, content: 'embed' } });
  try {
    const page = await context.newPage();
    const script = appScript({ token: reference.credentials.admin, subscriptionId: reference.fixtures.subscription_id! });
    await page.route((url) => url.origin === reference.url && APP_FILES.includes(url.pathname), (route) => {
      const { pathname } = new URL(route.request().url());
      if (pathname === '/app.js') return route.fulfill({ contentType: 'text/javascript', body: script });
      if (pathname === '/style.css') return route.fulfill({ contentType: 'text/css', body: 'body { font-family: sans-serif; }' });
      if (pathname === '/logo.png') return route.fulfill({ contentType: 'image/png', body: PNG });
      return route.fulfill({ contentType: 'text/html; charset=utf-8', body: PAGE });
    });
    await page.goto(`${reference.url}/`);
    const body = page.locator('body[data-calls], body[data-error]');
    await body.waitFor({ state: 'attached', timeout: 20_000 });
    const error = await body.getAttribute('data-error');
    if (error !== null) throw new Error(`the page's script failed: ${error}`);
    const calls = JSON.parse((await body.getAttribute('data-calls'))!) as Session['calls'];
    await context.close();
    const entries = (JSON.parse(await readFile(har, 'utf8')) as { log: { entries: Session['entries'] } }).log.entries;
    const out = new PassThrough();
    let console = '';
    out.on('data', (chunk: Buffer) => (console += chunk.toString('utf8')));
    const outcome = await checkHar({ file: har, reporters: ['console'], out, env: {} });
    return { calls, entries, outcome, console };
  } finally {
    await context.close().catch(() => undefined);
    await browser.close();
  }
}

describe('conformance check of a HAR headless Chromium recorded through Playwright', () => {
  test('a page on the reference\'s origin making ordinary calls: exit 0, no failed cell, the page\'s own requests listed as not API traffic', async () => {
    const reference = await startReferenceServer({ host: '127.0.0.1', port: 0, seed: 7, control: false });
    try {
      const { calls, entries, outcome, console } = await session(reference, 'clean');
      // The script's calls, as the reference answered them.
      expect(calls.filter((c) => c.path.includes('&page=')).length).toBeGreaterThanOrEqual(2);
      expect(calls.slice(-6).map((c) => c.status)).toEqual([200, 200, 200, 404, 401, 200]);
      // The HAR holds the page's document, script, stylesheet and image, then every call.
      expect(entries.filter((e) => APP_FILES.includes(new URL(e.request.url).pathname)).map((e) => e._resourceType).sort()).toEqual(['document', 'image', 'script', 'stylesheet']);
      expect(entries).toHaveLength(APP_FILES.length + calls.length);
      expect(outcome.exchanges).toBe(entries.length);

      expect(outcome.exitCode).toBe(0);
      expect(outcome.results.cells.filter((c) => c.status === 'failed')).toEqual([]);
      expect(outcome.results.notApiTraffic).toMatchObject({ count: APP_FILES.length, byReason: { browser_resource: APP_FILES.length } });
      expect(outcome.results.notApiTraffic!.listed.map((e) => `${e.method} ${new URL(e.url).pathname}`).sort()).toEqual(APP_FILES.map((path) => `GET ${path}`).sort());
      expect(console).toMatch(/Not API traffic \(4 exchanges, not judged: 4 a browser's page, script, style, image or font\)/);
      expect(console).toContain(`GET ${reference.url}/ — a browser's document request (HAR _resourceType: document)`);

      // Every call was judged as the API's: the cells of what the page did passed.
      const status = (operationId: string, checkId: string) => outcome.results.cells.find((c) => c.operationId === operationId && c.checkId === checkId)?.status;
      expect(status('products:list', 'response_schema_conformance')).toBe('passed');
      expect(status('products:list', 'pages_disjoint_and_complete')).toBe('passed');
      expect(status('products:list', 'sorting_respected')).toBe('passed');
      expect(status('products:list', 'missing_auth_rejected')).toBe('passed');
      expect(status('products:list', 'timestamp_precision_of_version')).toBe('passed');
      expect(status('subscriptions:list', 'filter_respected')).toBe('passed');
      expect(status('subscriptions:get', 'response_schema_conformance')).toBe('passed');
      expect(status('products:get', 'status_code_conformance')).toBe('passed');
      const judged = outcome.results.cells.filter((c) => c.checkId === 'status_code_conformance').reduce((sum, c) => sum + c.cases, 0);
      expect(judged).toBe(calls.length);
    } finally {
      await reference.close();
    }
  }, 60_000);

  test('the same page against the reference with the fault missing_field: exit 1, response_schema_conformance of products:list failed', async () => {
    const reference = await startReferenceServer({ host: '127.0.0.1', port: 0, seed: 7, control: false, faults: ['missing_field'] });
    try {
      const { outcome } = await session(reference, 'missing-field');
      expect(outcome.exitCode).toBe(1);
      const failed = outcome.results.cells.filter((c) => c.status === 'failed');
      const schema = failed.find((c) => c.operationId === 'products:list' && c.checkId === 'response_schema_conformance');
      expect(schema?.failures.map((f) => f.kind)).toEqual(['schema_violation']);
      expect(schema?.failures[0]?.message).toMatch(/is_archived/);
      // Only the API's answers failed: nothing of the page's own requests.
      expect(failed.every((c) => !c.operationId.includes(' '))).toBe(true);
      expect(outcome.results.notApiTraffic?.count).toBe(APP_FILES.length);
    } finally {
      await reference.close();
    }
  }, 60_000);
});
