import { describe, expect, test } from 'vitest';
import { curlSteps, secretsOf, toCurl } from '../../core/curl.js';

const request = { method: 'POST', url: 'http://127.0.0.1:4010/v1/files/?a=1&b=it%27s', headers: { authorization: 'Bearer s3cret', 'content-type': 'application/json' }, body: '{"name":"it\'s"}' };

describe('curl reproducers', () => {
  test('a request as one curl command: method, quoted URL, headers, body; a secret as the variable that holds it', () => {
    const curl = toCurl(request, [{ value: 's3cret', env: 'CONFORMANCE_ADMIN_TOKEN' }]);
    expect(curl).toMatch(/^curl -sS -i -X POST /);
    expect(curl).toContain('${CONFORMANCE_ADMIN_TOKEN}');
    expect(curl).not.toContain('s3cret');
    expect(curl).toContain("'http://127.0.0.1:4010/v1/files/?a=1&b=it%27s'");
  });

  test('a GET names no method; steps are one curl per request', () => {
    expect(toCurl({ method: 'GET', url: 'http://x/v1/products/', headers: {} })).not.toContain('-X');
    expect(curlSteps([request, { method: 'GET', url: 'http://x/', headers: {} }])).toHaveLength(2);
  });

  test('a target\'s secrets: each role\'s token with its variable, the default name where the config gives none', () => {
    const target = { baseUrl: 'http://x', kind: 'remote' as const, roles: { admin: { token: 'a', env: 'MY_ADMIN' }, reader: { token: 'r' } }, fixtures: {}, requestsPerSecond: null, timeoutMs: 1, readOnly: false };
    expect(secretsOf(target)).toEqual([{ value: 'a', env: 'MY_ADMIN' }, { value: 'r', env: 'CONFORMANCE_READER_TOKEN' }]);
  });
});
