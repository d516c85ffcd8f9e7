// introspection_times_in_seconds on hand-made introspections: an active token's iat and exp in
// seconds around the answer's Date pass, within the minute of clock skew too; times in
// milliseconds, fractions, an exp not after iat and an active token past its exp fail with the
// exact kind; an inactive answer, an answer without a readable Date and times that are no numbers
// are not judged; and its applicability.
import { describe, expect, test } from 'vitest';
import { introspectionTimesInSeconds, MAX_LIFETIME_SECONDS } from '../../checks/introspection-times-in-seconds.js';
import type { Exchange } from '../../core/types.js';
import { testApplicability } from './cases.js';
import { context, exchange } from './fixtures.js';

/** The answer's Date header, and the same instant in seconds since the epoch. */
const DATE = 'Sun, 29 Nov 2026 07:13:21 GMT';
const NOW = Date.parse(DATE) / 1000;
const NOT_SECONDS = ['introspection_times_not_seconds'];

/** An introspection answered `status` with `body` (an active access token issued now for an hour, `fields` override), with these response headers. */
function introspection(fields: Record<string, unknown> = {}, headers: Record<string, string> = { date: DATE }, status = 200): Exchange {
  const body = { active: true, client_id: 'polar_ci_1', token_type: 'access_token', scope: 'products:read', sub_type: 'user', sub: 'u', iat: NOW, exp: NOW + 3600, ...fields };
  const made = exchange({ operationId: 'oauth2:introspect', status, body: status === 200 ? body : { error: 'invalid_client' } });
  const request = { method: 'POST', url: 'http://127.0.0.1:1/v1/oauth2/introspect', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=polar_at_u_x&client_id=polar_ci_1&client_secret=s' };
  return { ...made, request, response: { ...made.response!, headers: { ...made.response!.headers, ...headers } } };
}

describe('introspection_times_in_seconds', () => {
  // [name, exchange, expected kinds ([] = passes)]
  test.each<[string, Exchange, string[]]>([
    ['a token issued now for an hour passes', introspection(), []],
    ['a token issued an hour ago, expiring in a second, passes', introspection({ iat: NOW - 3599, exp: NOW + 1 }), []],
    ['a refresh token living thirty days passes', introspection({ token_type: 'refresh_token', exp: NOW + 30 * 86_400 }), []],
    ['iat 59 s after the Date passes (clock skew)', introspection({ iat: NOW + 59, exp: NOW + 3659 }), []],
    ['iat 61 s after the Date fails', introspection({ iat: NOW + 61, exp: NOW + 3661 }), NOT_SECONDS],
    ['exp 59 s before the Date passes (clock skew)', introspection({ iat: NOW - 3659, exp: NOW - 59 }), []],
    ['an active token 61 s past its exp fails', introspection({ iat: NOW - 3661, exp: NOW - 61 }), NOT_SECONDS],
    ['iat in milliseconds fails', introspection({ iat: NOW * 1000 }), NOT_SECONDS],
    ['iat and exp in milliseconds fail', introspection({ iat: NOW * 1000, exp: (NOW + 3600) * 1000 }), NOT_SECONDS],
    ['exp ten years and a second after iat fails (not seconds)', introspection({ exp: NOW + MAX_LIFETIME_SECONDS + 1 }), NOT_SECONDS],
    ['exp ten years after iat passes', introspection({ exp: NOW + MAX_LIFETIME_SECONDS }), []],
    ['exp equal to iat fails', introspection({ iat: NOW, exp: NOW }), NOT_SECONDS],
    ['a fraction of a second fails (integers documented)', introspection({ iat: NOW + 0.5 }), NOT_SECONDS],
    ['an inactive answer is not judged', introspection({ active: false, iat: NOW * 1000, exp: 0 }), []],
    ['an answer whose active is "true" is not judged', introspection({ active: 'true', iat: NOW * 1000 }), []],
    ['an answer without a Date header is not judged', introspection({ iat: NOW * 1000 }, { date: '' }), []],
    ['an answer with an unreadable Date header is not judged', introspection({ iat: NOW * 1000 }, { date: 'now' }), []],
    ['times that are no numbers are the schema\'s', introspection({ iat: String(NOW), exp: String(NOW + 3600) }), []],
    ['an answer without iat is not judged', introspection({ iat: undefined }), []],
    ['an error answer is not judged', introspection({}, { date: DATE }, 401), []],
  ])('%s', async (_name, made, expected) => {
    const findings = introspectionTimesInSeconds.run(await context('oauth2:introspect'), made, []);
    expect(findings.map((f) => f.kind)).toEqual(expected);
    for (const f of findings) expect(f.message.length).toBeGreaterThan(0);
  });
});

describe('applicability', () => {
  testApplicability([
    [introspectionTimesInSeconds, 'oauth2:introspect', true],
    [introspectionTimesInSeconds, 'oauth2:token', 'not the token introspection (POST /v1/oauth2/introspect)'],
  ]);
});
