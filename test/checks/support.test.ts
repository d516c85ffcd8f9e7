// The helpers the checks share for reading an answer's time, a request's fields and a secret's identity.
import { describe, expect, test } from 'vitest';
import { answerDateMs, requestFields, secretIdentity } from '../../checks/support.js';
import type { Exchange } from '../../core/types.js';

const exchange = (request: Partial<Exchange['request']>, headers: Record<string, string> = {}): Exchange => ({
  case: { id: 'c#1', operationId: 'x', pathParams: {}, query: {}, headers: {}, role: null },
  operationId: 'x',
  request: { method: 'POST', url: 'http://127.0.0.1:1/x', headers: {}, ...request },
  response: { status: 200, headers, body: '', elapsedMs: 1 },
});

describe('answerDateMs', () => {
  test.each<[string, Record<string, string>, number | undefined]>([
    ['an IMF-fixdate', { date: 'Sun, 22 Nov 2026 09:00:00 GMT' }, Date.parse('2026-11-22T09:00:00Z')],
    ['no Date header', {}, undefined],
    ['a Date that does not parse', { date: 'yesterday' }, undefined],
  ])('%s', (_name, headers, want) => {
    expect(answerDateMs(exchange({}, headers))).toBe(want);
  });
});

describe('requestFields', () => {
  test.each<[string, Partial<Exchange['request']>, Record<string, unknown>]>([
    ['a JSON object', { headers: { 'content-type': 'application/json' }, body: '{"a":1,"b":[2]}' }, { a: 1, b: [2] }],
    ['a form', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=t&client_id=c' }, { token: 't', client_id: 'c' }],
    ['no body', {}, {}],
    ['a JSON array', { headers: { 'content-type': 'application/json' }, body: '[1]' }, {}],
    ['no JSON at all', { headers: { 'content-type': 'application/json' }, body: '{' }, {}],
  ])('%s', (_name, request, want) => {
    expect(requestFields(exchange(request))).toEqual(want);
  });
});

describe('secretIdentity', () => {
  test.each<[string, string, string]>([
    ['a plain token is itself', 'polar_at_u_abc', 'polar_at_u_abc'],
    ['a placeholder alone', '[redacted:CONFORMANCE_TOKEN_3]', '[redacted:CONFORMANCE_TOKEN_3]'],
    ['a placeholder padded to the token\'s length', '[redacted:CONFORMANCE_TOKEN_3]xxxxxxxx', '[redacted:CONFORMANCE_TOKEN_3]'],
    ['a lower-case look-alike is no placeholder', '[redacted:token]xx', '[redacted:token]xx'],
  ])('%s', (_name, value, want) => {
    expect(secretIdentity(value)).toBe(want);
  });
});
