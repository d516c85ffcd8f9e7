// The cascade judgements of the customer deletion scenario: the customer's subscriptions canceled and
// ended, its seats and license keys revoked (by event or as listed); passing cases and failing ones
// of the exact kind.
import { describe, expect, test } from 'vitest';
import { licenseKeyFindings, revocationEvent, subscriptionCascade } from '../../../checks/stateful/deletion-cascade.js';
import type { TargetEvent } from '../../../core/adapter.js';
import { event, kinds } from './support.js';

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
    ['the platform\'s grant event, the key in its properties', [event('e1', 'benefit_grant.revoked', { id: 'grant-1', is_revoked: true, properties: { license_key_id: KEY, display_key: '****-ABCDEF' } })], KEY, 'license_key_id', true],
    ['the platform\'s grant event of another key', [event('e1', 'benefit_grant.revoked', { id: 'grant-1', is_revoked: true, properties: { license_key_id: 'another-key' } })], KEY, 'license_key_id', false],
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
