// The order-events judgements of the stateful scenarios: the events an order's creation and payment
// emit, and the shape of an order as shown; passing cases and failing ones of the exact kind.
import { describe, expect, test } from 'vitest';
import { newEvents, orderEventFindings, orderShapeFindings } from '../../../checks/stateful/order-events.js';
import type { TargetEvent } from '../../../core/adapter.js';
import { ORDER, event, kinds } from './support.js';

describe('orderEventFindings', () => {
  const created = event('e1', 'order.created', { id: ORDER, status: 'pending', paid: false });
  const updated = event('e2', 'order.updated', { id: ORDER, status: 'paid', paid: true });
  const paid = event('e3', 'order.paid', { id: ORDER, status: 'paid', paid: true });
  const other = event('e0', 'order.paid', { id: 'another-order' });

  test.each<[string, TargetEvent[], TargetEvent[], string[]]>([
    ['created, then updated and paid', [other, created], [other, created, updated, paid], []],
    ['events without ids (by position)', [{ ...created, id: undefined } as TargetEvent], [{ ...created, id: undefined } as TargetEvent, { ...updated, id: undefined } as TargetEvent, { ...paid, id: undefined } as TargetEvent], []],
    ['no order.created', [], [updated, paid], ['order_created_not_emitted']],
    ['order.paid while pending', [created, paid], [created, paid, updated], ['order_paid_before_paid', 'order_paid_not_emitted']],
    ['no order.paid (event_skipped)', [created], [created, updated], ['order_paid_not_emitted']],
    ['no order.updated', [created], [created, paid], ['order_updated_not_emitted']],
    ['order.paid of an unpaid order', [created], [created, updated, event('e3', 'order.paid', { id: ORDER, status: 'pending', paid: false })], ['order_paid_data_not_paid']],
  ])('%s', (_name, before, after, expected) => {
    expect(kinds(orderEventFindings(ORDER, before, after))).toEqual(expected);
  });

  test('newEvents: by id when every event has one, else by position', () => {
    expect(newEvents([created], [updated, created, paid]).map((e) => e.id)).toEqual(['e2', 'e3']);
    expect(newEvents([{ type: 'a', timestamp: '', data: {} }], [{ type: 'a', timestamp: '', data: {} }, { type: 'b', timestamp: '', data: {} }]).map((e) => e.type)).toEqual(['b']);
  });
});

describe('orderShapeFindings', () => {
  const order = { id: ORDER, items: [], net_amount: 1000, subtotal_amount: 1000, discount_amount: 0, total_amount: 1200 };
  test.each<[string, Record<string, unknown>, string[]]>([
    ['items and the four amounts, no deprecated amount', order, []],
    ['the deprecated amount equal to net_amount', { ...order, amount: 1000 }, []],
    ['the deprecated amount not net_amount', { ...order, amount: 1200 }, ['order_amount_not_net']],
    ['no items', { ...order, items: undefined }, ['order_items_missing']],
    ['an amount that is not an integer', { ...order, total_amount: '1200' }, ['order_amounts_missing']],
  ])('%s', (_name, shown, expected) => {
    expect(kinds(orderShapeFindings(shown, 'the order'))).toEqual(expected);
  });
});
