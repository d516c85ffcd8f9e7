import { beforeAll, describe, expect, it } from 'vitest';
import type { SubscriptionRecord } from '../../../../server/records.js';
import { expectConforms, ids, testServer, type Query, type TestServer } from '../../support.js';
import { expectSorted, type Expected } from '../../sorting-support.js';

let server: TestServer;
let orgA: string;
let subscriptions: SubscriptionRecord[];

beforeAll(async () => {
  server = await testServer();
  orgA = server.fixtures.organization_id!;
  subscriptions = [...server.store.subscriptions.inOrganization(orgA)];
});

const SORT_VALUES: Record<string, Expected['value']> = {
  customer: (item) => item.customer.email,
  status: (item) => item.status,
  started_at: (item) => item.started_at,
  current_period_end: (item) => item.current_period_end,
  ended_at: (item) => item.ended_at,
  ends_at: (item) => item.ends_at,
  amount: (item) => item.amount,
  product: (item) => item.product.name,
  discount: (item) => item.discount?.name ?? null,
};

/** A timestamp some subscription has, to test that bounds are inclusive. */
function someValue(field: 'canceled_at' | 'started_at'): string {
  const values = subscriptions.map((s) => s[field]).filter((v): v is string => v !== null).sort();
  return values[Math.floor(values.length / 2)]!;
}

