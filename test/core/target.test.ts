import { describe, expect, test } from 'vitest';
import { defaultTokenEnv, isLoopback, ROLES } from '../../core/target.js';

describe('target', () => {
  test.each([
    ['http://127.0.0.1:4010', true],
    ['http://127.9.9.9', true],
    ['http://localhost:3000/v1', true],
    ['http://[::1]:8080', true],
    ['https://api.example.com', false],
    ['http://10.0.0.1', false],
    ['http://128.0.0.1', false],
  ])('%s is loopback: %s', (url, want) => expect(isLoopback(new URL(url))).toBe(want));

  test('every role reads its token from CONFORMANCE_<ROLE>_TOKEN by default', () => {
    expect(ROLES.map(defaultTokenEnv)).toContain('CONFORMANCE_OTHER_ORG_TOKEN');
    expect(defaultTokenEnv('customer_session')).toBe('CONFORMANCE_CUSTOMER_SESSION_TOKEN');
    expect(new Set(ROLES.map(defaultTokenEnv)).size).toBe(ROLES.length);
  });
});
