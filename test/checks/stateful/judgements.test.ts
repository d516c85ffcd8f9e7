// The pure judgements of the stateful scenarios: order events, webhook deliveries, anonymization
// and benefit sets; each with passing cases and failing ones of the exact kind.
import { Webhook } from 'standardwebhooks';
import { describe, expect, test } from 'vitest';
import { benefitIdsOf, isExactly, sameSet } from '../../../checks/stateful/benefit-sets.js';
import { anonymizationFindings } from '../../../checks/stateful/customer-deletion.js';
import { licenseKeyFindings, revocationEvent, subscriptionCascade } from '../../../checks/stateful/deletion-cascade.js';
import { listedRefund, refundEventFindings, refundListingFindings } from '../../../checks/stateful/refund-events.js';
import { newEvents, orderEventFindings, orderShapeFindings } from '../../../checks/stateful/order-events.js';
import { envelopeOf, signatureFindings, subscriptionFindings, type EndpointDeliveries } from '../../../checks/stateful/webhook-deliveries.js';
import type { TargetEvent } from '../../../core/adapter.js';
import type { ReceivedRequest } from '../../../core/webhook-receiver.js';

const ORDER = '0b7f3c1e-5a2d-4c8e-9f10-2b3c4d5e6f70';
const event = (id: string, type: string, data: Record<string, unknown> = { id: ORDER }): TargetEvent => ({ id, type, timestamp: '2026-06-01T12:00:00Z', data });
const kinds = (findings: { kind: string }[]) => findings.map((f) => f.kind);

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

describe('webhook deliveries', () => {
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const other = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
  let n = 0;
  /** A delivery as the receiver records it, signed with `key` (Standard Webhooks). */
  function delivery(type: string, timestamp = '2026-06-01T12:00:00Z', key: string | null = secret, id = ORDER): ReceivedRequest {
    const body = JSON.stringify({ type, timestamp, data: { id, status: 'paid' } });
    const messageId = `msg_${n++}`;
    const at = new Date();
    const headers: Record<string, string> = { 'webhook-id': messageId, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)) };
    if (key) headers['webhook-signature'] = new Webhook(key).sign(messageId, at, body);
    return { method: 'POST', path: '/hooks/x', headers, body, receivedAt: Date.now() };
  }
  const endpoint = (name: string, events: string[], received: ReceivedRequest[], enabled = true): EndpointDeliveries => ({ name, secret, events, enabled, received });
  const CAUSED = ['order.created', 'order.updated', 'order.paid'];

  test('envelopeOf accepts {type, timestamp, data} only', () => {
    expect(envelopeOf('{"type":"order.paid","timestamp":"2026-06-01T12:00:00Z","data":{}}')).toMatchObject({ type: 'order.paid' });
    for (const body of ['not json', '[]', '{"type":"x","timestamp":"yesterday","data":{}}', '{"type":"x","timestamp":"2026-06-01T12:00:00Z","data":[]}', '{"timestamp":"2026-06-01T12:00:00Z","data":{}}']) expect(envelopeOf(body)).toBeUndefined();
  });

  test.each<[string, ReceivedRequest[], string[]]>([
    ['signed deliveries', [delivery('order.created'), delivery('order.paid')], []],
    ['an unsigned delivery', [delivery('order.created', undefined, null)], ['webhook_signature_invalid']],
    ['a delivery signed with another key', [delivery('order.created', undefined, other)], ['webhook_signature_invalid']],
    ['a body that is no envelope', [{ ...delivery('order.created'), body: '{"hello":1}' }], ['webhook_envelope_malformed', 'webhook_signature_invalid']],
  ])('signatureFindings: %s', (_name, received, expected) => {
    expect(kinds(signatureFindings([endpoint('subscribed', CAUSED, received)]))).toEqual(expected);
  });

  test.each<[string, EndpointDeliveries[], string[]]>([
    ['each event at its subscribers only', [endpoint('subscribed', ['order.created', 'order.paid'], [delivery('order.created'), delivery('order.paid', '2026-06-01T12:00:01Z')]), endpoint('updates', ['order.updated'], [delivery('order.updated')]), endpoint('disabled', CAUSED, [], false)], []],
    ['a disabled endpoint delivered to', [endpoint('disabled', CAUSED, [delivery('order.created')], false)], ['disabled_endpoint_delivered']],
    ['an unsubscribed kind delivered', [endpoint('updates', ['order.updated'], [delivery('order.updated'), delivery('checkout.created')])], ['unsubscribed_event_delivered']],
    ['a subscribed event missing', [endpoint('subscribed', ['order.created', 'order.paid'], [delivery('order.created')])], ['subscribed_event_not_delivered']],
    ["another order's event does not count", [endpoint('updates', ['order.updated'], [delivery('order.updated', undefined, secret, 'another-order')])], ['subscribed_event_not_delivered']],
    ['order.paid stamped before order.created', [endpoint('subscribed', ['order.created', 'order.paid'], [delivery('order.paid', '2026-06-01T11:00:00Z'), delivery('order.created', '2026-06-01T12:00:00Z')])], ['order_paid_before_created']],
  ])('subscriptionFindings: %s', (_name, endpoints, expected) => {
    expect(kinds(subscriptionFindings(endpoints, ORDER, CAUSED))).toEqual(expected);
  });
});

