import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { preferredCoding } from '../../server/content-coding.js';

describe('preferredCoding (RFC 9110 section 12.5.3)', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['deflate', undefined],
    ['identity', undefined],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['gzip;q=0, br;q=0', undefined],
    ['*', 'br'],
    ['zstd, *;q=0.1', 'br'],
  ])('%j: %s', (header, coding) => {
    expect(preferredCoding(header)).toBe(coding);
  });
});

describe('preferredCoding on any header text', () => {
  it('never throws and answers br, gzip or nothing', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(fc.constantFrom('br', 'gzip', 'deflate', '*', 'identity', ';q=', '0', '1', '0.5', ',', ' ', ';', 'q', '=', 'x')).map((parts) => parts.join(''))), (header) => {
        expect([undefined, 'br', 'gzip']).toContain(preferredCoding(header));
      }),
      { seed: 20261122, numRuns: 2000 },
    );
  });
});
