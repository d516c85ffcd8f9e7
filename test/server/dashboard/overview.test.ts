// The dashboard's view of a store: rows by kind, newest first and capped; a subscription's status
// history from the event log; delivery attempts with the endpoint's answer.
import { describe, expect, it } from 'vitest';
import { dashboardOverview } from '../../../server/dashboard/overview.js';
import { loadData } from '../../../server/data/load.js';
import { dataValue } from '../../../server/data/read.js';
import { emitEvent } from '../../../server/events.js';
import { resolveFaults } from '../../../server/faults.js';

function store() {
  const loaded = loadData(dataValue('test', {
    organizations: [{
      name: 'Acme',
      benefits: [{ key: 'license', type: 'license_keys', description: 'CLI license' }],
      products: [{ key: 'pro', name: 'Pro', recurring_interval: 'month', benefits: ['license'] }, { key: 'tip', name: 'Tip jar' }],
      prices: [{ product: 'pro', amount_type: 'fixed', price_amount: 1900 }, { product: 'tip', amount_type: 'custom', minimum_amount: 100 }],
      customers: [{ key: 'ada', email: 'ada@example.com' }, { key: 'bob', email: 'bob@example.com' }],
      subscriptions: [{ key: 'ada-pro', id: 'aaaaaaaa-0000-4000-8000-000000000001', customer: 'ada', product: 'pro' }],
      license_keys: [{ customer: 'ada', benefit: 'license', key: 'ACME-KEY-1234' }],
    }],
  }), { clock: () => new Date('2027-03-15T12:00:00Z') });
  if (!loaded.ok) throw new Error(loaded.error[0]!.message);
  loaded.value.store.events.length = 0;
  return { store: loaded.value.store, apiVersion: '2026-10' as const, faults: resolveFaults([]) };
}

describe('dashboardOverview', () => {
  it('gives rows by kind, newest first, with prices, benefits and masked keys', () => {
    const overview = dashboardOverview(store());
    expect(overview.customers.map((c) => c.email)).toEqual(['bob@example.com', 'ada@example.com']);
    expect(overview.products.map((p) => [p.name, p.recurring_interval, p.prices.map((price) => [price.amount_type, price.amount]), p.benefits])).toEqual([
      ['Tip jar', null, [['custom', 100]], []],
      ['Pro', 'month', [['fixed', 1900]], ['CLI license']],
    ]);
    expect(overview.license_keys[0]).toMatchObject({ display_key: '****-1234', benefit: 'CLI license', customer: { email: 'ada@example.com' } });
    expect(overview.subscriptions[0]).toMatchObject({ status: 'active', test_clock: true, fail_payments: false, customer: { email: 'ada@example.com' }, product: { name: 'Pro' }, history: [] });
    expect(overview).toMatchObject({ now: '2027-03-15T12:00:00.000000Z', clock_offset_ms: 0, counts: { customers: 2, products: 2, subscriptions: 1, events: 0, deliveries: 0 } });
  });

  it('caps every kind at the limit, and keeps the counts whole', () => {
    const overview = dashboardOverview(store(), { limit: 1 });
    expect(overview.customers.map((c) => c.email)).toEqual(['bob@example.com']);
    expect(overview.counts.customers).toBe(2);
  });

  it('reads a subscription\'s status history from the event log, oldest first', () => {
    const ctx = store();
    emitEvent(ctx.store, 'subscription.updated', { id: 'aaaaaaaa-0000-4000-8000-000000000001', status: 'past_due' });
    emitEvent(ctx.store, 'order.created', { id: 'bbbbbbbb-0000-4000-8000-000000000001', status: 'pending' });
    emitEvent(ctx.store, 'subscription.active', { id: 'aaaaaaaa-0000-4000-8000-000000000001', status: 'active' });
    const overview = dashboardOverview(ctx);
    expect(overview.subscriptions[0]!.history.map((change) => [change.type, change.status])).toEqual([['subscription.updated', 'past_due'], ['subscription.active', 'active']]);
    expect(overview.events.map((event) => [event.type, event.status])).toEqual([['subscription.active', 'active'], ['order.created', 'pending'], ['subscription.updated', 'past_due']]);
  });

  it('gives the newest delivery attempts first, each with its answer (null when none was kept)', () => {
    const ctx = store();
    const attempt = (id: string, extra: object) => ({ id, event_id: 'e', endpoint_id: 'x', created_at: '2027-03-15T12:00:00.000000Z', attempt: 1, status: 'succeeded', response_status: 200, event_type: 'order.paid', url: 'http://127.0.0.1/h', error: null, duration_ms: 3, delivered_at: '2027-03-15T12:00:00.000000Z', ...extra });
    ctx.store.deliveries.push(attempt('old', {}) as never, attempt('new', { response_body: '{"ok":true}' }) as never);
    expect(dashboardOverview(ctx).deliveries.map((d) => [d.id, d.response_body])).toEqual([['new', '{"ok":true}'], ['old', null]]);
  });
});
