/**
 * Opens a rendered HTML report in Debian's Chromium (playwright-core, file:// URL) and checks what
 * a person sees. Chromium must be at /usr/bin/chromium (CI installs it in .ci/run): without it this
 * test fails rather than skips, so a missing browser can never pass for a working report.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CellMeta } from '../../harness/types.js';
import { computeCoverage } from '../../reporters/coverage.js';
import { renderHtml } from '../../reporters/html.js';
import { cell, failure, INFO, skipped } from './fixtures/cells.js';
import { loadCoverageSpec } from './fixtures/spec.js';

const CHROMIUM = '/usr/bin/chromium';
// The background-networking flags keep Chromium from calling home, which a closed network refuses.
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SCREENSHOT = join(tmpdir(), 'cnf-html-report.png');

const MESSAGE = 'The target answered <script>alert(1)</script> in the body.';
const CURL = "curl -X GET 'http://127.0.0.1:4010/v1/products/?limit=101' -H \"Authorization: Bearer $CNF_ADMIN_TOKEN\"";
const CELLS: CellMeta[] = [
  cell('products:list', 'status_code_conformance', { failures: [failure({ message: MESSAGE })], observed: { statuses: [200, 401], parameters: ['query:limit', 'query:page'] } }),
  cell('products:list', 'content_type_conformance', { observed: { statuses: [200], parameters: ['query:limit'] } }),
  cell('products:list', 'response_schema_conformance', { observed: { statuses: [200], parameters: [] } }),
  cell('webhooks:list_endpoints', 'status_code_conformance', { observed: { statuses: [200], parameters: [] } }),
  cell('webhooks:list_endpoints', 'content_type_conformance', { observed: { statuses: [200], parameters: [] } }),
  skipped('orders:update', 'status_code_conformance', 'unsafe method: valid cases belong to the stateful suites'),
  skipped('orders:update', 'content_type_conformance', 'unsafe method: valid cases belong to the stateful suites'),
  skipped('webhooks:list_endpoints', 'response_schema_conformance', 'needs role other_org'),
];

let browser: Browser | undefined;
let opened: Page | undefined;
// Set when the browser could not be opened: every test then fails with it (a hook error alone
// would list the tests as skipped, which reads like a pass in a summary).
let setupError: Error | undefined;
let dir = '';
let url = '';
const dialogs: string[] = [];
const requests: string[] = [];
const problems: string[] = [];

/** The opened report, or the reason it could not be opened. */
function report(): Page {
  if (setupError) throw setupError;
  if (!opened) throw new Error('the report was not opened');
  return opened;
}

beforeAll(async () => {
  try {
    await open();
  } catch (error) {
    setupError = error instanceof Error ? error : new Error(String(error));
  }
}, 20_000);

async function open(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: install Debian's package (apt-get install -y chromium; .ci/run does it). The HTML report's browser test does not skip without it.`);
  }
  const spec = await loadCoverageSpec();
  dir = await mkdtemp(join(tmpdir(), 'cnf-html-browser-'));
  const file = join(dir, 'report.html');
  await writeFile(file, renderHtml({ cells: CELLS, errors: [] }, INFO, computeCoverage(spec, CELLS, 50)));
  url = pathToFileURL(file).href;

  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  // A Content-Security-Policy violation (a blocked script or fetch) is reported as a console error.
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  await page.goto(url);
  opened = page;
}

afterAll(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the HTML report in Chromium', () => {
  test('shows the verdict and the counts', async () => {
    const page = report();
    await expect(page.locator('#verdict').innerText()).resolves.toMatch(/^✗\s+Not conformant$/);
    expect(await page.title()).toBe('Not conformant — Conformance run — http://127.0.0.1:4010');
    expect(await page.getByRole('list', { name: 'Cells by outcome' }).innerText()).toMatch(/4 ✓ passed\s+1 ✗ failed\s+3 – skipped\s+0 ! harness errors/);
  });

  test('the matrix has operations as row headers and checks as column headers', async () => {
    const page = report();
    const matrix = page.getByRole('table', { name: 'Outcome of each check on each operation' });
    expect(await matrix.getByRole('columnheader').allInnerTexts()).toEqual(['Operation', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance']);
    expect(await matrix.getByRole('rowheader').allInnerTexts()).toEqual(['orders:update', 'products:list', 'webhooks:list_endpoints']);
    const row = matrix.getByRole('row', { name: /^webhooks:list_endpoints/ });
    // The symbol for the eye, then the words a screen reader says (visually hidden, not colour alone).
    expect(await row.getByRole('cell').allInnerTexts()).toEqual(['✓\npassed', '✓\npassed', '–\nskipped: needs role other_org']);
  });

  test('a failed cell links to its failure, which scrolls into view', async () => {
    const page = report();
    const link = page.getByRole('table', { name: 'Outcome of each check on each operation' }).getByRole('row', { name: /^products:list/ }).getByRole('link', { name: /failed/ });
    await link.click();
    expect(new URL(page.url()).hash).toBe('#failure-1');
    const target = page.locator(':target');
    expect(await target.getByRole('heading').first().innerText()).toBe('products:list — Undocumented HTTP status code');
    const box = await target.boundingBox();
    expect(box && box.y >= 0 && box.y < 900).toBe(true);
  });

  test('the failure shows the message as text, the reproducer and its copy button', async () => {
    const page = report();
    const failureBox = page.locator('#failure-1');
    expect(await failureBox.locator('.message').innerText()).toBe(MESSAGE);
    expect(dialogs).toEqual([]);
    expect(await page.locator('script').count()).toBe(1);
    expect(await failureBox.locator('pre.curl').innerText()).toBe(CURL);
    expect(await failureBox.innerText()).toContain('Seed 42 · replay path 0:1');
    // The button's script runs under the page's Content-Security-Policy (it answers either way).
    await failureBox.getByRole('button', { name: /Copy the curl command/ }).click();
    await expect.poll(() => failureBox.getByRole('status').innerText()).toMatch(/^(Copied|Selected: press Ctrl\+C)/);
  });

  test('the coverage totals and the skipped reasons are shown', async () => {
    const page = report();
    const totals = page.getByRole('table', { name: 'Coverage totals' });
    expect(await totals.getByRole('row', { name: /^Operations exercised/ }).innerText()).toMatch(/^Operations exercised\s+2\/3\s+66\.6%\s+✓ meets 50%$/);
    expect(await totals.getByRole('row', { name: /^Status codes observed/ }).innerText()).toMatch(/^Status codes observed\s+3\/7\s+42\.8%\s+✗ below 50%$/);
    expect(await totals.getByRole('row', { name: /^Parameters sent/ }).innerText()).toMatch(/^Parameters sent\s+2\/5\s+40\.0%\s+✗ below 50%$/);
    const skippedSection = page.locator('#skipped');
    expect(await skippedSection.innerText()).toContain('unsafe method: valid cases belong to the stateful suites (2 cells)');
    expect(await skippedSection.innerText()).toContain('webhooks:list_endpoints: response_schema_conformance');
  });

  test('loads nothing but itself and reports no error', async () => {
    const page = report();
    expect([...new Set(requests)]).toEqual([url]);
    expect(problems).toEqual([]);
  });

  test('screenshot', async () => {
    const page = report();
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    console.log(`HTML report screenshot: ${SCREENSHOT}`);
    expect(existsSync(SCREENSHOT)).toBe(true);
  });
});
