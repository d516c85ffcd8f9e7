import { beforeAll, describe, expect, it } from 'vitest';
import { expectConforms, ids, testServer, type TestServer } from '../../support.js';

let server: TestServer;
let customerId: string;

beforeAll(async () => {
  server = await testServer();
  customerId = server.fixtures.customer_id!;
});

describe('customer_portal:license_keys:list', () => {
  it.each(['customer_session', 'member_session'] as const)('shows a %s only its own customer\'s keys, with the key and its masked form', async (role) => {
    const { items, totalCount } = await server.all('/v1/customer-portal/license-keys/', {}, role);
    const own = server.store.licenseKeys.lookup('customer_id', customerId);
    expect(totalCount).toBe(own.length);
    expect(ids(items).sort()).toEqual(ids([...own]).sort());
    for (const item of items) {
      expect(item.customer_id).toBe(customerId);
      expect(item.customer.id).toBe(customerId);
      expect(item.display_key).toBe(`****-${item.key.slice(-6)}`);
    }
    expectConforms(server, 'customer_portal:license_keys:list', await server.get('/v1/customer-portal/license-keys/', {}, role));
  });

  it('never shows another customer\'s keys, though the organization has them', () => {
    const others = [...server.store.licenseKeys.inOrganization(server.fixtures.organization_id!)].filter((key) => key.customer_id !== customerId);
    expect(others.length).toBeGreaterThan(0);
  });

  it('filters by benefit_id; a benefit without keys gives an empty page', async () => {
    const [key] = server.store.licenseKeys.lookup('customer_id', customerId);
    const filtered = (await server.get('/v1/customer-portal/license-keys/', { benefit_id: key!.benefit_id }, 'customer_session')).json();
    expect(filtered.items.every((item: { benefit_id: string }) => item.benefit_id === key!.benefit_id)).toBe(true);
    expect(filtered.items.length).toBeGreaterThan(0);
    const other = server.store.benefits.inOrganization(server.fixtures.organization_id!).find((b) => b.type !== 'license_keys')!;
    expect((await server.get('/v1/customer-portal/license-keys/', { benefit_id: other.id }, 'customer_session')).json()).toEqual({ items: [], pagination: { total_count: 0, max_page: 0 } });
  });

  it('answers a benefit of another organization like a missing one (404)', async () => {
    const response = await server.get('/v1/customer-portal/license-keys/', { benefit_id: server.fixtures.other_organization_benefit_id! }, 'customer_session');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'ResourceNotFound', detail: `Benefit ${server.fixtures.other_organization_benefit_id} not found.` });
  });

  it('pages with limit', async () => {
    const response = await server.get('/v1/customer-portal/license-keys/', { limit: 1 }, 'customer_session');
    expect(response.json().items.length).toBeLessThanOrEqual(1);
  });
});

describe('customer_portal:orders:*', () => {
  const otherCustomersOrder = () => [...server.store.orders.inOrganization(server.fixtures.organization_id!)].find((o) => o.customer_id !== customerId && o.status === 'paid' && o.invoice_generated_at === null)!;

  it('acts on the session customer\'s own orders', async () => {
    const created = server.control.createOrder({ customer_id: customerId });
    const id = (created.ok ? created.value.id : '') as string;
    server.control.completeOrder(id);
    const updated = await server.send('PATCH', `/v1/customer-portal/orders/${id}`, { as: 'member_session', json: { billing_name: 'Member' } });
    expect(updated.statusCode).toBe(200);
    expectConforms(server, 'customer_portal:orders:update', updated);
    expect(updated.json().billing_name).toBe('Member');
    expect((await server.send('GET', `/v1/customer-portal/orders/${id}/invoice`, { as: 'customer_session' })).statusCode).toBe(404);
    expect((await server.send('POST', `/v1/customer-portal/orders/${id}/invoice`, { as: 'customer_session' })).statusCode).toBe(202);
    const invoice = await server.send('GET', `/v1/customer-portal/orders/${id}/invoice`, { as: 'customer_session' });
    expect(invoice.statusCode).toBe(200);
    expectConforms(server, 'customer_portal:orders:get_invoice', invoice);
    expect((await server.send('PATCH', `/v1/customer-portal/orders/${id}`, { as: 'customer_session', json: { billing_name: 'Late' } })).statusCode).toBe(422);
  });

  it.each<[string, 'GET' | 'POST' | 'PATCH', string]>([
    ['customer_portal:orders:update', 'PATCH', ''],
    ['customer_portal:orders:generate_invoice', 'POST', '/invoice'],
    ['customer_portal:orders:get_invoice', 'GET', '/invoice'],
  ])('%s answers another customer\'s order like a missing one and changes nothing', async (operationId, method, suffix) => {
    const order = otherCustomersOrder();
    const before = structuredClone(order);
    const response = await server.send(method, `/v1/customer-portal/orders/${order.id}${suffix}`, { as: 'customer_session', ...(method === 'PATCH' ? { json: { billing_name: 'Intruder' } } : {}) });
    expect(response.statusCode).toBe(404);
    expectConforms(server, operationId, response);
    expect(response.json()).toEqual({ error: 'ResourceNotFound', detail: `Order ${order.id} not found.` });
    expect(server.store.orders.get(order.id)).toEqual(before);
    const foreign = await server.send(method, `/v1/customer-portal/orders/${server.fixtures.other_order_id}${suffix}`, { as: 'customer_session', ...(method === 'PATCH' ? { json: {} } : {}) });
    expect(foreign.statusCode).toBe(404);
  });

  it('refuses organization tokens and answers them 403, not 404', async () => {
    const response = await server.send('POST', `/v1/customer-portal/orders/${server.fixtures.order_id}/invoice`, { as: 'admin' });
    expect(response.statusCode).toBe(403);
    expect(response.json().detail).toBe('This operation does not accept oat tokens; it accepts customer_session, member_session.');
  });
});
