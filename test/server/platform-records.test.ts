// Every record the reference emits validates against the platform's schema of its version
// (spec/platform/<version>.json): the demo store walked through every read operation, and one answer
// of each operation that changes state, in both versions selected per request by Polar-Version.
// The walk also proves it saw what it claims to cover (all six price amount types, every benefit
// type, every file service, tax ids, seats, refunds with disputes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiVersion } from '../../core/spec/load.js';
import { platformSchemas, type PlatformIssue } from './platform-schemas.js';
import { testServer, type TestServer } from './support.js';

let server: TestServer;

beforeAll(async () => {
  server = await testServer({ demoData: 'full' }); // the full store: every price type of the description, unit_based and metered_tiers included
});

afterAll(async () => {
  await server.app.close();
});

/** What the walk saw, by kind, to prove coverage. */
interface Seen {
  amountTypes: Set<string>;
  benefitTypes: Set<string>;
  fileServices: Set<string>;
  taxIds: number;
  disputes: number;
  records: number;
}

/** Issues of one answer against the platform's schema of `operation` (`METHOD path template`) and its status code. */
function issuesOf(version: ApiVersion, operation: string, status: number, body: unknown): PlatformIssue[] {
  return platformSchemas(version).response(operation, status, body);
}

/** GET as a demo role in a version; asserts the answer carries the version. */
async function read(version: ApiVersion, url: string, as: 'admin' | 'customer_session' | 'member_session' = 'admin') {
  const response = await server.app.inject({ url, headers: { authorization: `Bearer ${server.tokens[as]}`, 'polar-version': version } });
  expect(response.headers['polar-version'], url).toBe(version);
  return response;
}

function note(seen: Seen, value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) note(seen, item);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const record = value as Record<string, unknown>;
  if (typeof record.amount_type === 'string' && typeof record.price_currency === 'string') seen.amountTypes.add(record.amount_type);
  if (typeof record.type === 'string' && typeof record.selectable === 'boolean') seen.benefitTypes.add(record.type);
  if (typeof record.service === 'string' && typeof record.mime_type === 'string') seen.fileServices.add(record.service);
  if (Array.isArray(record.tax_id)) seen.taxIds++;
  if (record.dispute && typeof record.dispute === 'object') seen.disputes++;
  for (const child of Object.values(record)) note(seen, child);
}

