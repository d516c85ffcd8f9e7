// The model of the model-based suites: built on the reference's transition tables, judging only
// what the API description states; and the commands the orders and seats families draw. The model
// paths a failure prints: test/engine/stateful/run-family.test.ts.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ordersFamily } from '../../../engine/stateful/orders.js';
import { seatsFamily } from '../../../engine/stateful/seats.js';
import {
  after,
  allows,
  claimOutcome,
  completedStatus,
  completionEvents,
  deletedCustomer,
  pick,
  refundEvents,
  replacedBenefits,
  statusKnown,
  withPart,
  type CustomerModel,
  type OrderModel,
  type SeatModel,
} from '../../../engine/stateful/model.js';
import type { CommandEnv } from '../../../engine/stateful/real.js';
import { ORDER_TRANSITIONS } from '../../../server/resources/orders/machine.js';
import { SEAT_TRANSITIONS } from '../../../server/resources/customer-seats/machine.js';

const order = (status: OrderModel['status'], refunded: OrderModel['refunded'] = 'none'): OrderModel => ({ label: 'o1', status, invoiced: false, refunded });
const seat = (status: SeatModel['status'], expiresAtMs: number | null = 1000): SeatModel => ({ label: 's1', status, expiresAtMs, sessionAtMs: null });

describe('transitions from the tables', () => {
  test.each([
    ['complete from pending', ORDER_TRANSITIONS, 'complete', 'pending', 'paid'],
    ['complete from paid', ORDER_TRANSITIONS, 'complete', 'paid', undefined],
    ['claim from pending', SEAT_TRANSITIONS, 'claim', 'pending', 'claimed'],
    ['claim from claimed', SEAT_TRANSITIONS, 'claim', 'claimed', undefined],
    ['revoke from claimed', SEAT_TRANSITIONS, 'revoke', 'claimed', 'revoked'],
  ] as const)('%s', (_name, table, name, state, want) => {
    expect(after(table, name as never, state)).toBe(want);
    expect(allows(table, name as never, state)).toBe(want !== undefined);
  });
});

describe('orders', () => {
  test('a pending order completes to paid with the events the description names; a paid one does not complete', () => {
    expect(completedStatus(order('pending'))).toBe('paid');
    expect(completedStatus(order('paid'))).toBeUndefined();
    expect(completionEvents()).toEqual(['order.updated', 'order.paid']);
  });
  test('a refund emits order.updated only (of the described events) and leaves the status unknown', () => {
    expect(refundEvents()).toEqual(['order.updated']);
    expect(statusKnown(order('paid'))).toBe(true);
    expect(statusKnown(order('paid', 'partial'))).toBe(false);
  });
});

describe('seats', () => {
  test.each([
    ['a pending seat before its expiry is claimed', seat('pending'), 0, 'claimed'],
    ['a pending seat at its expiry is refused as expired', seat('pending'), 1000, 'expired'],
    ['a seat without a known expiry never expires in the model', seat('pending', null), 10 ** 12, 'claimed'],
    ['a claimed seat is refused as reused', seat('claimed'), 0, 'reused'],
    ['a claimed seat past expiry is still reused', seat('claimed'), 5000, 'reused'],
    ['a revoked seat is refused', seat('revoked'), 0, 'revoked'],
  ] as const)('%s', (_name, given, clock, want) => {
    expect(claimOutcome(given, clock)).toBe(want);
  });
});

describe('product benefits', () => {
  const model = { candidates: 4, granted: [0, 2], foreign: true };
  test.each([
    ['duplicates collapse, order aside', [3, 1, 3], false, [1, 3]],
    ['the empty list grants nothing', [], false, []],
    ['a foreign benefit leaves the set as it was', [1], true, [0, 2]],
  ] as const)('%s', (_name, picks, foreign, want) => {
    expect(replacedBenefits(model, picks, foreign)).toEqual(want);
  });
});

describe('customers', () => {
  const customer: CustomerModel = {
    label: 'c1',
    state: 'active',
    anonymized: false,
    subscriptions: [
      { label: 'c1.sub1', status: 'active' },
      { label: 'c1.sub2', status: 'trialing' },
    ],
  };
  test('deletion deletes, cancels the active subscriptions and leaves the others unjudged', () => {
    expect(deletedCustomer(customer, true)).toEqual({
      ...customer,
      state: 'deleted',
      anonymized: true,
      subscriptions: [
        { label: 'c1.sub1', status: 'canceled' },
        { label: 'c1.sub2', status: 'unknown' },
      ],
    });
  });
});

describe('files', () => {
  test('a file is uploaded once its last part arrives, not before', () => {
    const file = { label: 'f1', state: 'pending' as const, uploaded: [false, false] };
    const one = withPart(file, 1);
    expect(one).toEqual({ label: 'f1', state: 'pending', uploaded: [false, true] });
    expect(withPart(one, 0)).toEqual({ label: 'f1', state: 'uploaded', uploaded: [true, true] });
  });
});

test('pick takes an index modulo the list, and nothing from an empty one', () => {
  expect(pick(['a', 'b'], 3)).toBe('b');
  expect(pick([], 3)).toBeUndefined();
});

describe('command arbitraries', () => {
  // A target with every role and an adapter with every capability, as far as the arbitraries look.
  const env = {
    target: { roles: { customer_session: { token: 't' } }, fixtures: { customer_id: 'c' } },
    adapter: { name: 'fake', advanceClock: async () => undefined, refundOrder: async () => ({}) },
  } as unknown as CommandEnv;
  const names = (family: typeof ordersFamily | typeof seatsFamily, seed: number) =>
    fc.sample(fc.commands(family.commands(env) as fc.Arbitrary<fc.AsyncCommand<object, unknown>>[], { maxCommands: 20 }), { seed, numRuns: 5 }).map((cmds) => [...cmds].map(String));

  test('the same seed draws the same commands', () => {
    expect(names(ordersFamily, 7)).toEqual(names(ordersFamily, 7));
    expect(names(seatsFamily, 7)).toEqual(names(seatsFamily, 7));
  });
  test('every command of a family can be drawn, refunds and clock moves only with the capability', () => {
    const drawn = new Set(names(ordersFamily, 1).concat(names(ordersFamily, 2), names(ordersFamily, 3)).flat().map((n) => n.replace(/\(.*$/, '')));
    expect([...drawn].sort()).toEqual(['completeOrder', 'createOrder', 'generateInvoice', 'getInvoice', 'getReceipt', 'refundOrder', 'updateBilling']);
    const bare = { ...env, adapter: { name: 'bare' } } as unknown as CommandEnv;
    expect(ordersFamily.commands(bare)).toHaveLength(ordersFamily.commands(env).length - 1);
    expect(seatsFamily.commands(bare)).toHaveLength(seatsFamily.commands(env).length - 2);
  });
});