describe('subscriptions:list', () => {
  it.each<[string, Query]>([
    ['no parameters', {}],
    ['a full page', { limit: 100 }],
    ['filters', { active: true, cancel_at_period_end: false, 'metadata[tier]': 'pro' }],
    ['status list and sorting', { status: ['canceled', 'paused'], sorting: ['discount', '-amount'] }],
    ['date bounds', { started_after: '2025-01-01T00:00:00Z', started_before: '2026-12-31T23:59:59.999999+02:00' }],
    ['page past the end', { page: 50 }],
  ])('answers 200 with a schema-valid body: %s', async (_name, query) => {
    const response = await server.get('/v1/subscriptions/', query);
    expect(response.statusCode).toBe(200);
    expectConforms(server, 'subscriptions:list', response);
  });

  describe('filters', () => {
    const customerOf = (s: SubscriptionRecord) => server.store.customers.get(s.customer_id)!;
    const cases: [string, () => Query, (s: SubscriptionRecord) => boolean][] = [
      ['organization_id', () => ({ organization_id: orgA }), () => true],
      ['product_id', () => ({ product_id: subscriptions[0]!.product_id }), (s) => s.product_id === subscriptions[0]!.product_id],
      ['repeated product_id', () => ({ product_id: [subscriptions[0]!.product_id, subscriptions[5]!.product_id] }), (s) => [subscriptions[0]!.product_id, subscriptions[5]!.product_id].includes(s.product_id)],
      ['customer_id', () => ({ customer_id: server.fixtures.customer_id! }), (s) => s.customer_id === server.fixtures.customer_id],
      ['external_customer_id', () => ({ external_customer_id: server.fixtures.customer_external_id! }), (s) => customerOf(s).external_id === server.fixtures.customer_external_id],
      ['discount_id', () => ({ discount_id: server.fixtures.discount_id! }), (s) => s.discount_id === server.fixtures.discount_id],
      ['active=true (active or trialing)', () => ({ active: true }), (s) => s.status === 'active' || s.status === 'trialing'],
      ['active=false', () => ({ active: false }), (s) => s.status !== 'active' && s.status !== 'trialing'],
      ['status', () => ({ status: 'canceled' }), (s) => s.status === 'canceled'],
      ['repeated status', () => ({ status: ['past_due', 'unpaid'] }), (s) => s.status === 'past_due' || s.status === 'unpaid'],
      ['cancel_at_period_end=true', () => ({ cancel_at_period_end: true }), (s) => s.cancel_at_period_end],
      ['cancel_at_period_end=false', () => ({ cancel_at_period_end: false }), (s) => !s.cancel_at_period_end],
      ['customer_cancellation_reason', () => ({ customer_cancellation_reason: ['too_expensive', 'unused'] }), (s) => s.customer_cancellation_reason === 'too_expensive' || s.customer_cancellation_reason === 'unused'],
      ['canceled_at_after (inclusive)', () => ({ canceled_at_after: someValue('canceled_at') }), (s) => s.canceled_at !== null && s.canceled_at >= someValue('canceled_at')],
      ['canceled_at_before (inclusive)', () => ({ canceled_at_before: someValue('canceled_at') }), (s) => s.canceled_at !== null && s.canceled_at <= someValue('canceled_at')],
      ['started_after (inclusive)', () => ({ started_after: someValue('started_at') }), (s) => s.started_at !== null && s.started_at >= someValue('started_at')],
      ['started_before (inclusive)', () => ({ started_before: someValue('started_at') }), (s) => s.started_at !== null && s.started_at <= someValue('started_at')],
      ['started_after with an offset', () => ({ started_after: '2026-02-01T02:00:00+02:00' }), (s) => s.started_at !== null && s.started_at >= '2026-02-01T00:00:00.000000Z'],
      ['metadata', () => ({ 'metadata[channel]': ['web', 'sales'] }), (s) => s.metadata.channel === 'web' || s.metadata.channel === 'sales'],
      ['metadata several keys (AND)', () => ({ 'metadata[tier]': 'pro', 'metadata[featured]': 'true' }), (s) => s.metadata.tier === 'pro' && s.metadata.featured === true],
    ];
    it.each(cases)('%s', async (_name, query, expected) => {
      const want = subscriptions.filter(expected).map((s) => s.id);
      expect(want.length).toBeGreaterThan(0);
      const { items, totalCount } = await server.all('/v1/subscriptions/', query());
      expect(ids(items).sort()).toEqual([...want].sort());
      expect(totalCount).toBe(want.length);
    });

    it('the bound itself is included', async () => {
      const started = subscriptions.find((s) => s.started_at !== null)!;
      const { items } = await server.all('/v1/subscriptions/', { started_after: started.started_at!, started_before: started.started_at! });
      expect(ids(items)).toContain(started.id);
      expect(items.every((item) => item.started_at === started.started_at)).toBe(true);
    });
  });

  describe('sorting', () => {
    it.each(Object.keys(SORT_VALUES).flatMap((key) => [[key], [`-${key}`]]))('%s', async (sorting) => {
      const key = sorting.replace(/^-/, '');
      const { items } = await server.all('/v1/subscriptions/', { sorting });
      expect(items).toHaveLength(subscriptions.length);
      expectSorted(items, [{ value: SORT_VALUES[key]!, descending: sorting.startsWith('-') }]);
    });

    it('puts null timestamps last in both directions', async () => {
      for (const sorting of ['ended_at', '-ended_at']) {
        const { items } = await server.all('/v1/subscriptions/', { sorting });
        const firstNull = items.findIndex((item) => item.ended_at === null);
        expect(firstNull).toBeGreaterThan(0);
        expect(items.slice(firstNull).every((item) => item.ended_at === null)).toBe(true);
      }
    });

    it('applies two criteria in order', async () => {
      const { items } = await server.all('/v1/subscriptions/', { sorting: ['status', '-amount'] });
      expectSorted(items, [
        { value: SORT_VALUES.status!, descending: false },
        { value: SORT_VALUES.amount!, descending: true },
      ]);
    });

    it('defaults to -started_at, ties broken by id', async () => {
      const { items } = await server.all('/v1/subscriptions/', { limit: 10 });
      expectSorted(items, [{ value: SORT_VALUES.started_at!, descending: true }]);
    });
  });

  describe('pagination', () => {
    it('counts every matching item, pages are disjoint, a page past the end is empty', async () => {
      const { pages, items, totalCount } = await server.all('/v1/subscriptions/', { limit: 10, sorting: 'status' });
      expect(totalCount).toBe(subscriptions.length);
      expect(pages).toHaveLength(Math.ceil(subscriptions.length / 10));
      expect(new Set(ids(items)).size).toBe(subscriptions.length);
      const past = await server.get('/v1/subscriptions/', { page: pages.length + 1 });
      expect(past.statusCode).toBe(200);
      expect(past.json()).toEqual({ items: [], pagination: { total_count: subscriptions.length, max_page: Math.ceil(subscriptions.length / 10) } });
    });
  });

  it('embeds the customer, product, discount, prices and meters', async () => {
    const { items } = await server.all('/v1/subscriptions/');
    const item = items.find((i) => i.id === server.fixtures.subscription_id)!;
    expect(item.customer.id).toBe(item.customer_id);
    expect(item.product.id).toBe(item.product_id);
    expect(items.some((i) => i.discount !== null && i.discount.id === i.discount_id)).toBe(true);
    expect(items.some((i) => i.discount === null && i.discount_id === null)).toBe(true);
    expect(items.some((i) => i.meters.length > 0)).toBe(true);
    expect(items.every((i) => i.prices.length > 0)).toBe(true);
  });
});
