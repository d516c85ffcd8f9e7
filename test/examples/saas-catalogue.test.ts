// examples/saas-catalogue.yaml, the documented example data file: it loads, the app's token and
// ids work, every answer conforms to the document, and its monthly subscription renews on the
// test clock three days after the file is loaded (its `current_period_end: +P3D`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectConforms, testServer, type TestServer } from '../server/support.js';

const TOKEN = 'polar_oat_acme_development_0123456789';
const ADA_PRO = '5b2f6a0e-3c1d-4e8a-9f10-2a6b7c8d9e41';
const DAY = 86_400_000;

let server: TestServer;

beforeAll(async () => {
  server = await testServer({ data: 'examples/saas-catalogue.yaml', clock: () => new Date('2027-05-10T08:00:00Z') });
});

afterAll(async () => {
  await server.app.close();
});

const get = (path: string, query: Record<string, string | number> = {}, token = TOKEN) => server.get(path, query, null, { authorization: `Bearer ${token}` });

describe('examples/saas-catalogue.yaml', () => {
  it('holds the free tier and the two plans, with their prices and the license-key benefit, for the app\'s token', async () => {
    const products = await get('/v1/products/', { sorting: 'name' });
    expectConforms(server, 'products:list', products);
    const items = products.json().items as { id: string; name: string; prices: { price_amount?: number }[]; benefits: { type: string }[] }[];
    expect(items.map((p) => [p.name, p.prices.map((price) => price.price_amount), p.benefits.map((b) => b.type)])).toEqual([
      ['Free', [0], []],
      ['Pro (monthly)', [1900], ['license_keys']],
      ['Pro (yearly)', [19000], ['license_keys']],
    ]);
    expect(items.map((p) => p.id)).toEqual(['5b2f6a0e-3c1d-4e8a-9f10-2a6b7c8d9e10', '5b2f6a0e-3c1d-4e8a-9f10-2a6b7c8d9e11', '5b2f6a0e-3c1d-4e8a-9f10-2a6b7c8d9e12']);
  });

  it('the reporting token reads and does not write', async () => {
    expect((await get('/v1/subscriptions/', {}, 'polar_oat_acme_reporting_0123456789')).statusCode).toBe(200);
    expect((await get('/v1/webhooks/endpoints', {}, 'polar_oat_acme_reporting_0123456789')).statusCode).toBe(403);
  });

  it('every subscription, order and license key conforms to the document', async () => {
    const subscriptions = await get('/v1/subscriptions/');
    expectConforms(server, 'subscriptions:list', subscriptions);
    expect(subscriptions.json().items).toHaveLength(2);
    const orders = [...server.store.orders.all()];
    expect(orders.map((order) => order.status)).toEqual(['paid', 'paid', 'paid']);
    for (const order of orders) expectConforms(server, 'orders:get', await get(`/v1/orders/${order.id}`));
    const endpoints = await get('/v1/webhooks/endpoints');
    expectConforms(server, 'webhooks:list_endpoints', endpoints);
    expect(endpoints.json().items[0]).toMatchObject({ url: 'http://127.0.0.1:3000/webhooks/billing' });
    expectConforms(server, 'customers:get', await get('/v1/customers/5b2f6a0e-3c1d-4e8a-9f10-2a6b7c8d9e31'));
    // Ada's license key is the one the file gives; Grace's one is made from the benefit's prefix.
    expect([...server.store.licenseKeys.all()].map((key) => key.key)).toEqual(['ACME-ADA-0001-DEV', expect.stringMatching(/^ACME-[0-9A-F]{8}-/)]);
  });

  it('Ada\'s monthly subscription renews three days later, with a paid subscription_cycle order', async () => {
    const before = server.store.subscriptions.get(ADA_PRO)!;
    expect(before.current_period_end).toBe('2027-05-13T08:00:00.000000Z');
    const advanced = server.control.advanceClock(3 * DAY);
    expect(advanced.ok).toBe(true);
    const renewed = (await get(`/v1/subscriptions/${ADA_PRO}`)).json();
    expect(renewed).toMatchObject({ status: 'active', current_period_start: '2027-05-13T08:00:00.000000Z', current_period_end: '2027-06-13T08:00:00.000000Z' });
    const orders = [...server.store.orders.all()].filter((order) => order.subscription_id === ADA_PRO);
    expect(orders.map((order) => [order.billing_reason, order.status])).toEqual([['subscription_create', 'paid'], ['subscription_cycle', 'paid'], ['subscription_cycle', 'paid']]);
    expect(server.control.events().map((event) => event.type)).toEqual(['subscription.updated', 'subscription.cycled', 'order.created', 'order.updated', 'order.paid']);
  });
});