describe('anonymizationFindings', () => {
  const before = { id: 'c1', email: 'ada@example.com', name: 'Ada', billing_name: null, billing_address: { country: 'FR' }, tax_id: null };
  test.each<[string, Record<string, unknown>, string[]]>([
    ['every personal field replaced or removed', { id: 'c1', email: 'x@anonymized.invalid', name: null, billing_name: null, billing_address: null, tax_id: null }, []],
    ['the email kept', { ...before, name: null, billing_address: null }, ['personal_data_kept']],
    ['the address kept (compared as JSON)', { ...before, email: 'x@y.invalid', name: null, billing_address: { country: 'FR' } }, ['personal_data_kept']],
    ['fields empty before are not judged', { id: 'c1', email: 'x@y.invalid', name: 'Someone', billing_name: null, billing_address: null, tax_id: null }, []],
  ])('%s', (_name, after, expected) => {
    expect(kinds(anonymizationFindings(before, after))).toEqual(expected);
  });
});

describe('benefit sets', () => {
  test.each<[string, string[], string[], boolean, boolean]>([
    ['same ids, other order and case', ['A', 'b'], ['b', 'a'], true, true],
    ['a duplicate in the product', ['a', 'b', 'a'], ['a', 'b'], true, false],
    ['one missing', ['a'], ['a', 'b'], false, false],
    ['one more', ['a', 'b', 'c'], ['a', 'b'], false, false],
  ])('%s', (_name, ids, wanted, same, exactly) => {
    expect(sameSet(ids, wanted)).toBe(same);
    expect(isExactly(ids, wanted)).toBe(exactly);
  });

  test('benefitIdsOf reads the ids of a product, lower-cased, and [] without benefits', () => {
    expect(benefitIdsOf({ benefits: [{ id: 'AB' }, { id: 'cd' }, { nope: 1 }] })).toEqual(['ab', 'cd']);
    expect(benefitIdsOf({})).toEqual([]);
  });
});

describe('subscriptionCascade', () => {
  const sub = (id: string, status: string, ended_at: string | null = null) => ({ id, status, ended_at, cancel_at_period_end: false });
  const at = '2026-06-01T12:00:00Z';

  test.each<[string, Record<string, unknown>[], Record<string, unknown>[], string[], string[]]>([
    ['every status canceled and ended', [sub('a', 'active'), sub('t', 'trialing'), sub('p', 'past_due')], [sub('a', 'canceled', at), sub('t', 'canceled', at), sub('p', 'canceled', at)], [], ['active→canceled', 'trialing→canceled', 'past_due→canceled']],
    ['only active judged: others unchanged pass, and are no change', [sub('a', 'active'), sub('t', 'trialing')], [sub('a', 'canceled', at), sub('t', 'trialing')], [], ['active→canceled']],
    ['active left active (no_cascade_on_delete)', [sub('a', 'active')], [sub('a', 'active')], ['subscription_not_canceled'], []],
    ['active canceled at period end only', [sub('a', 'active')], [{ ...sub('a', 'active'), cancel_at_period_end: true }], ['subscription_not_canceled'], []],
    ['canceled without ended_at: a finding, no change', [sub('a', 'active')], [sub('a', 'canceled')], ['subscription_not_canceled'], []],
    ['another status change is a change, never a finding', [sub('i', 'incomplete')], [sub('i', 'incomplete_expired', at)], [], ['incomplete→incomplete_expired']],
    ['a subscription no longer listed cannot be judged', [sub('a', 'active')], [], [], []],
    ['a subscription not created by the scenario is ignored', [sub('x', 'active')], [sub('x', 'active')], [], []],
  ])('%s', (_name, before, after, findings, changes) => {
    const ids = before.map((item) => item.id as string).filter((id) => id !== 'x');
    const cascade = subscriptionCascade(ids, before, after);
    expect(kinds(cascade.findings)).toEqual(findings);
    expect(cascade.changes.map((c) => `${c.from}→${c.to}`)).toEqual(changes);
  });
});

describe('revocations', () => {
  const SEAT = 'seat-1';
  const KEY = 'key-1';
  test.each<[string, TargetEvent[], string, string | undefined, boolean]>([
    ['the record itself, revoked', [event('e1', 'customer_seat.revoked', { id: SEAT, status: 'revoked' })], SEAT, undefined, true],
    ['the record, but not revoked', [event('e1', 'customer_seat.claimed', { id: SEAT, status: 'claimed' })], SEAT, undefined, false],
    ['another record revoked', [event('e1', 'customer_seat.revoked', { id: 'seat-2', status: 'revoked' })], SEAT, undefined, false],
    ['a grant event naming the key', [event('e1', 'benefit_grant.revoked', { license_key_id: KEY, revoked_at: '2026-06-01T12:00:00Z' })], KEY, 'license_key_id', true],
    ['a grant event naming the key, of another kind', [event('e1', 'benefit_grant.updated', { license_key_id: KEY })], KEY, 'license_key_id', false],
    ['a grant event naming the key, field not asked for', [event('e1', 'benefit_grant.revoked', { license_key_id: KEY })], KEY, undefined, false],
  ])('revocationEvent: %s', (_name, events, id, field, found) => {
    expect(revocationEvent(events, id, field) !== undefined).toBe(found);
  });

  test.each<[string, Record<string, unknown> | undefined, string[]]>([
    ['no longer listed', undefined, []],
    ['listed revoked', { id: KEY, status: 'revoked' }, []],
    ['listed granted', { id: KEY, status: 'granted' }, ['license_key_still_granted']],
  ])('licenseKeyFindings: %s', (_name, key, expected) => {
    expect(kinds(licenseKeyFindings(key))).toEqual(expected);
  });
});

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
