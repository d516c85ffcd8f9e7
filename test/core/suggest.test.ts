// "Did you mean": the edit distance, the nearest known name and the message for unknown names.
import { describe, expect, test } from 'vitest';
import { didYouMean, editDistance, nearest, unknownNamesMessage } from '../../core/suggest.js';

describe('editDistance', () => {
  test.each([
    ['', '', 0],
    ['abc', 'abc', 0],
    ['prodcut_id', 'product_id', 1], // a swap of neighbours is one edit
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
  ] as const)('%s → %s is %i', (a, b, want) => {
    expect(editDistance(a, b)).toBe(want);
    expect(editDistance(b, a)).toBe(want);
  });
});

describe('nearest', () => {
  const known = ['product_id', 'order_id', 'customer_id', 'requestsPerSecond', 'timeoutMs'];
  test.each([
    ['prodcut_id', 'product_id'],
    ['ordr_id', 'order_id'],
    ['requestPerSecond', 'requestsPerSecond'],
    ['timeoutms', 'timeoutMs'],
    ['foo', undefined],
    ['zzzzzzzzzz', undefined],
  ] as const)('%s → %s', (word, want) => expect(nearest(word, known)).toBe(want));

  test('didYouMean says nothing when nothing is close', () => {
    expect(didYouMean('prodcut_id', known)).toBe('; did you mean "product_id"?');
    expect(didYouMean('foo', known)).toBe('');
  });
});

describe('unknownNamesMessage', () => {
  test('names each unknown name, its nearest known one, then the known names', () => {
    expect(unknownNamesMessage('check', ['foo', 'tenant_isolaton'], ['tenant_isolation', 'not_a_server_error'])).toBe(
      'unknown checks "foo", "tenant_isolaton" (did you mean "tenant_isolation"?); checks: tenant_isolation, not_a_server_error',
    );
    expect(unknownNamesMessage('operation', ['nope:list'], ['orders:list'], false)).toBe('unknown operation "nope:list"');
  });
});
