import { describe, expect, test } from 'vitest';
import { compactJson, formatDuration, groupFailures, notApiExchangeLine, notApiTrafficHeadline, plural, replayLine, truncate } from '../../reporters/format.js';
import { cell, failure, notApiTraffic } from './fixtures/cells.js';

describe('compactJson', () => {
  const cycle: Record<string, unknown> = {};
  cycle['self'] = cycle;
  const table: [string, { given: [unknown, number?]; want: string }][] = [
    ['object on one line', { given: [{ a: [1, 2], b: 'x' }], want: '{"a":[1,2],"b":"x"}' }],
    ['cut with an ellipsis', { given: ['abcdefghij', 6], want: '"abcd…' }],
    ['undefined', { given: [undefined], want: 'undefined' }],
    ['a cycle', { given: [cycle], want: '[object Object]' }],
  ];
  test.each(table)('%s', (_name, { given, want }) => {
    expect(compactJson(...given)).toBe(want);
  });
});

describe('small formatters', () => {
  test.each([
    [truncate('abc', 3), 'abc'],
    [truncate('abcd', 3), 'ab…'],
    [replayLine({ seed: 42, path: '0:1' }), 'seed 42 path 0:1'],
    [replayLine({ seed: 7 }), 'seed 7'],
    [formatDuration(3210), '3.2s'],
    [formatDuration(49), '0.0s'],
    [formatDuration(125_000), '2m 5.0s'],
    [plural(1, 'error'), '1 error'],
    [plural(2, 'error'), '2 errors'],
  ])('%s', (given, want) => {
    expect(given).toBe(want);
  });
});

describe('groupFailures', () => {
  test('groups by check, operation and kind in first-seen order', () => {
    const a1 = failure({ caseId: 'products:list#1' });
    const a2 = failure({ caseId: 'products:list#2' });
    const b = failure({ kind: 'other_kind' });
    const c = failure({ operationId: 'orders:list' });
    const groups = groupFailures([cell('products:list', 'status_code_conformance', { failures: [a1, b, a2] }), cell('orders:list', 'status_code_conformance', { failures: [c] })]);
    expect(groups.map((g) => [g.key, g.first.caseId, g.count])).toEqual([
      ['status_code_conformance|products:list|undocumented_status_code', 'products:list#1', 2],
      ['status_code_conformance|products:list|other_kind', 'products:list#1', 1],
      ['status_code_conformance|orders:list|undocumented_status_code', 'orders:list#1', 1],
    ]);
  });
});

describe('not API traffic', () => {
  test.each([
    ['one reason', notApiTraffic(3), "3 exchanges, not judged: 3 a browser's page, script, style, image or font"],
    ['two reasons, the commonest first', notApiTraffic(8), "8 exchanges, not judged: 6 a browser's page, script, style, image or font, 2 another origin than the API's"],
    ['one exchange', notApiTraffic(1), "1 exchange, not judged: 1 a browser's page, script, style, image or font"],
  ])('the headline of %s', (_name, traffic, want) => {
    expect(notApiTrafficHeadline(traffic)).toBe(want);
  });

  test('one exchange as a line: its number, method, URL and why', () => {
    expect(notApiExchangeLine(notApiTraffic(4).listed[3]!)).toBe("#4 POST https://analytics.example.net/collect?… — another origin than the API's (http://127.0.0.1:4010)");
  });
});
