import { describe, expect, test } from 'vitest';
import { apiCase, urlCase } from '../../../engine/stateful/request.js';

describe('the one request type of the stateful engine', () => {
  test.each([
    ['nothing: no body, no credentials', {}, { headers: {}, role: null, pathParams: {}, query: {} }],
    ['a role and path values', { role: 'admin' as const, pathParams: { id: 'o1' } }, { role: 'admin', pathParams: { id: 'o1' } }],
    ['a bearer token that is no role\'s', { bearer: 'tok' }, { headers: { authorization: 'Bearer tok' }, role: null }],
    ['a JSON body', { json: { a: 1 } }, { body: { contentType: 'application/json', text: '{"a":1}' } }],
    ['a form body', { form: { grant_type: 'authorization_code', code: 'c d' } }, { body: { contentType: 'application/x-www-form-urlencoded', text: 'grant_type=authorization_code&code=c+d' } }],
  ])('%s', (_name, request, want) => {
    expect(apiCase('s#1', 'orders:get', request)).toMatchObject({ id: 's#1', operationId: 'orders:get', ...want });
  });

  test('a URL the target handed out: its headers and body only, no role', () => {
    expect(urlCase('s#2', 'PUT /upload', { method: 'PUT', url: 'http://x/upload', headers: { 'content-type': 'text/plain' }, body: { contentType: 'text/plain', text: 'abc' } })).toEqual({
      id: 's#2',
      operationId: 'PUT /upload',
      pathParams: {},
      query: {},
      headers: { 'content-type': 'text/plain' },
      role: null,
      body: { contentType: 'text/plain', text: 'abc' },
    });
  });
});
