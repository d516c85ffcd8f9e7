import { describe, expect, it } from 'vitest';
import { formatTimestamp, parseTimestamp, withoutFraction } from '../../server/timestamps.js';

describe('timestamps', () => {
  it.each<[string, number | undefined]>([
    ['2026-03-01T10:00:00.123456Z', Date.UTC(2026, 2, 1, 10) * 1000 + 123456],
    ['2026-03-01T10:00:00Z', Date.UTC(2026, 2, 1, 10) * 1000],
    ['2026-03-01T12:00:00.5+02:00', Date.UTC(2026, 2, 1, 10) * 1000 + 500000],
    ['2026-03-01T10:00:00.1234567891Z', Date.UTC(2026, 2, 1, 10) * 1000 + 123456],
    ['2016-12-31T23:59:60Z', Date.UTC(2017, 0, 1) * 1000],
    ['2026-03-01', undefined],
    ['not a date', undefined],
  ])('parses %s', (text, micros) => {
    expect(parseTimestamp(text)).toBe(micros);
  });

  it('formats with six fractional digits and round-trips', () => {
    const micros = Date.UTC(2026, 2, 1, 10) * 1000 + 7;
    expect(formatTimestamp(micros)).toBe('2026-03-01T10:00:00.000007Z');
    expect(parseTimestamp(formatTimestamp(micros))).toBe(micros);
  });

  it('drops the fraction for API version 2026-04', () => {
    expect(withoutFraction('2026-03-01T10:00:00.123456Z')).toBe('2026-03-01T10:00:00Z');
  });
});
