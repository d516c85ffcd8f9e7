/**
 * The dashboard in a real Chromium (playwright-core), against a reference loaded from a data file
 * with a webhook endpoint at a local receiver: a renewal driven from the page (a subscription
 * started on the test clock, the clock advanced a month) shows its new order and the order's
 * webhook delivery, with the attempt's time, status code, latency and the endpoint's answer, as
 * they happen; the page is used by keyboard, passes axe-core with no serious or critical
 * violation, loads nothing but its own files, and is photographed at 1400x900 after the renewal. The browser is the
 * Chromium of the npm package `@sparticuz/chromium`, or Debian's /usr/bin/chromium when present
 * (as test/reporters/html/html-browser.test.ts); never a downloaded one. Without either this test
 * fails rather than skips.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../../core/webhook-receiver.js';
import { startReferenceServer, type RunningReference } from '../../../server/index.js';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';
// The background-networking flags keep Chromium from calling home, which a closed network refuses.
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
// @sparticuz/chromium's build is meant for a container without a zygote process; its own flags
// minus the ones that weaken the page's security (web security, site isolation), which the
// Content-Security-Policy checks below rely on.
const PACKAGED_ARGS = ['--no-zygote', '--single-process', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', "--headless='shell'"];
const VIEWPORT = { width: 1400, height: 900 };
const SCREENSHOT = join(tmpdir(), 'cnf-dashboard.png');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The Chromium to run: Debian's when installed, else the one inside the npm package. */
async function chromiumToRun(): Promise<{ executablePath: string; args: string[] }> {
  if (existsSync(DEBIAN_CHROMIUM)) return { executablePath: DEBIAN_CHROMIUM, args: ARGS };
  const packaged = (await import('@sparticuz/chromium')).default;
  return { executablePath: await packaged.executablePath(), args: [...ARGS, ...PACKAGED_ARGS] };
}

const ADA = '7d1a5c9e-0000-4000-8000-00000000000a';

let receiver: WebhookReceiver | undefined;
let reference: RunningReference | undefined;
let browser: Browser | undefined;
let opened: Page | undefined;
// Set when the page could not be opened: every test then fails with it (a hook error alone would
// list the tests as skipped, which reads like a pass in a summary).
let setupError: Error | undefined;
const requests: string[] = [];
const problems: string[] = [];

function page(): Page {
  if (setupError) throw setupError;
  if (!opened) throw new Error('the dashboard was not opened');
  return opened;
}

beforeAll(async () => {
  try {
    // The app's endpoint answers as an app does: a 200 with a small JSON body naming the event.
    receiver = await startWebhookReceiver(0, { answer: (request) => ({ status: 200, body: { received: (JSON.parse(request.body) as { type: string }).type } }) });
    reference = await startReferenceServer({
      clock: () => new Date('2027-01-31T09:00:00Z'),
      rateLimit: false,
      data: {
        organizations: [
          {
            name: 'Acme Cloud',
            tokens: [{ token: 'polar_oat_acme_dashboard_test' }],
            benefits: [{ key: 'license', type: 'license_keys', description: 'Acme CLI license', properties: { prefix: 'ACME' } }],
            products: [
              { key: 'free', name: 'Free', recurring_interval: 'month' },
              { key: 'pro', name: 'Pro (monthly)', recurring_interval: 'month', benefits: ['license'] },
              { key: 'yearly', name: 'Pro (yearly)', recurring_interval: 'year', benefits: ['license'] },
            ],
            prices: [
              { product: 'free', amount_type: 'fixed', price_amount: 0 },
              { product: 'pro', amount_type: 'fixed', price_amount: 1900 },
              { product: 'yearly', amount_type: 'fixed', price_amount: 19000 },
            ],
            customers: [
              { key: 'ada', id: ADA, email: 'ada@example.com', name: 'Ada Lovelace', external_id: 'user_1001' },
              { key: 'grace', email: 'grace@example.com', name: 'Grace Hopper', external_id: 'user_1002', created_at: '-P120D' },
            ],
            subscriptions: [{ key: 'grace-yearly', customer: 'grace', product: 'yearly', started_at: '-P4M' }],
            orders: [{ customer: 'grace', product: 'yearly', subscription: 'grace-yearly', billing_reason: 'subscription_create', created_at: '-P4M' }],
            license_keys: [{ customer: 'grace', benefit: 'license' }],
            webhook_endpoints: [{ url: receiver.urlFor('billing'), events: ['order.created', 'order.paid', 'subscription.created', 'subscription.cycled'], secret: 'whsec_QWNtZSBkZXZlbG9wbWVudCB3ZWJob29rIHNlY3JldCE=' }],
          },
        ],
      },
    });
    browser = await chromium.launch({ ...(await chromiumToRun()), headless: true });
    const tab = await browser.newPage({ viewport: VIEWPORT });
    tab.on('request', (request) => requests.push(new URL(request.url()).origin));
    tab.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    // A Content-Security-Policy violation (a blocked script, style or fetch) is a console error.
    tab.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
    });
    await tab.goto(`${reference.url}/__dashboard/`);
    await tab.getByRole('status').filter({ hasText: 'Live' }).waitFor({ timeout: 10_000 });
    opened = tab;
  } catch (error) {
    setupError = error instanceof Error ? error : new Error(String(error));
  }
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await reference?.close();
  await receiver?.close();
});