describe.each(['2026-04', '2026-10'] as const)('records of version %s', (version) => {
  const seen: Seen = { amountTypes: new Set(), benefitTypes: new Set(), fileServices: new Set(), taxIds: 0, disputes: 0, records: 0 };
  const problems: string[] = [];

  async function expectPlatform(operation: string, url: string, as: 'admin' | 'customer_session' | 'member_session' = 'admin'): Promise<unknown> {
    const response = await read(version, url, as);
    const body: unknown = response.body === '' ? undefined : response.json();
    for (const issue of issuesOf(version, operation, response.statusCode, body).slice(0, 3)) problems.push(`${url} ${response.statusCode} ${issue.at} ${issue.message}`);
    note(seen, body);
    seen.records++;
    return body;
  }

  async function walk(operation: string, path: string, as: 'admin' | 'customer_session' | 'member_session' = 'admin'): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    for (let page = 1; page < 100; page++) {
      const body = (await expectPlatform(operation, `${path}?limit=100&page=${page}`, as)) as { items: Record<string, unknown>[] };
      if (body.items.length === 0) break;
      items.push(...body.items);
    }
    return items;
  }

  it('every list page, every product, customer, subscription and order by id, and the portal\'s orders and receipts', async () => {
    const f = server.fixtures;
    const organization = f.organization_id!;
    const products = await walk('GET /v1/products/', '/v1/products/');
    await walk('GET /v1/subscriptions/', '/v1/subscriptions/');
    await walk('GET /v1/refunds/', '/v1/refunds/');
    await walk('GET /v1/files/', '/v1/files/');
    await walk('GET /v1/webhooks/endpoints', '/v1/webhooks/endpoints');
    await walk('GET /v1/customer-portal/license-keys/', '/v1/customer-portal/license-keys/', 'customer_session');
    await walk('GET /v1/customer-portal/license-keys/', '/v1/customer-portal/license-keys/', 'member_session');
    for (const customer of server.store.customers.inOrganization(organization)) {
      await expectPlatform('GET /v1/customers/{id}', `/v1/customers/${customer.id}`);
      await expectPlatform('GET /v1/customers/{id}/payment-methods', `/v1/customers/${customer.id}/payment-methods?limit=100`);
    }
    for (const product of products) await expectPlatform('GET /v1/products/{id}', `/v1/products/${String(product.id)}`);
    for (const subscription of server.store.subscriptions.inOrganization(organization)) await expectPlatform('GET /v1/subscriptions/{id}', `/v1/subscriptions/${subscription.id}`);
    for (const order of server.store.orders.inOrganization(organization)) {
      await expectPlatform('GET /v1/orders/{id}', `/v1/orders/${order.id}`);
      if (order.customer_id === f.customer_id) {
        await expectPlatform('GET /v1/customer-portal/orders/{id}', `/v1/customer-portal/orders/${order.id}`, 'customer_session');
        if (order.status === 'paid') await expectPlatform('GET /v1/customer-portal/orders/{id}/receipt', `/v1/customer-portal/orders/${order.id}/receipt`, 'customer_session');
      }
    }
    await expectPlatform('GET /v1/orders/{id}/receipt', `/v1/orders/${f.order_id}/receipt`);

    expect(problems.slice(0, 20)).toEqual([]);
    expect(seen.records).toBeGreaterThan(500);
    expect([...seen.amountTypes].sort()).toEqual(['custom', 'fixed', 'metered_tiers', 'metered_unit', 'seat_based', 'unit_based']);
    expect([...seen.benefitTypes].sort()).toEqual(['custom', 'discord', 'downloadables', 'feature_flag', 'github_repository', 'license_keys', 'meter_credit', 'slack_shared_channel']);
    expect([...seen.fileServices].sort()).toEqual(['downloadable', 'organization_avatar', 'product_media', 'support_case_attachment']);
    expect(seen.taxIds).toBeGreaterThan(0);
    expect(seen.disputes).toBeGreaterThan(0);
  }, 120_000);

  it('the answers of the operations that change state, and their documented error bodies', async () => {
    const f = server.fixtures;
    const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, options: { json?: unknown; form?: Record<string, string>; as?: 'admin' | 'customer_session' | null } = {}) =>
      server.send(method, url, { ...(options.json !== undefined ? { json: options.json } : {}), ...(options.form ? { form: options.form } : {}), as: options.as === undefined ? 'admin' : options.as, headers: { 'polar-version': version } });
    const expectValid = (operation: string, response: { statusCode: number; body: string; json: () => unknown }, status?: number) => {
      // POST /v1/files/ answers 200 where the platform says 201 (the description's table shows 200): the body is judged against the platform's 201 schema.
      const judged = status ?? response.statusCode;
      expect(issuesOf(version, operation, judged, response.body === '' ? undefined : response.json()), `${operation} ${response.statusCode}`).toEqual([]);
    };

    expectValid('POST /v1/products/{id}/benefits', await send('POST', `/v1/products/${f.product_id}/benefits`, { json: { benefits: [f.benefit_id] } }));
    expectValid('POST /v1/products/{id}/benefits', await send('POST', `/v1/products/${f.other_product_id}/benefits`, { json: { benefits: [] } }));
    for (const service of ['downloadable', 'product_media', 'organization_avatar', 'support_case_attachment']) {
      const created = await send('POST', '/v1/files/', { json: { name: `f.${service}`, mime_type: 'image/png', size: 10, service, upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 9 }] } } });
      expect(created.statusCode).toBe(200);
      expectValid('POST /v1/files/', created, 201);
    }
    const invitation = server.control.createSeatInvitation();
    if (!invitation.ok) throw new Error(invitation.error.message);
    expectValid('POST /v1/customer-seats/claim', await send('POST', '/v1/customer-seats/claim', { as: null, json: { invitation_token: invitation.value.invitation_token } }));

    const pending = server.control.createOrder();
    if (!pending.ok) throw new Error(pending.error.message);
    const notEligible = await send('POST', `/v1/orders/${String(pending.value.id)}/invoice`);
    expect(notEligible.statusCode).toBe(409);
    expectValid('POST /v1/orders/{id}/invoice', notEligible);
    const paid = server.control.createOrder();
    if (!paid.ok || !server.control.completeOrder(String(paid.value.id)).ok) throw new Error('cannot make a paid order');
    const id = String(paid.value.id);
    expectValid('PATCH /v1/orders/{id}', await send('PATCH', `/v1/orders/${id}`, { json: { billing_address: null } }));
    const missing = await send('POST', `/v1/customer-portal/orders/${id}/invoice`, { as: 'customer_session' });
    expect(missing.statusCode).toBe(422);
    expectValid('POST /v1/customer-portal/orders/{id}/invoice', missing);
    expectValid('PATCH /v1/customer-portal/orders/{id}', await send('PATCH', `/v1/customer-portal/orders/${id}`, { as: 'customer_session', json: { billing_address: { country: 'FR', line1: '1 rue de Rivoli', city: 'Paris', postal_code: '75001' } } }));
    const generated = await send('POST', `/v1/orders/${id}/invoice`);
    expect(generated.statusCode).toBe(202);
    expectValid('POST /v1/orders/{id}/invoice', generated);
    expectValid('GET /v1/orders/{id}/invoice', await read(version, `/v1/orders/${id}/invoice`));
    expectValid('GET /v1/customer-portal/orders/{id}/invoice', await read(version, `/v1/customer-portal/orders/${id}/invoice`, 'customer_session'));

    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [operation, url, as] of [
      ['GET /v1/orders/{id}', `/v1/orders/${unknown}`, 'admin'],
      ['GET /v1/products/{id}', `/v1/products/${f.other_product_id}`, 'admin'],
      ['GET /v1/customers/{id}', `/v1/customers/${unknown}`, 'admin'],
      ['GET /v1/subscriptions/{id}', `/v1/subscriptions/${f.other_subscription_id}`, 'admin'],
      ['GET /v1/customer-portal/orders/{id}', `/v1/customer-portal/orders/${f.other_order_id}`, 'customer_session'],
      ['GET /v1/customer-portal/orders/{id}/receipt', `/v1/customer-portal/orders/${unknown}/receipt`, 'customer_session'],
      ['GET /v1/orders/{id}', '/v1/orders/42', 'admin'],
    ] as const) {
      const response = await read(version, url, as);
      expect([404, 422], url).toContain(response.statusCode);
      expectValid(operation, response);
    }
    const unauthorized = await server.app.inject({ url: '/v1/customer-portal/license-keys/', headers: { 'polar-version': version } });
    expect(unauthorized.statusCode).toBe(401);
    expectValid('GET /v1/customer-portal/license-keys/', unauthorized);

    const deleted = await send('DELETE', `/v1/customers/external/${f.customer_external_id}`);
    expect(deleted.statusCode).toBe(204);
    expectValid('DELETE /v1/customers/external/{external_id}', deleted);
    server.control.reset();
  });
});

