import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CustomerRecord } from '../../../../server/records.js';
import { expectConforms, ids, testServer, type TestServer } from '../../support.js';

const NOW = '2026-06-01T12:00:00.000000Z';
let server: TestServer;

beforeAll(async () => {
  server = await testServer({ clock: () => new Date('2026-06-01T12:00:00Z') });
});

beforeEach(() => {
  server.control.reset();
});

describe('customers:list_payment_methods', () => {
  it('lists the customer\'s payment methods, its default one flagged', async () => {
    const customer = server.store.customers.get(server.fixtures.customer_id!)!;
    const { items, totalCount } = await server.all(`/v1/customers/${customer.id}/payment-methods`);
    const stored = server.store.paymentMethods.lookup('customer_id', customer.id);
    expect(totalCount).toBe(stored.length);
    expect(ids(items).sort()).toEqual(ids([...stored]).sort());
    for (const item of items) expect(item.is_default).toBe(item.id === customer.default_payment_method_id);
    expectConforms(server, 'customers:list_payment_methods', await server.get(`/v1/customers/${customer.id}/payment-methods`));
  });

  it('answers an empty page for a customer without payment methods', async () => {
    const without = [...server.store.customers.inOrganization(server.fixtures.organization_id!)].find((c) => server.store.paymentMethods.lookup('customer_id', c.id).length === 0)!;
    const response = await server.get(`/v1/customers/${without.id}/payment-methods`);
    expect(response.json()).toEqual({ items: [], pagination: { total_count: 0, max_page: 0 } });
  });

  it('pages with limit', async () => {
    const id = server.fixtures.customer_id!;
    const count = server.store.paymentMethods.lookup('customer_id', id).length;
    const response = await server.get(`/v1/customers/${id}/payment-methods`, { limit: 1 });
    expect(response.json().items).toHaveLength(1);
    expect(response.json().pagination).toEqual({ total_count: count, max_page: count });
  });

  it('answers another organization\'s customer like a missing one, and an upper-case id like its lower-case one', async () => {
    const foreign = await server.get(`/v1/customers/${server.fixtures.other_customer_id}/payment-methods`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'ResourceNotFound', detail: `Customer ${server.fixtures.other_customer_id} not found.` });
    expect((await server.get(`/v1/customers/${server.fixtures.customer_id}/payment-methods`, {}, 'other_org')).statusCode).toBe(404);
    expect((await server.get(`/v1/customers/${server.fixtures.customer_id!.toUpperCase()}/payment-methods`)).statusCode).toBe(200);
  });
});

describe('customers:delete_external', () => {
  let customer: CustomerRecord;
  beforeEach(() => {
    customer = server.store.customers.lookup('external_id', server.fixtures.customer_external_id!)[0]!;
  });
  const remove = (query: Record<string, string | boolean> = {}, as: 'admin' | 'other_org' = 'admin') =>
    server.send('DELETE', `/v1/customers/external/${server.fixtures.customer_external_id}`, { query, as });

  it('cancels every subscription that has not ended immediately, revokes seats and license keys, and emits the events', async () => {
    const subscriptions = server.store.subscriptions.lookup('customer_id', customer.id);
    const live = subscriptions.filter((s) => s.status !== 'canceled' && s.status !== 'incomplete_expired').map((s) => s.id);
    const ended = subscriptions.filter((s) => !live.includes(s.id)).map((s) => structuredClone(s));
    expect(live.length).toBeGreaterThan(0);
    const granted = server.store.licenseKeys.lookup('customer_id', customer.id).filter((k) => k.status === 'granted').map((k) => k.id);

    const response = await remove();
    // 204 without a body, as the platform answers (docs/platform.md).
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expectConforms(server, 'customers:delete_external', response);
    expect(server.store.customers.get(customer.id)).toMatchObject({ deleted_at: NOW, email: customer.email, external_id: server.fixtures.customer_external_id });

    for (const id of live) {
      expect(server.store.subscriptions.get(id)).toMatchObject({ status: 'canceled', canceled_at: NOW, ended_at: NOW, ends_at: NOW, cancel_at_period_end: false });
    }
    for (const before of ended) expect(server.store.subscriptions.get(before.id)).toEqual(before);
    for (const id of granted) expect(server.store.licenseKeys.get(id)!.status).toBe('revoked');
    for (const subscription of subscriptions) {
      for (const seat of server.store.seats.lookup('subscription_id', subscription.id)) expect(seat.status).toBe('revoked');
    }
    expect(server.control.events('subscription.canceled').map((e) => e.data.id)).toEqual(live);
    expect(server.control.events('benefit_grant.revoked')).toHaveLength(granted.length);
    const [deleted] = server.control.events('customer.deleted');
    expect(deleted!.data).toMatchObject({ id: customer.id, deleted_at: NOW });
  });

  it('keeps the customer\'s history readable, marked deleted, and makes it gone everywhere it is looked up', async () => {
    await remove();
    expect((await remove()).statusCode).toBe(404);
    expect((await server.get(`/v1/customers/${customer.id}/payment-methods`)).statusCode).toBe(404);
    const { items } = await server.all('/v1/subscriptions/', { customer_id: customer.id });
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.customer.deleted_at === NOW && item.status !== 'active')).toBe(true);
  });

  it('without anonymize keeps personal data; with anonymize=true replaces it', async () => {
    expect((await remove({ anonymize: false })).statusCode).toBe(204);
    const [kept] = (await server.all('/v1/subscriptions/', { customer_id: customer.id })).items;
    expect(kept.customer).toMatchObject({ email: customer.email, name: customer.name });

    const other = await testServer();
    const [target] = other.store.customers.lookup('external_id', other.fixtures.customer_external_id!) as CustomerRecord[];
    const originalEmail = target!.email;
    const response = await other.send('DELETE', `/v1/customers/external/${other.fixtures.customer_external_id}`, { query: { anonymize: true } });
    expect(response.statusCode).toBe(204);
    expectConforms(other, 'customers:delete_external', response);
    const body = (await other.all('/v1/subscriptions/', { customer_id: target!.id })).items[0].customer;
    expect(body).toMatchObject({ id: target!.id, name: null, billing_name: null, billing_address: null, tax_id: null, avatar_url: null, external_id: other.fixtures.customer_external_id });
    expect(body.email).toMatch(/^[0-9a-f]{16}@anonymized\.invalid$/);
    expect(JSON.stringify(other.store.customers.get(target!.id))).not.toContain(originalEmail);
    const subscriptions = (await other.all('/v1/subscriptions/', { customer_id: target!.id })).items;
    expect(subscriptions.every((s) => s.customer.email === body.email && s.customer.name === null)).toBe(true);
  });

  it('answers another organization\'s customer like a missing one, and changes nothing', async () => {
    const response = await remove({}, 'other_org');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'ResourceNotFound', detail: `Customer with external id ${server.fixtures.customer_external_id} not found.` });
    expect(server.store.customers.get(customer.id)!.deleted_at).toBeNull();
    expect(server.store.events).toHaveLength(0);
  });

  it('ends the sessions of a deleted portal customer', async () => {
    const portal = server.store.customers.get(server.fixtures.customer_id!)!;
    await server.send('DELETE', `/v1/customers/external/${portal.external_id}`);
    expect((await server.get('/v1/customer-portal/license-keys/', {}, 'customer_session')).statusCode).toBe(401);
  });
});
