import { beforeAll, describe, expect, it } from 'vitest';
import type { ProductRecord } from '../../../../server/records.js';
import { expectConforms, ids, testServer, type Query, type TestServer } from '../../support.js';
import { expectSorted, type Expected } from '../../sorting-support.js';

let server: TestServer;
let orgA: string;
let products: ProductRecord[];

beforeAll(async () => {
  server = await testServer();
  orgA = server.fixtures.organization_id!;
  products = [...server.store.products.inOrganization(orgA)];
});

function firstPriceAmount(item: any): number | null {
  const price = item.prices[0];
  if (!price) return null;
  if (price.amount_type === 'fixed') return price.price_amount ?? null;
  if (price.amount_type === 'custom') return price.preset_amount ?? price.minimum_amount ?? null;
  return null;
}

const SORT_VALUES: Record<string, Expected['value']> = {
  created_at: (item) => item.created_at,
  name: (item) => item.name,
  price_amount_type: (item) => item.prices[0]?.amount_type ?? null,
  price_amount: firstPriceAmount,
};

describe('products:list', () => {
  it.each<[string, Query]>([
    ['no parameters', {}],
    ['limit and page', { limit: 5, page: 3 }],
    ['every filter', { is_archived: false, is_recurring: true, visibility: ['public', 'private'], query: 'a', 'metadata[tier]': 'pro' }],
    ['two sort criteria', { sorting: ['-price_amount_type', 'name'], limit: 100 }],
    ['page past the end', { page: 99 }],
    ['organization filter', { organization_id: 'ORG_A' }],
  ])('answers 200 with a schema-valid body: %s', async (_name, query) => {
    const resolved = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v === 'ORG_A' ? orgA : v]));
    const response = await server.get('/v1/products/', resolved);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expectConforms(server, 'products:list', response);
  });

  it('serves the path without its trailing slash too', async () => {
    const response = await server.get('/v1/products', { limit: 3 });
    expect(response.statusCode).toBe(200);
    expect(response.json().items).toHaveLength(3);
  });

  describe('filters', () => {
    const cases: [string, () => Query, (p: ProductRecord) => boolean][] = [
      ['id', () => ({ id: products[3]!.id }), (p) => p.id === products[3]!.id],
      ['repeated id', () => ({ id: [products[3]!.id, products[7]!.id] }), (p) => p.id === products[3]!.id || p.id === products[7]!.id],
      ['upper-case id', () => ({ id: products[3]!.id.toUpperCase() }), (p) => p.id === products[3]!.id],
      ['organization_id', () => ({ organization_id: orgA }), () => true],
      ['query (case-insensitive substring of the name)', () => ({ query: products[0]!.name.split(' ')[1]!.toUpperCase() }), (p) => p.name.toLowerCase().includes(products[0]!.name.split(' ')[1]!.toLowerCase())],
      ['is_archived=true', () => ({ is_archived: true }), (p) => p.is_archived],
      ['is_archived=false', () => ({ is_archived: false }), (p) => !p.is_archived],
      ['is_recurring=true', () => ({ is_recurring: true }), (p) => p.recurring_interval !== null],
      ['is_recurring=false', () => ({ is_recurring: false }), (p) => p.recurring_interval === null],
      ['benefit_id', () => ({ benefit_id: server.fixtures.benefit_id! }), (p) => p.benefit_ids.includes(server.fixtures.benefit_id!)],
      ['visibility', () => ({ visibility: 'draft' }), (p) => p.visibility === 'draft'],
      ['repeated visibility', () => ({ visibility: ['draft', 'private'] }), (p) => p.visibility !== 'public'],
      ['metadata string', () => ({ 'metadata[tier]': 'pro' }), (p) => p.metadata.tier === 'pro'],
      ['metadata repeated values (OR)', () => ({ 'metadata[tier]': ['pro', 'free'] }), (p) => p.metadata.tier === 'pro' || p.metadata.tier === 'free'],
      ['metadata boolean', () => ({ 'metadata[featured]': 'true' }), (p) => p.metadata.featured === true],
      ['metadata integer', () => ({ 'metadata[priority]': '3' }), (p) => p.metadata.priority === 3],
      ['metadata several keys (AND)', () => ({ 'metadata[tier]': 'pro', 'metadata[featured]': 'false' }), (p) => p.metadata.tier === 'pro' && p.metadata.featured === false],
      ['combined filters', () => ({ is_recurring: true, visibility: 'public', is_archived: false }), (p) => p.recurring_interval !== null && p.visibility === 'public' && !p.is_archived],
    ];
    it.each(cases)('%s', async (_name, query, expected) => {
      const want = products.filter(expected).map((p) => p.id);
      expect(want.length).toBeGreaterThan(0);
      const { items, totalCount } = await server.all('/v1/products/', query());
      expect(ids(items).sort()).toEqual([...want].sort());
      expect(totalCount).toBe(want.length);
    });

    it('an unknown query parameter is ignored', async () => {
      const response = await server.get('/v1/products/', { colour: 'blue' });
      expect(response.statusCode).toBe(200);
      expect(response.json().pagination.total_count).toBe(products.length);
    });
  });

  describe('sorting', () => {
    const keys = Object.keys(SORT_VALUES);
    it.each(keys.flatMap((key) => [[key], [`-${key}`]]))('%s', async (sorting) => {
      const key = sorting.replace(/^-/, '');
      const { items } = await server.all('/v1/products/', { sorting });
      expect(items).toHaveLength(products.length);
      expectSorted(items, [{ value: SORT_VALUES[key]!, descending: sorting.startsWith('-') }]);
    });

    it('applies two criteria in order', async () => {
      const { items } = await server.all('/v1/products/', { sorting: ['-price_amount_type', 'name'] });
      expectSorted(items, [
        { value: SORT_VALUES.price_amount_type!, descending: true },
        { value: SORT_VALUES.name!, descending: false },
      ]);
    });

    it('defaults to -created_at, ties broken by id', async () => {
      const { items } = await server.all('/v1/products/');
      expectSorted(items, [{ value: SORT_VALUES.created_at!, descending: true }]);
      const tied = items.filter((item) => item.created_at === items[0].created_at);
      expect(tied.length).toBeGreaterThan(10);
    });
  });

  describe('pagination', () => {
    it('counts every matching item and computes max_page', async () => {
      const body = (await server.get('/v1/products/', { limit: 7 })).json();
      expect(body.pagination).toEqual({ total_count: products.length, max_page: Math.ceil(products.length / 7) });
      expect(body.items).toHaveLength(7);
    });

    it('defaults to page 1 and limit 10', async () => {
      const first = (await server.get('/v1/products/')).json();
      const explicit = (await server.get('/v1/products/', { page: 1, limit: 10 })).json();
      expect(first.items).toHaveLength(10);
      expect(ids(first.items)).toEqual(ids(explicit.items));
    });

    it.each([1, 10, 13, 100])('pages of %i are disjoint and hold every item once', async (limit) => {
      const { pages, items } = await server.all('/v1/products/', { limit, sorting: 'name' });
      expect(pages.length).toBe(Math.ceil(products.length / limit));
      expect(new Set(ids(items)).size).toBe(products.length);
      expect(pages.slice(0, -1).every((page) => page.length === limit)).toBe(true);
    });

    it('answers a page past the end with 200 and no items', async () => {
      const response = await server.get('/v1/products/', { page: 14, limit: 10 });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ items: [], pagination: { total_count: products.length, max_page: 13 } });
    });

    it('answers an empty match with total_count 0 and max_page 0', async () => {
      const response = await server.get('/v1/products/', { id: '00000000-0000-4000-8000-000000000000' });
      expect(response.json()).toEqual({ items: [], pagination: { total_count: 0, max_page: 0 } });
    });
  });

  it('products referenced by an order, a subscription or a discount are not deletable, others are', async () => {
    const { items } = await server.all('/v1/products/');
    const { store } = server;
    for (const item of items) {
      const referenced = [store.subscriptions, store.orders, store.discounts].some((collection) => collection.lookup('product_id', item.id).length > 0);
      expect(item.is_deletable, item.id).toBe(!referenced);
    }
    expect(items.some((item) => item.is_deletable)).toBe(true);
    expect(items.some((item) => !item.is_deletable)).toBe(true);
    const orderedOnly = items.filter((item) => store.orders.lookup('product_id', item.id).length > 0 && store.subscriptions.lookup('product_id', item.id).length === 0);
    expect(orderedOnly.length).toBeGreaterThan(0);
    expect(orderedOnly.every((item) => item.is_deletable === false)).toBe(true);
  });
});

describe('products:list in API version 2026-04', () => {
  it('has no is_deletable and whole-second timestamps', async () => {
    const old = await testServer({ apiVersion: '2026-04' });
    const { items } = (await old.get('/v1/products/', { limit: 20 })).json();
    for (const item of items) {
      expect(item).not.toHaveProperty('is_deletable');
      expect(item.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      for (const price of item.prices) expect(price.created_at).toMatch(/:\d\dZ$/);
    }
    const current = (await server.get('/v1/products/', { limit: 20 })).json();
    for (const item of current.items) expect(item.created_at).toMatch(/\.\d{6}Z$/);
  });
});
