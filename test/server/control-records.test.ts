// The store's rules for the records no operation of the API creates, on a store without demo data:
// each function's defaults, then each refusal with its code and the input field it names (a data
// file's loader reports that field's line).
import { describe, expect, it } from 'vitest';
import { findToken } from '../../server/auth.js';
import {
  createBenefit,
  createCustomer,
  createOrganization,
  createPrice,
  createProduct,
  grantLicenseKey,
  recordOrder,
  registerOrganizationToken,
  type RecordRefusal,
} from '../../server/control-records.js';
import type { MachineContext } from '../../server/events.js';
import { resolveFaults } from '../../server/faults.js';
import { createStore } from '../../server/store.js';

const NOW = '2027-03-15T12:00:00Z';

function value<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function refusal(result: { ok: boolean; error?: RecordRefusal }): Pick<RecordRefusal, 'code' | 'field'> {
  if (result.ok) throw new Error('expected a refusal');
  return { code: result.error!.code, field: result.error!.field };
}

/** A store with two organizations A and B, a license_keys benefit, a monthly product with a fixed price and a one-time product, in A. */
function catalogue() {
  const store = createStore({ clock: () => new Date(NOW) });
  const ctx: MachineContext = { store, apiVersion: '2026-10', faults: resolveFaults([]) };
  const a = value(createOrganization(store, { name: 'Acme Cloud' }));
  const b = value(createOrganization(store, { name: 'Other Inc' }));
  const license = value(createBenefit(store, a.id, { type: 'license_keys', description: 'CLI license', properties: { prefix: 'ACME' } }));
  const monthly = value(createProduct(ctx, a.id, { name: 'Pro', recurring_interval: 'month', benefit_ids: [license.id] }));
  value(createPrice(store, a.id, monthly.id, { amount_type: 'fixed', price_amount: 1900 }));
  const once = value(createProduct(ctx, a.id, { name: 'Lifetime' }));
  value(createPrice(store, a.id, once.id, { amount_type: 'fixed', price_amount: 9900 }));
  const customer = value(createCustomer(ctx, a.id, { email: 'ada@example.com', external_id: 'user_1' }));
  return { store, ctx, a, b, license, monthly, once, customer };
}

describe('organizations and their tokens', () => {
  it('makes a slug from the name and keeps a given id', () => {
    const store = createStore();
    const org = value(createOrganization(store, { name: 'Acme Cloud, Inc.', id: 'AAAAAAAA-0000-4000-8000-000000000001' }));
    expect(org).toMatchObject({ id: 'aaaaaaaa-0000-4000-8000-000000000001', organization_id: org.id, slug: 'acme-cloud-inc' });
  });

  it.each<[string, Parameters<typeof createOrganization>[1], Pick<RecordRefusal, 'code' | 'field'>]>([
    ['an empty name', { name: ' ' }, { code: 'INVALID', field: 'name' }],
    ['a slug taken', { name: 'Acme', slug: 'acme-cloud' }, { code: 'CONFLICT', field: 'slug' }],
    ['an id that is not a UUID', { name: 'Acme 2', id: 'acme' }, { code: 'INVALID', field: 'id' }],
  ])('refuses %s', (_name, input, want) => {
    const { store } = catalogue();
    expect(refusal(createOrganization(store, input))).toEqual(want);
  });

  it('registers an organization token with every scope by default, once', () => {
    const { store, a } = catalogue();
    value(registerOrganizationToken(store, a.id, 'polar_oat_acme_development'));
    expect(findToken(store, 'polar_oat_acme_development')).toMatchObject({ kind: 'oat', organizationIds: [a.id] });
    expect(findToken(store, 'polar_oat_acme_development')!.scopes.has('webhooks:write')).toBe(true);
    expect(refusal(registerOrganizationToken(store, a.id, 'polar_oat_acme_development'))).toEqual({ code: 'CONFLICT', field: 'token' });
    expect(refusal(registerOrganizationToken(store, a.id, 'short'))).toEqual({ code: 'INVALID', field: 'token' });
    expect(refusal(registerOrganizationToken(store, a.id, 'polar_oat_other_token', ['products:read', 'products:delete']))).toEqual({ code: 'INVALID', field: 'scopes' });
  });
});

