import { describe, expect, it } from 'vitest';
import { seedDemoData } from '../../server/demo-data.js';
import { createStore, type Store } from '../../server/store.js';

function seeded(seed: number): { store: Store; fixtures: Record<string, string>; organizations: { a: string; b: string } } {
  const store = createStore({ seed });
  return { store, ...seedDemoData(store) };
}

function dump(store: Store): string {
  const collections = [store.organizations, store.products, store.prices, store.benefits, store.medias, store.customFields, store.customers, store.discounts, store.meters, store.subscriptions];
  return JSON.stringify(collections.map((c) => [...c.all()]));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const STORED_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

describe('seedDemoData', () => {
  const { store, fixtures, organizations } = seeded(1);
  const productsA = store.products.inOrganization(organizations.a);
  const productsB = store.products.inOrganization(organizations.b);
  const subscriptionsA = store.subscriptions.inOrganization(organizations.a);
  const allProducts = [...store.products.all()];
  const allPrices = [...store.prices.all()];
  const allSubscriptions = [...store.subscriptions.all()];

  it('is byte-identical for the same seed and different for another', () => {
    expect(dump(seeded(1).store)).toBe(dump(store));
    expect(seeded(1).fixtures).toEqual(fixtures);
    expect(dump(seeded(2).store)).not.toBe(dump(store));
  });

  it('does not read the clock', () => {
    const late = createStore({ seed: 1, clock: () => new Date('2099-01-01T00:00:00Z') });
    seedDemoData(late);
    expect(dump(late)).toBe(dump(store));
  });

  it('uses UUIDs and microsecond timestamps', () => {
    for (const record of [...allProducts, ...allPrices, ...allSubscriptions]) {
      expect(record.id).toMatch(UUID);
      expect(record.created_at).toMatch(STORED_TIMESTAMP);
    }
  });

  it('has at least 150 products, most in organization A, more than 100 there', () => {
    expect(allProducts.length).toBeGreaterThanOrEqual(150);
    expect(productsA.length).toBeGreaterThan(100);
    expect(productsA.length).toBeGreaterThan(productsB.length);
    expect(productsB.length).toBeGreaterThan(0);
  });

  it.each([organizations.a, organizations.b])('covers every kind of product in organization %s', (org) => {
    const products = store.products.inOrganization(org);
    expect(new Set(products.map((p) => p.visibility))).toEqual(new Set(['draft', 'private', 'public']));
    expect(new Set(products.map((p) => p.is_archived))).toEqual(new Set([true, false]));
    expect(new Set(products.map((p) => p.recurring_interval === null))).toEqual(new Set([true, false]));
    expect(products.some((p) => p.trial_interval !== null && p.trial_interval_count !== null)).toBe(true);
  });

  it('keeps product fields consistent', () => {
    for (const p of allProducts) {
      expect(p.recurring_interval === null, p.id).toBe(p.recurring_interval_count === null);
      expect(p.trial_interval === null, p.id).toBe(p.trial_interval_count === null);
      if (p.trial_interval !== null) expect(p.recurring_interval).not.toBeNull();
      expect(p.price_ids.length).toBeGreaterThan(0);
    }
  });

  it('has prices of several amount types, with legacy fixed and custom prices', () => {
    expect(new Set(allPrices.map((p) => p.amount_type)).size).toBeGreaterThanOrEqual(5);
    const legacy = allPrices.filter((p) => p.legacy);
    expect(legacy.some((p) => p.amount_type === 'fixed' && typeof p.price_amount === 'number')).toBe(true);
    expect(legacy.some((p) => p.amount_type === 'custom' && typeof p.minimum_amount === 'number' && p.maximum_amount !== undefined && p.preset_amount !== undefined)).toBe(true);
    for (const p of legacy) expect(p.type === 'recurring' && p.recurring_interval !== undefined).toBe(true);
  });

  it('has benefits of every type, custom ones with a note, and media and custom fields on products', () => {
    expect(new Set([...store.benefits.all()].map((b) => b.type)).size).toBe(8);
    expect([...store.benefits.all()].filter((b) => b.type === 'custom').every((b) => 'note' in b.properties)).toBe(true);
    expect(allProducts.some((p) => p.media_ids.length > 0)).toBe(true);
    expect(allProducts.some((p) => p.attached_custom_fields.length > 0)).toBe(true);
    expect(allProducts.some((p) => p.benefit_ids.length > 0)).toBe(true);
  });

  it('has metadata with string, integer and boolean values under shared keys', () => {
    const values = allProducts.flatMap((p) => Object.values(p.metadata));
    expect(values.some((v) => typeof v === 'string')).toBe(true);
    expect(values.some((v) => Number.isInteger(v))).toBe(true);
    expect(values.some((v) => typeof v === 'boolean')).toBe(true);
    for (const key of ['tier', 'priority', 'featured']) expect(allProducts.filter((p) => key in p.metadata).length).toBeGreaterThan(10);
  });

  it('has at least 150 subscriptions, every status in each organization, more than 100 in A', () => {
    expect(allSubscriptions.length).toBeGreaterThanOrEqual(150);
    expect(subscriptionsA.length).toBeGreaterThan(100);
    for (const org of [organizations.a, organizations.b]) {
      expect(new Set(store.subscriptions.inOrganization(org).map((s) => s.status)).size).toBe(8);
    }
  });

  it('subscribes to recurring products of the same organization, with customers of it', () => {
    for (const s of allSubscriptions) {
      const product = store.products.get(s.product_id)!;
      expect(product.organization_id).toBe(s.organization_id);
      expect(product.recurring_interval).toBe(s.recurring_interval);
      expect(store.customers.get(s.customer_id)!.organization_id).toBe(s.organization_id);
      if (s.discount_id) expect(store.discounts.get(s.discount_id)!.organization_id).toBe(s.organization_id);
    }
    expect(allSubscriptions.some((s) => s.discount_id === null)).toBe(true);
    expect(allSubscriptions.some((s) => s.discount_id !== null)).toBe(true);
    expect(allSubscriptions.some((s) => store.customers.get(s.customer_id)!.external_id !== null)).toBe(true);
    expect(allSubscriptions.some((s) => store.customers.get(s.customer_id)!.external_id === null)).toBe(true);
  });

  it('gives each status consistent timestamps', () => {
    for (const s of allSubscriptions) {
      const at = `${s.status} ${s.id}`;
      expect(s.current_period_start <= s.current_period_end!, at).toBe(true);
      if (s.cancel_at_period_end) expect(s.canceled_at, at).not.toBeNull();
      if (s.customer_cancellation_reason !== null) expect(s.canceled_at, at).not.toBeNull();
      switch (s.status) {
        case 'canceled':
          expect(s.canceled_at && s.ended_at && s.started_at, at).toBeTruthy();
          expect(s.canceled_at! <= s.ended_at!, at).toBe(true);
          expect(s.started_at! < s.canceled_at!, at).toBe(true);
          break;
        case 'trialing':
          expect(s.trial_start && s.trial_end && s.trial_start < s.trial_end, at).toBeTruthy();
          expect(s.ended_at, at).toBeNull();
          break;
        case 'incomplete':
          expect(s.started_at, at).toBeNull();
          expect(s.ended_at, at).toBeNull();
          break;
        case 'incomplete_expired':
          expect(s.started_at, at).toBeNull();
          expect(s.ended_at, at).not.toBeNull();
          break;
        case 'past_due':
        case 'unpaid':
          expect(s.past_due_at, at).not.toBeNull();
          expect(s.ended_at, at).toBeNull();
          break;
        case 'paused':
          expect(s.paused_at, at).not.toBeNull();
          break;
        case 'active':
          expect(s.started_at, at).not.toBeNull();
          expect(s.ended_at, at).toBeNull();
          break;
      }
    }
    expect(allSubscriptions.some((s) => s.status === 'canceled' && s.customer_cancellation_reason !== null)).toBe(true);
  });

  it('names fixtures that exist in the right organization', () => {
    expect(store.products.get(fixtures.product_id!)!.organization_id).toBe(organizations.a);
    expect(store.products.get(fixtures.product_id!)!.benefit_ids).toContain(fixtures.benefit_id);
    expect(store.subscriptions.get(fixtures.subscription_id!)!.customer_id).toBe(fixtures.customer_id);
    expect(store.customers.get(fixtures.customer_id!)!.external_id).toBe(fixtures.customer_external_id);
    expect(store.discounts.get(fixtures.discount_id!)!.organization_id).toBe(organizations.a);
    expect(fixtures.organization_id).toBe(organizations.a);
    expect(fixtures.other_organization_id).toBe(organizations.b);
    expect(store.products.get(fixtures.other_product_id!)!.organization_id).toBe(organizations.b);
  });
});
