/**
 * Opens a rendered HTML report in a real Chromium (playwright-core, file:// URL) and checks what
 * a person sees in a 1400x900 viewport. The browser is the Chromium shipped inside the npm package
 * `@sparticuz/chromium` (a dev dependency: `npm ci` installs it, no system package needed), or
 * Debian's /usr/bin/chromium when that is present (test/support/chromium.ts, with the flags every
 * browser test launches it with). Never a downloaded browser. Without either this test
 * fails rather than skips, so a missing browser can never pass for a working report.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CellMeta } from '../../../core/types.js';
import { computeCoverage } from '../../../engine/coverage.js';
import { renderHtml } from '../../../reporters/html/report.js';
import { cell, failure, INFO, skipped } from '../fixtures/cells.js';
import { loadCoverageSpec } from '../fixtures/spec.js';
import { chromiumToRun } from '../../support/chromium.js';

const VIEWPORT = { width: 1400, height: 900 };
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
  cell('orders:update', 'response_schema_conformance', { status: 'not_applicable', skipReason: 'no JSON response body', cases: 0 }),
  // Many operations and checks, as a real run has, sorted after the ones above: the first failure
  // must still show without scrolling, and the matrix needs its sticky headers.
  ...Array.from({ length: 40 }, (_, row) => {
    const operationId = `zz_operation_number_${String(row).padStart(2, '0')}`;
    return Array.from({ length: 40 }, (_, column) => {
      const checkId = `generic_check_${String(column).padStart(2, '0')}`;
      return cell(operationId, checkId, row === 39 && column === 39 ? { failures: [failure({ operationId, checkId, title: 'Last failure' })] } : {});
    });
  }).flat(),
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
}, 60_000);

async function open(): Promise<void> {
  const spec = await loadCoverageSpec();
  dir = await mkdtemp(join(tmpdir(), 'cnf-html-browser-'));
  const file = join(dir, 'report.html');
  await writeFile(file, renderHtml({ cells: CELLS, errors: [] }, INFO, computeCoverage(spec, CELLS, 50)));
  url = pathToFileURL(file).href;

  browser = await chromium.launch({ ...(await chromiumToRun()), headless: true });
  const page = await browser.newPage({ viewport: VIEWPORT });
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
    expect(await page.getByRole('list', { name: 'Cells by outcome' }).innerText()).toMatch(/1603 ✓ passed\s+2 ✗ failed\s+0 ! errored\s+3 – skipped\s+1 · not applicable\s+0 ! harness errors/);
  });

  test('the first failure shows without scrolling in a 1400x900 viewport (screenshot)', async () => {
    const page = report();
    await page.evaluate('window.scrollTo(0, 0)');
    const first = page.locator('article.failure').first();
    expect(await first.getByRole('heading').first().innerText()).toBe('status_code_conformance — Undocumented HTTP status code');
    const box = await first.boundingBox();
    expect(box).not.toBeNull();
    // Its heading, message and reproducer are all above the fold.
    const curl = await first.locator('pre.curl').boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    await page.screenshot({ path: SCREENSHOT });
    expect(curl!.y + curl!.height).toBeLessThanOrEqual(VIEWPORT.height);
    console.log(`HTML report screenshot (1400x900, not scrolled): ${SCREENSHOT}`);
    expect(existsSync(SCREENSHOT)).toBe(true);
  });

  test('failures are grouped by operation', async () => {
    const page = report();
    const groups = page.locator('#failures section.operation-group > h3');
    expect(await groups.allInnerTexts()).toEqual(['products:list 1 distinct failure, 1 occurrence', 'zz_operation_number_39 1 distinct failure, 1 occurrence']);
  });

  test('the matrix has operations as row headers and checks as column headers', async () => {
    const page = report();
    const matrix = page.getByRole('table', { name: 'Outcome of each check on each operation' });
    const columns = await matrix.getByRole('columnheader').allInnerTexts();
    expect(columns.slice(0, 4)).toEqual(['Operation', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance']);
    expect(columns).toHaveLength(44);
    expect((await matrix.getByRole('rowheader').allInnerTexts()).slice(0, 3)).toEqual(['orders:update', 'products:list', 'webhooks:list_endpoints']);
    const row = matrix.getByRole('row', { name: /^webhooks:list_endpoints/ });
    // The symbol for the eye, then the words a screen reader says (visually hidden, not colour alone).
    expect((await row.getByRole('cell').allInnerTexts()).slice(0, 3)).toEqual(['✓\npassed', '✓\npassed', '–\nskipped: needs role other_org']);
    const orders = matrix.getByRole('row', { name: /^orders:update/ });
    expect((await orders.getByRole('cell').allInnerTexts())[2]).toBe('·\nnot applicable: no JSON response body');
  });

  test('row and column headers stay in view when the matrix scrolls', async () => {
    const page = report();
    const box = page.locator('.matrix-box');
    await box.evaluate((element) => element.scrollTo(element.scrollWidth, element.scrollHeight));
    const container = (await box.boundingBox())!;
    const rowHeader = (await page.getByRole('rowheader', { name: 'zz_operation_number_39' }).boundingBox())!;
    const columnHeader = (await page.getByRole('columnheader', { name: 'generic_check_39' }).boundingBox())!;
    // Scrolled to the bottom right, the operation column is still at the box's left edge and the check row at its top.
    expect(Math.abs(rowHeader.x - container.x)).toBeLessThan(3);
    expect(Math.abs(columnHeader.y - container.y)).toBeLessThan(3);
    await box.evaluate((element) => element.scrollTo(0, 0));
  });

  test('a failed cell links to its failure, which scrolls into view', async () => {
    const page = report();
    const link = page.getByRole('table', { name: 'Outcome of each check on each operation' }).getByRole('row', { name: /^products:list/ }).getByRole('link', { name: /failed/ });
    await link.click();
    expect(new URL(page.url()).hash).toBe('#failure-1');
    const target = page.locator(':target');
    expect(await target.getByRole('heading').first().innerText()).toBe('status_code_conformance — Undocumented HTTP status code');
    const box = await target.boundingBox();
    expect(box && box.y >= 0 && box.y < VIEWPORT.height).toBe(true);
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

  test('the filter hides failures and matrix rows that do not match, and shows them again', async () => {
    const page = report();
    await page.locator('#filter-operation').fill('zz_operation_number_39');
    await expect.poll(() => page.locator('article.failure:visible').evaluateAll((all) => all.map((a) => a.getAttribute('id')))).toEqual(['failure-2']);
    expect(await page.locator('.matrix tbody tr:not(.hidden-by-filter)').count()).toBe(1);
    await page.locator('#filter-operation').fill('');
    await page.locator('#filter-check').selectOption('status_code_conformance');
    await expect.poll(() => page.locator('article.failure:visible').evaluateAll((all) => all.map((a) => a.getAttribute('id')))).toEqual(['failure-1']);
    await page.locator('#filter-check').selectOption('');
    await page.locator('#filter-status').selectOption('skipped');
    expect(await page.locator('.matrix tbody tr:not(.hidden-by-filter) th').allInnerTexts()).toEqual(['orders:update', 'webhooks:list_endpoints']);
    expect(await page.locator('#filter-count').innerText()).toBe('2 operations, 0 failures shown');
    await page.locator('#filter-status').selectOption('');
    expect(await page.locator('.matrix tbody tr.hidden-by-filter').count()).toBe(0);
    expect(await page.locator('article.failure:visible').count()).toBe(2);
  });

  test('the coverage totals are shown; skipped and not-applicable cells are collapsed until opened', async () => {
    const page = report();
    const totals = page.getByRole('table', { name: 'Coverage totals' });
    expect(await totals.getByRole('row', { name: /^Operations exercised/ }).innerText()).toMatch(/^Operations exercised\s+2\/3\s+66\.6%\s+✓ meets 50%$/);
    expect(await totals.getByRole('row', { name: /^Status codes observed/ }).innerText()).toMatch(/^Status codes observed\s+3\/7\s+42\.8%\s+✗ below 50%$/);
    expect(await totals.getByRole('row', { name: /^Parameters sent/ }).innerText()).toMatch(/^Parameters sent\s+2\/5\s+40\.0%\s+✗ below 50%$/);
    const skippedSection = page.locator('#skipped');
    const reason = skippedSection.getByText('unsafe method: valid cases belong to the stateful suites');
    expect(await reason.isVisible()).toBe(false);
    await skippedSection.locator('summary').click();
    expect(await reason.isVisible()).toBe(true);
    expect(await skippedSection.innerText()).toContain('webhooks:list_endpoints: response_schema_conformance');
    const notApplicable = page.locator('#not-applicable');
    expect(await notApplicable.getByText('no JSON response body').isVisible()).toBe(false);
    await notApplicable.locator('summary').click();
    expect(await notApplicable.getByText('no JSON response body').isVisible()).toBe(true);
  });

  test('loads nothing but itself and reports no error', async () => {
    const page = report();
    expect([...new Set(requests)]).toEqual([url]);
    expect(problems).toEqual([]);
  });
});
