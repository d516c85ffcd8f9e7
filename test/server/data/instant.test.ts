import { describe, expect, it } from 'vitest';
import { instantTimestamp, resolveInstant } from '../../../server/data/instant.js';

const NOW = Date.parse('2027-03-31T12:00:00Z');

describe('resolveInstant', () => {
  it.each<[string, string, string]>([
    ['now', 'now', '2027-03-31T12:00:00.000Z'],
    ['an absolute date-time in UTC', '2027-01-31T09:00:00Z', '2027-01-31T09:00:00.000Z'],
    ['an absolute date-time with an offset', '2027-01-31T09:00:00.5+02:00', '2027-01-31T07:00:00.500Z'],
    ['thirty days ago', '-P30D', '2027-03-01T12:00:00.000Z'],
    ['a calendar month ago, clamped to the month end', '-P1M', '2027-02-28T12:00:00.000Z'],
    ['a year and two months ahead', '+P1Y2M', '2028-05-31T12:00:00.000Z'],
    ['two weeks and three days ahead', '+P2W3D', '2027-04-17T12:00:00.000Z'],
    ['hours and minutes ago', '-PT2H30M', '2027-03-31T09:30:00.000Z'],
    ['days and seconds ahead', '+P1DT45S', '2027-04-01T12:00:45.000Z'],
  ])('%s: %s', (_name, text, want) => {
    const resolved = resolveInstant(text, NOW);
    expect(resolved.ok && new Date(resolved.value).toISOString()).toBe(want);
  });

  it.each([
    ['a duration without its sign', 'P30D'],
    ['an empty duration', '-P'],
    ['a T without a time part', '+P1DT'],
    ['a date without a time', '2027-01-31'],
    ['a date-time without an offset', '2027-01-31T09:00:00'],
    ['a day that does not exist', '2027-02-30T09:00:00Z'],
    ['words', 'yesterday'],
  ])('refuses %s: %s', (_name, text) => {
    const resolved = resolveInstant(text, NOW);
    expect(resolved.ok).toBe(false);
    if (!resolved.ok) expect(resolved.error).toContain('RFC 3339 date-time');
  });

  it('gives the stored form', () => {
    expect(instantTimestamp('-PT1S', NOW)).toEqual({ ok: true, value: '2027-03-31T11:59:59.000000Z' });
  });
});