describe('catalogue', () => {
  it('a product lists its benefits; a price is appended to its product', () => {
    const { store, monthly, license } = catalogue();
    const product = store.products.get(monthly.id)!;
    expect(product).toMatchObject({ recurring_interval: 'month', recurring_interval_count: 1, benefit_ids: [license.id], visibility: 'public' });
    expect(product.price_ids.map((id) => store.prices.get(id)!.price_amount)).toEqual([1900]);
  });

  it.each<[string, (c: ReturnType<typeof catalogue>) => { ok: boolean; error?: RecordRefusal }, Pick<RecordRefusal, 'code' | 'field'>]>([
    ['a price of another organization\'s product', (c) => createPrice(c.store, c.b.id, c.monthly.id, { amount_type: 'fixed', price_amount: 100 }), { code: 'INVALID', field: 'product_id' }],
    ['a fixed price without an amount', (c) => createPrice(c.store, c.a.id, c.monthly.id, { amount_type: 'fixed' }), { code: 'INVALID', field: 'price_amount' }],
    ['a second currency on one product', (c) => createPrice(c.store, c.a.id, c.monthly.id, { amount_type: 'fixed', price_amount: 1700, price_currency: 'eur' }), { code: 'INVALID', field: 'price_currency' }],
    ['a seat_based price of a one-time product', (c) => createPrice(c.store, c.a.id, c.once.id, { amount_type: 'seat_based' }), { code: 'INVALID', field: 'amount_type' }],
    ['a custom price whose preset is above its maximum', (c) => createPrice(c.store, c.a.id, c.once.id, { amount_type: 'custom', minimum_amount: 100, maximum_amount: 500, preset_amount: 900 }), { code: 'INVALID', field: 'preset_amount' }],
    ['a benefit of another organization', (c) => createProduct(c.ctx, c.b.id, { name: 'B', benefit_ids: [c.license.id] }), { code: 'INVALID', field: 'benefit_ids' }],
    ['a trial on a one-time product', (c) => createProduct(c.ctx, c.a.id, { name: 'T', trial_interval: 'day', trial_interval_count: 7 }), { code: 'INVALID', field: 'trial_interval' }],
    ['a product id taken', (c) => createProduct(c.ctx, c.a.id, { name: 'Again', id: c.monthly.id }), { code: 'CONFLICT', field: 'id' }],
    ['a benefit type that needs an outside service', (c) => createBenefit(c.store, c.a.id, { type: 'discord', description: 'Server' }), { code: 'INVALID', field: 'type' }],
  ])('refuses %s', (_name, make, want) => {
    expect(refusal(make(catalogue()))).toEqual(want);
  });
});

describe('customers, license keys and orders', () => {
  it('a customer keeps its external id, billing address and given created_at', () => {
    const { ctx, a } = catalogue();
    const customer = value(createCustomer(ctx, a.id, { email: 'bob@example.com', external_id: 'user_2', billing_address: { country: 'FR', city: 'Lyon' }, created_at: '2026-01-01T00:00:00+01:00' }));
    expect(customer).toMatchObject({ external_id: 'user_2', billing_address: { country: 'FR', city: 'Lyon', line1: null }, created_at: '2025-12-31T23:00:00.000000Z' });
    expect(refusal(createCustomer(ctx, a.id, { external_id: 'user_2' }))).toEqual({ code: 'CONFLICT', field: 'external_id' });
    expect(refusal(createCustomer(ctx, a.id, { billing_address: { city: 'Lyon' } }))).toEqual({ code: 'INVALID', field: 'billing_address' });
  });

  it('a license key takes a given key and status; a key is never given twice', () => {
    const { ctx, customer, license } = catalogue();
    const key = value(grantLicenseKey(ctx, { customer_id: customer.id, benefit_id: license.id, key: 'ACME-DEV-0001', status: 'revoked' }));
    expect(key).toMatchObject({ key: 'ACME-DEV-0001', status: 'revoked', benefit_id: license.id });
    expect(refusal(grantLicenseKey(ctx, { customer_id: customer.id, key: 'ACME-DEV-0001' }))).toEqual({ code: 'CONFLICT', field: 'key' });
    expect(value(grantLicenseKey(ctx, { customer_id: customer.id })).key).toMatch(/^ACME-[0-9A-F]{8}-[0-9A-F]{8}-[0-9A-F]{8}-[0-9A-F]{8}$/);
  });

  it('a paid order is paid at its creation instant', () => {
    const { ctx, customer, once } = catalogue();
    const order = value(recordOrder(ctx, { customer_id: customer.id, product_id: once.id, status: 'paid', created_at: '2027-03-01T10:00:00Z', tax_basis_points: 0 }));
    expect(order).toMatchObject({ status: 'paid', billing_reason: 'purchase', created_at: '2027-03-01T10:00:00.000000Z', modified_at: '2027-03-01T10:00:00.000000Z', total_amount: 9900 });
  });

  it.each<[string, (c: ReturnType<typeof catalogue>) => Parameters<typeof recordOrder>[1], Pick<RecordRefusal, 'code' | 'field'>]>([
    ['a one-time product\'s order naming a subscription', (c) => ({ customer_id: c.customer.id, product_id: c.once.id, subscription_id: '00000000-0000-4000-8000-000000000000', tax_basis_points: 0 }), { code: 'NOT_FOUND', field: 'subscription_id' }],
    ['an order created after now', (c) => ({ customer_id: c.customer.id, product_id: c.once.id, created_at: '2027-04-01T00:00:00Z', tax_basis_points: 0 }), { code: 'INVALID', field: 'created_at' }],
    ['a subscription_cycle order without a subscription', (c) => ({ customer_id: c.customer.id, product_id: c.monthly.id, billing_reason: 'subscription_cycle', tax_basis_points: 0 }), { code: 'INVALID', field: 'billing_reason' }],
  ])('refuses %s', (_name, input, want) => {
    const c = catalogue();
    expect(refusal(recordOrder(c.ctx, input(c)))).toEqual(want);
  });
});