describe('the platform schemas reject what the reference used to answer', () => {
  it.each([
    ['an order item with an invented proration_type', 'OrderItemSchema', { created_at: '2026-01-01T00:00:00Z', modified_at: null, id: '5b0d3c1e-8f2a-4c6b-9d7e-1f2a3b4c5d6e', label: 'x', amount: 1, tax_amount: 0, proration_type: 'applied', product_price_id: null }],
    ['a tax id as a plain string', 'CustomerIndividual', { id: '5b0d3c1e-8f2a-4c6b-9d7e-1f2a3b4c5d6e', created_at: '2026-01-01T00:00:00Z', modified_at: null, metadata: {}, email: 'a@b.c', email_verified: true, type: 'individual', name: null, billing_name: null, billing_address: null, tax_id: 'DE123456789', organization_id: '5b0d3c1e-8f2a-4c6b-9d7e-1f2a3b4c5d6e', deleted_at: null, first_user_event_at: null, avatar_url: null }],
    ['a seat-based price without seat_tiers', 'ProductPriceSeatBased', { created_at: '2026-01-01T00:00:00Z', modified_at: null, id: '5b0d3c1e-8f2a-4c6b-9d7e-1f2a3b4c5d6e', source: 'catalog', amount_type: 'seat_based', price_currency: 'usd', tax_behavior: null, is_archived: false, product_id: '5b0d3c1e-8f2a-4c6b-9d7e-1f2a3b4c5d6e' }],
  ])('%s', (_name, schema, value) => {
    for (const version of ['2026-04', '2026-10'] as const) expect(platformSchemas(version).record(schema, value).length).toBeGreaterThan(0);
  });

  it('a 2026-04 product (no is_deletable) is not a 2026-10 product, and is a 2026-04 one', async () => {
    const product = (await read('2026-04', `/v1/products/${server.fixtures.product_id}`)).json();
    expect(product).not.toHaveProperty('is_deletable');
    expect(platformSchemas('2026-04').record('Product', product)).toEqual([]);
    expect(platformSchemas('2026-10').record('Product', product).map((i) => i.message).join()).toContain('is_deletable');
  });
});
