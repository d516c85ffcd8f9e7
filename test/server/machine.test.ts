import { describe, expect, it } from 'vitest';
import { planTransition, type TransitionTable } from '../../server/machine.js';
import { CUSTOMER_TRANSITIONS } from '../../server/resources/customers/machine.js';
import { SEAT_TRANSITIONS } from '../../server/resources/customer-seats/machine.js';
import { FILE_TRANSITIONS } from '../../server/resources/files/machine.js';
import { LICENSE_KEY_TRANSITIONS } from '../../server/resources/license-keys/machine.js';
import { ORDER_CREATION_EVENTS, ORDER_TRANSITIONS } from '../../server/resources/orders/machine.js';
import { SUBSCRIPTION_TRANSITIONS } from '../../server/resources/subscriptions/machine.js';

const TABLES: [string, TransitionTable<string, string>, readonly string[]][] = [
  ['order', ORDER_TRANSITIONS, ['pending', 'paid']],
  ['subscription', SUBSCRIPTION_TRANSITIONS, ['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused']],
  ['seat', SEAT_TRANSITIONS, ['pending', 'claimed', 'revoked']],
  ['license key', LICENSE_KEY_TRANSITIONS, ['granted', 'revoked']],
  ['file', FILE_TRANSITIONS, ['pending', 'uploaded']],
  ['customer', CUSTOMER_TRANSITIONS, ['active', 'deleted']],
];

/** The one transition that keeps its status: a renewal starts a new period of an active subscription (docs/lifecycle.md). */
const SELF_LOOPS = new Set(['subscription renew']);

describe('transition tables', () => {
  it.each(TABLES)('the %s table names only its states, and no transition leads back to where it starts but a renewal', (name, table, states) => {
    for (const [transitionName, transition] of Object.entries(table)) {
      expect(states).toContain(transition.to);
      for (const from of transition.from) expect(states).toContain(from);
      if (SELF_LOOPS.has(`${name} ${transitionName}`)) expect(transition.from).toEqual([transition.to]);
      else expect(transition.from).not.toContain(transition.to);
    }
  });

  it('states the API description\'s order transition and events', () => {
    expect(ORDER_TRANSITIONS.complete).toEqual({ from: ['pending'], to: 'paid', events: ['order.updated', 'order.paid'] });
    expect(ORDER_CREATION_EVENTS).toEqual(['order.created']);
  });

  it.each<[string, string, boolean]>([
    ['claim', 'pending', true],
    ['claim', 'claimed', false],
    ['claim', 'revoked', false],
    ['revoke', 'pending', true],
    ['revoke', 'claimed', true],
    ['revoke', 'revoked', false],
  ])('seat %s from %s: allowed %s', (name, from, allowed) => {
    const planned = planTransition(SEAT_TRANSITIONS as TransitionTable<string, string>, name, from);
    expect(planned.ok).toBe(allowed);
    if (!planned.ok) expect(planned.error).toEqual({ code: 'TRANSITION_NOT_ALLOWED', transition: name, from, allowed: SEAT_TRANSITIONS[name as 'claim'].from });
  });
});
