// The test clock's judgements: a renewal's period, a renewal's order, a cancellation at period end
// and the order of a renewal order's events; passing cases and failing ones of the exact kind.
import { describe, expect, test } from 'vitest';
import { cancelAtPeriodEndFindings, orderEventOrderFindings, periodFindings, renewalOrderFindings, renewalOrderIds } from '../../../checks/stateful/lifecycle.js';
import type { TargetEvent } from '../../../core/adapter.js';

const kinds = (findings: { kind: string }[]) => findings.map((f) => f.kind);
const SUB = 'sub-1';
const started = { id: SUB, status: 'active', current_period_start: '2027-01-31T09:00:00Z', current_period_end: '2027-02-28T09:00:00Z' };
const event = (type: string, data: Record<string, unknown>): TargetEvent => ({ type, timestamp: '2027-02-28T09:00:00Z', data });

describe('lifecycle judgements', () => {
  test.each<[string, Record<string, unknown>, string[]]>([
    ['the next period, starting where the old ended', { ...started, current_period_start: '2027-02-28T09:00:00.000Z', current_period_end: '2027-03-31T09:00:00Z' }, []],
    ['the old period kept', started, ['renewal_period_not_moved']],
    ['a new period that does not start at the old end', { ...started, current_period_start: '2027-03-01T09:00:00Z', current_period_end: '2027-03-31T09:00:00Z' }, ['renewal_period_not_moved']],
    ['moved but no longer active', { ...started, status: 'canceled', current_period_start: '2027-02-28T09:00:00Z', current_period_end: '2027-03-31T09:00:00Z' }, ['renewal_period_not_moved']],
  ])('periodFindings: %s', (_name, after, want) => {
    expect(kinds(periodFindings(started, after))).toEqual(want);
  });

  test('renewalOrderIds: the subscription_cycle orders of one subscription, once each, in log order', () => {
    const events = [
      event('order.created', { id: 'o-create', subscription_id: SUB, billing_reason: 'subscription_create' }),
      event('order.created', { id: 'o-1', subscription_id: SUB, billing_reason: 'subscription_cycle' }),
      event('order.paid', { id: 'o-1', subscription_id: SUB, billing_reason: 'subscription_cycle' }),
      event('order.created', { id: 'o-other', subscription_id: 'sub-2', billing_reason: 'subscription_cycle' }),
      event('subscription.updated', { id: SUB, subscription_id: SUB, billing_reason: 'subscription_cycle' }),
    ];
    expect(renewalOrderIds(events, SUB)).toEqual(['o-1']);
    expect(renewalOrderIds([], SUB)).toEqual([]);
  });

  test.each<[string, Record<string, unknown>, string[]]>([
    ['a paid subscription_cycle order with items', { id: 'o-1', billing_reason: 'subscription_cycle', subscription_id: SUB, items: [{}], status: 'paid' }, []],
    ['no items', { id: 'o-1', billing_reason: 'subscription_cycle', subscription_id: SUB, items: [], status: 'paid' }, ['renewal_order_malformed']],
    ['still pending', { id: 'o-1', billing_reason: 'subscription_cycle', subscription_id: SUB, items: [{}], status: 'pending' }, ['renewal_order_malformed']],
    ['another billing reason', { id: 'o-1', billing_reason: 'purchase', subscription_id: SUB, items: [{}], status: 'paid' }, ['renewal_order_malformed']],
  ])('renewalOrderFindings: %s', (_name, order, want) => {
    expect(kinds(renewalOrderFindings(SUB, order))).toEqual(want);
  });

  test.each<[string, Record<string, unknown> | undefined, number, string[]]>([
    ['canceled at the period end, no renewal', { ...started, status: 'canceled', ended_at: '2027-02-28T09:00:00.000000Z' }, 0, []],
    ['still active', started, 0, ['cancel_at_period_end_not_applied']],
    ['canceled but renewed first', { ...started, status: 'canceled', ended_at: '2027-02-28T09:00:00Z' }, 1, ['cancel_at_period_end_not_applied']],
    ['canceled at another time', { ...started, status: 'canceled', ended_at: '2027-03-31T09:00:00Z' }, 0, ['cancel_at_period_end_not_applied']],
    ['not found', undefined, 0, ['cancel_at_period_end_not_applied']],
  ])('cancelAtPeriodEndFindings: %s', (_name, after, renewals, want) => {
    expect(kinds(cancelAtPeriodEndFindings({ ...started, cancel_at_period_end: true }, after, renewals))).toEqual(want);
  });

  test.each<[string, string[], string[]]>([
    ['created, updated, paid', ['order.created', 'order.updated', 'order.paid'], []],
    ['paid before created', ['order.paid', 'order.created', 'order.updated'], ['order_paid_before_created']],
    ['never paid', ['order.created'], ['order_paid_before_created']],
    ['no events', [], ['order_paid_before_created']],
  ])('orderEventOrderFindings: %s', (_name, types, want) => {
    expect(kinds(orderEventOrderFindings(types.map((type) => event(type, { id: 'o-1' })), 'o-1'))).toEqual(want);
  });
});