describe('the dashboard in Chromium', () => {
  test('shows the data file\'s records by kind, with their counts', async () => {
    const dashboard = page();
    expect(await dashboard.title()).toBe('Dashboard · Billing API reference server');
    const tabs = dashboard.getByRole('tablist', { name: 'Records by kind' }).getByRole('tab');
    expect(await tabs.allInnerTexts()).toEqual(['Subscriptions\n1', 'Orders\n1', 'Products\n3', 'Customers\n2', 'Refunds\n0', 'License keys\n1', 'Seats\n0', 'Endpoints\n1']);
    const row = dashboard.getByRole('tabpanel').getByRole('row', { name: /grace@example\.com/ });
    expect(await row.innerText()).toMatch(/Pro \(yearly\)\s+\$190\.00\s+active/);
    await dashboard.getByRole('tab', { name: /Products/ }).click();
    expect(await dashboard.getByRole('tabpanel').getByRole('row').allInnerTexts()).toEqual([
      expect.stringMatching(/^Product\s+Billing/i),
      expect.stringMatching(/^Pro \(yearly\)[\s\S]*yearly\s+\$190\.00\s+Acme CLI license/),
      expect.stringMatching(/^Pro \(monthly\)[\s\S]*monthly\s+\$19\.00\s+Acme CLI license/),
      expect.stringMatching(/^Free[\s\S]*monthly\s+free/),
    ]);
  });

  test('drives a renewal: a subscription started on the test clock, the clock advanced a month; the order and its delivery appear live', async () => {
    const dashboard = page();
    // Start a subscription of Ada to the monthly plan, from the form.
    await dashboard.getByLabel('Customer', { exact: true }).selectOption({ label: 'Ada Lovelace <ada@example.com>' });
    await dashboard.getByLabel('Product', { exact: true }).selectOption({ label: 'Pro (monthly)' });
    await dashboard.getByRole('button', { name: 'Start' }).click();
    await expect.poll(() => dashboard.getByRole('status').filter({ hasText: /^Subscription / }).count()).toBe(1);
    await dashboard.getByRole('tab', { name: /Subscriptions/ }).click();
    const ada = dashboard.getByRole('tabpanel').getByRole('row', { name: /ada@example\.com/ });
    await expect.poll(() => ada.innerText()).toMatch(/Pro \(monthly\)\s+\$19\.00\s+active\s+31 Jan 2027, 09:00 → 28 Feb 2027, 09:00/);
    // Its first order was delivered to the app's endpoint: order.created and order.paid.
    await expect.poll(() => dashboard.locator('#deliveries .delivery').count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    const before = await dashboard.locator('#deliveries .delivery').count();

    // A month later: the renewal, its order and the order's delivery, without reloading the page.
    await dashboard.getByRole('button', { name: '+1 month' }).click();
    await expect.poll(() => dashboard.locator('#clock-now').innerText()).toBe('28 Feb 2027, 09:00:00 UTC');
    await expect.poll(() => ada.innerText()).toMatch(/active\s+28 Feb 2027, 09:00 → 31 Mar 2027, 09:00/);
    await expect.poll(() => dashboard.locator('#deliveries .delivery').count(), { timeout: 10_000 }).toBe(before + 3);
    const paid = dashboard.locator('#deliveries .delivery').first();
    const cycled = dashboard.locator('#deliveries .delivery').nth(2);
    expect(await cycled.locator('.event-type').innerText()).toBe('subscription.cycled');
    expect(await paid.locator('.event-type').innerText()).toBe('order.paid');
    // The attempt: its time (the test clock's), status code, latency and the endpoint's answer.
    expect(await paid.innerText()).toMatch(/^HTTP 200\s+order\.paid\s+Resend\s+28 Feb 2027, 09:00:00\s+attempt 1\s+(<1|\d+) ms\s+http:\/\/127\.0\.0\.1:\d+\/hooks\/billing\s+Answer\s+\{"received":"order\.paid"\}$/i);
    const delivered = JSON.parse(receiver!.receivedBy('billing').at(-1)!.body) as { type: string; data: { billing_reason: string } };
    expect(delivered).toMatchObject({ type: 'order.paid', data: { billing_reason: 'subscription_cycle' } });

    await dashboard.getByRole('tab', { name: /Orders/ }).click();
    const orders = dashboard.getByRole('tabpanel').getByRole('row');
    expect(await orders.nth(1).innerText()).toMatch(/28 Feb 2027, 09:00\s+ada@example\.com\s+Pro \(monthly\)\s+subscription cycle\s+paid\s+\$22\.80/);
    expect(await orders.count()).toBe(4);

    // The subscription's status history, read from the event log.
    await dashboard.getByRole('tab', { name: /Subscriptions/ }).click();
    // The moment to show: the renewal, its order and its deliveries, live.
    await dashboard.evaluate('window.scrollTo(0, 0)');
    await dashboard.screenshot({ path: SCREENSHOT });
    console.log(`Dashboard screenshot (1400x900, not scrolled, after a renewal driven from the page): ${SCREENSHOT}`);
    expect(existsSync(SCREENSHOT)).toBe(true);
    await ada.getByText('4 changes').click();
    expect((await ada.locator('ol.history li').allInnerTexts()).map((line) => line.replace(/\s+/g, ' '))).toEqual([
      '31 Jan 2027, 09:00 active created',
      '31 Jan 2027, 09:00 active active',
      '28 Feb 2027, 09:00 active updated',
      '28 Feb 2027, 09:00 active cycled',
    ]);
  });

  test('resends a delivery: one more attempt, logged with its answer', async () => {
    const dashboard = page();
    const count = await dashboard.locator('#deliveries .delivery').count();
    const received = receiver!.received.length;
    await dashboard.locator('#deliveries .delivery').first().getByRole('button', { name: /^Resend order\.paid, attempt 1/ }).click();
    await expect.poll(() => dashboard.locator('#deliveries .delivery').count(), { timeout: 10_000 }).toBe(count + 1);
    expect(await dashboard.locator('#deliveries .delivery').first().innerText()).toMatch(/^HTTP 200\s+order\.paid\s+Resend\s+[^\n]+\s+attempt 2\s/);
    expect(receiver!.received.length).toBe(received + 1);
  });

  test('marks a subscription\'s payments to fail, and can be used by keyboard alone', async () => {
    const dashboard = page();
    // The tabs: arrow keys move between them, as the ARIA tabs pattern has it.
    await dashboard.getByRole('tab', { name: /Subscriptions/ }).focus();
    await dashboard.keyboard.press('ArrowRight');
    expect(await dashboard.locator(':focus').innerText()).toMatch(/^Orders/);
    expect(await dashboard.getByRole('tab', { name: /Orders/ }).getAttribute('aria-selected')).toBe('true');
    await dashboard.keyboard.press('End');
    expect(await dashboard.getByRole('tab', { name: /Endpoints/ }).getAttribute('aria-selected')).toBe('true');
    await dashboard.keyboard.press('Home');
    // Tab into the panel, then to Ada's "Fail payments" button, and press it with Enter.
    const fail = dashboard.getByRole('button', { name: /^Fail payments of ada@example\.com's Pro \(monthly\)/ });
    // Asked of the document, not of a located element: a live re-render may replace the element between the two.
    const focused = async () => /^Fail payments of ada@example\.com/.test(String(await dashboard.evaluate("document.activeElement && document.activeElement.getAttribute('aria-label')")));
    for (let i = 0; i < 12 && !(await focused()); i++) await dashboard.keyboard.press('Tab');
    expect(await focused()).toBe(true);
    await dashboard.keyboard.press('Enter');
    await expect.poll(() => fail.getAttribute('aria-pressed')).toBe('true');
    // Focus stays on the button through the live re-renders.
    await expect.poll(focused).toBe(true);
    // A day, by keyboard: shift-tab back to the clock's first button.
    await dashboard.getByRole('button', { name: '+1 day' }).focus();
    await dashboard.keyboard.press('Enter');
    await expect.poll(() => dashboard.locator('#clock-now').innerText()).toBe('1 Mar 2027, 09:00:00 UTC');
    // Every control is reachable: each focusable element shows a focus ring.
    expect(await dashboard.evaluate("getComputedStyle(document.querySelector('#advance-day')).outlineStyle")).toBe('solid');
  });

  test('advances to a chosen instant, and says why not when it is in the past', async () => {
    const dashboard = page();
    await dashboard.getByLabel('Advance to (UTC)').fill('2027-03-02T12:30:00');
    await dashboard.getByRole('button', { name: 'Advance', exact: true }).click();
    await expect.poll(() => dashboard.locator('#clock-now').innerText()).toBe('2 Mar 2027, 12:30:00 UTC');
    await dashboard.getByLabel('Advance to (UTC)').fill('2027-01-01T00:00:00');
    await dashboard.getByRole('button', { name: 'Advance', exact: true }).click();
    await expect.poll(() => dashboard.locator('#message').innerText()).toMatch(/^The clock only moves forward: 2027-01-01T00:00:00Z is before now/);
    // The refusal's 422 is the one error the browser logged; the page said it in its message line.
    const refused = problems.findIndex((problem) => /status of 422/.test(problem));
    expect(refused).toBeGreaterThanOrEqual(0);
    problems.splice(refused, 1);
  });

  test.each(['subscriptions', 'orders', 'products', 'customers', 'license_keys', 'webhook_endpoints'])('has no serious or critical accessibility violation (axe-core) with the %s tab open', async (kind) => {
    const dashboard = page();
    await dashboard.locator(`#tab-${kind}`).click();
    // axe runs in the page through the DevTools protocol, which the page's CSP does not govern.
    if (!(await dashboard.evaluate('typeof axe !== "undefined"'))) await dashboard.evaluate(AXE_SOURCE);
    const results = (await dashboard.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
    const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(', ')}`);
    expect(serious).toEqual([]);
  });

  test('resets the store to the data it started with', async () => {
    const dashboard = page();
    await dashboard.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => dashboard.locator('#clock-now').innerText()).toBe('31 Jan 2027, 09:00:00 UTC');
    await expect.poll(() => dashboard.getByRole('tab', { name: /Subscriptions/ }).innerText()).toBe('Subscriptions\n1');
    expect(await dashboard.locator('#deliveries .delivery').count()).toBe(0);
  });

  test('loads nothing but its own files, and reports no error (the CSP held)', () => {
    page();
    expect([...new Set(requests)]).toEqual([reference!.url]);
    expect(problems).toEqual([]);
  });
});
