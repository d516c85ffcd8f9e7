import { beforeAll, describe, expect, it } from 'vitest';
import type { RefundRecord } from '../../../../server/records.js';
import { expectConforms, ids, testServer, type Query, type TestServer } from '../../support.js';
import { expectSorted } from '../../sorting-support.js';

let server: TestServer;
let refunds: RefundRecord[];

beforeAll(async () => {
  server = await testServer();
  refunds = [...server.store.refunds.inOrganization(server.fixtures.organization_id!)];
});

describe('refunds:list', () => {
  it('answers the caller\'s refunds, some with a dispute, valid per the spec', async () => {
    const { items, totalCount } = await server.all('/v1/refunds/');
    expect(totalCount).toBe(refunds.length);
    expect(items.some((item) => item.dispute !== null)).toBe(true);
    expect(items.every((item) => item.organization_id === server.fixtures.organization_id)).toBe(true);
    expectConforms(server, 'refunds:list', await server.get('/v1/refunds/', { limit: 100 }));
    const other = await server.all('/v1/refunds/', {}, 'other_org');
    expect(ids(other.items).filter((id) => ids(items).includes(id))).toEqual([]);
  });

  const sample = () => refunds.find((r) => r.subscription_id !== null && server.store.customers.get(r.customer_id)!.external_id !== null)!;
  const cases: [string, () => Query, (r: RefundRecord) => boolean][] = [
    ['id', () => ({ id: refunds[0]!.id }), (r) => r.id === refunds[0]!.id],
    ['repeated id', () => ({ id: [refunds[0]!.id, refunds[1]!.id] }), (r) => r.id === refunds[0]!.id || r.id === refunds[1]!.id],
    ['organization_id', () => ({ organization_id: server.fixtures.organization_id! }), () => true],
    ['order_id', () => ({ order_id: sample().order_id }), (r) => r.order_id === sample().order_id],
    ['subscription_id', () => ({ subscription_id: sample().subscription_id! }), (r) => r.subscription_id === sample().subscription_id],
    ['customer_id', () => ({ customer_id: sample().customer_id }), (r) => r.customer_id === sample().customer_id],
    ['external_customer_id (the refund\'s customer)', () => ({ external_customer_id: server.store.customers.get(sample().customer_id)!.external_id! }), (r) => r.customer_id === sample().customer_id],
    ['succeeded=true (status succeeded)', () => ({ succeeded: true }), (r) => r.status === 'succeeded'],
    ['succeeded=false (any other status)', () => ({ succeeded: false }), (r) => r.status !== 'succeeded'],
  ];
  it.each(cases)('filters by %s', async (_name, query, expected) => {
    const want = refunds.filter(expected).map((r) => r.id);
    expect(want.length).toBeGreaterThan(0);
    const { items, totalCount } = await server.all('/v1/refunds/', query());
    expect(ids(items).sort()).toEqual(want.sort());
    expect(totalCount).toBe(want.length);
  });

  it.each(['created_at', '-created_at', 'amount', '-amount'])('sorts by %s, ties by id', async (sorting) => {
    const key = sorting.replace(/^-/, '') as 'created_at' | 'amount';
    const { items } = await server.all('/v1/refunds/', { sorting });
    expect(items).toHaveLength(refunds.length);
    expectSorted(items, [{ value: (item) => item[key], descending: sorting.startsWith('-') }]);
  });

  it('defaults to newest first', async () => {
    const { items } = await server.all('/v1/refunds/');
    expectSorted(items, [{ value: (item) => item.created_at, descending: true }]);
  });

  it('pages without overlap', async () => {
    const { pages, items } = await server.all('/v1/refunds/', { limit: 4 });
    expect(new Set(ids(items)).size).toBe(refunds.length);
    expect(pages.length).toBe(Math.ceil(refunds.length / 4));
  });
});
