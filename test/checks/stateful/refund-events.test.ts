// The refund judgements of the stateful scenarios: order.updated emitted on a refund, and the refund
// listed with its order and amount; passing cases and failing ones of the exact kind.
import { describe, expect, test } from 'vitest';
import { listedRefund, refundEventFindings, refundListingFindings } from '../../../checks/stateful/refund-events.js';
import type { TargetEvent } from '../../../core/adapter.js';
import { ORDER, event, kinds } from './support.js';

describe('refunds', () => {
  const refund = { id: 'r1', order_id: ORDER, amount: 500 };
  test.each<[string, TargetEvent[], string[]]>([
    ['order.updated of the order', [event('e1', 'refund.created', { id: 'r1' }), event('e2', 'order.updated'), event('e3', 'order.refunded')], []],
    ['no order.updated (refund_event_skipped)', [event('e1', 'refund.created', { id: 'r1' }), event('e3', 'order.refunded')], ['order_updated_not_emitted_on_refund']],
    ['order.updated of another order', [event('e2', 'order.updated', { id: 'another-order' })], ['order_updated_not_emitted_on_refund']],
  ])('refundEventFindings: %s', (_name, events, expected) => {
    expect(kinds(refundEventFindings(ORDER, events))).toEqual(expected);
  });

  test.each<[string, Record<string, unknown>[], Record<string, unknown>, number | undefined, string[]]>([
    ['listed with its order and amount', [refund], refund, 500, []],
    ['listed, full refund (no amount asked)', [{ ...refund, amount: 1000 }], refund, undefined, []],
    ['not listed', [{ id: 'r0', order_id: ORDER, amount: 500 }], refund, 500, ['refund_not_listed']],
    ['listed with another amount', [{ ...refund, amount: 499 }], refund, 500, ['refund_listed_wrong']],
    ['listed with another order', [{ ...refund, order_id: 'another-order' }], refund, 500, ['refund_listed_wrong']],
    ['no id from the adapter: the order\'s refund', [{ id: 'r9', order_id: ORDER, amount: 500 }], { amount: 500 }, 500, []],
  ])('refundListingFindings: %s', (_name, items, issued, amount, expected) => {
    expect(kinds(refundListingFindings(items, issued, ORDER, amount))).toEqual(expected);
  });

  test('listedRefund finds by id, else by order', () => {
    expect(listedRefund([{ id: 'r2', order_id: ORDER }, { id: 'r1', order_id: ORDER }], { id: 'r1' }, ORDER)?.id).toBe('r1');
    expect(listedRefund([{ id: 'r2', order_id: 'other' }, { id: 'r3', order_id: ORDER }], {}, ORDER)?.id).toBe('r3');
  });
});
