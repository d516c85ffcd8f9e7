// token_lifetime_matches_introspection on hand-made pairs (a token answer, then its client's
// introspection of a token it issued): an introspection that agrees passes, within the minute of
// clock skew too; an expires_in in milliseconds, another client, scope or token type fail with the
// exact kind; an inactive introspection, a refresh token's times, a token answer without a Date
// and error answers are not judged; and its applicability.
import { describe, expect, test } from 'vitest';
import { tokenLifetimeMatchesIntrospection } from '../../checks/token-lifetime-matches-introspection.js';
import type { Exchange } from '../../core/types.js';
import { context, exchange } from './fixtures.js';

/** The token answer's Date header, and the same instant in seconds since the epoch. */
const DATE = 'Sun, 29 Nov 2026 07:13:21 GMT';
const NOW = Date.parse(DATE) / 1000;
const CLIENT = 'polar_ci_35e85325b90a4d3c09491e';
const ACCESS = 'polar_at_u_YaqS3HAAHNczeSwula3vd2NXzinbxoYVyBMCotNe3aA';
const REFRESH = 'polar_rt_u_8gqG7Osrv-BlzUVxFY6pCHQ-V4KBBjF0IZ4pokVapTY';
const SCOPE = 'openid products:read orders:read';
const MISMATCH = ['token_introspection_mismatch'];
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** An exchange of `operationId` sent as a form, answered `status` with `body` and these response headers. */
function posted(operationId: string, path: string, form: Record<string, string>, body: unknown, headers: Record<string, string>, status: number): Exchange {
  const made = exchange({ operationId, status, body });
  const request = { method: 'POST', url: `http://127.0.0.1:1${path}`, headers: FORM, body: new URLSearchParams(form).toString() };
  return { ...made, request, response: { ...made.response!, headers: { ...made.response!.headers, ...headers } } };
}

/** A token answer of the authorization_code grant asked by `client` (none: in a Basic header), an hour's access token; `fields` override. */
function issued(fields: Record<string, unknown> = {}, options: { client?: string | null; date?: string; status?: number } = {}): Exchange {
  const client = options.client === undefined ? CLIENT : options.client;
  const form = { grant_type: 'authorization_code', code: 'polar_ac_x', redirect_uri: 'https://app.example.com/oauth/callback', ...(client === null ? {} : { client_id: client, client_secret: 's' }) };
  const body = options.status === undefined ? { access_token: ACCESS, token_type: 'Bearer', expires_in: 3600, scope: SCOPE, refresh_token: REFRESH, ...fields } : { error: 'invalid_grant' };
  return posted('oauth2:token', '/v1/oauth2/token', form, body, options.date === undefined ? { date: DATE } : options.date === '' ? {} : { date: options.date }, options.status ?? 200);
}

/** The introspection of `token` by CLIENT: active, as the token answer said, unless `fields` say otherwise. */
function introspected(fields: Record<string, unknown> = {}, token = ACCESS, status = 200): Exchange {
  const body = status === 200 ? { active: true, client_id: CLIENT, token_type: 'access_token', scope: SCOPE, sub_type: 'user', sub: 'u', iat: NOW, exp: NOW + 3600, ...fields } : { error: 'invalid_client' };
  return posted('oauth2:introspect', '/v1/oauth2/introspect', { token, client_id: CLIENT, client_secret: 's' }, body, { date: 'Sun, 29 Nov 2026 07:13:22 GMT' }, status);
}

describe('token_lifetime_matches_introspection', () => {
  // [name, token answer, introspection, expected kinds ([] = passes)]
  test.each<[string, Exchange, Exchange, string[]]>([
    ['an introspection that agrees passes', issued(), introspected(), []],
    ['exp 59 s after the answer plus expires_in passes (clock skew)', issued(), introspected({ exp: NOW + 3600 + 59 }), []],
    ['exp 59 s before it passes (clock skew)', issued(), introspected({ exp: NOW + 3600 - 59 }), []],
    ['exp two minutes later fails', issued(), introspected({ exp: NOW + 3720 }), MISMATCH],
    ['expires_in in milliseconds fails', issued({ expires_in: 3_600_000 }), introspected(), MISMATCH],
    ['expires_in in minutes fails', issued({ expires_in: 60 }), introspected(), MISMATCH],
    ['exp in milliseconds fails', issued(), introspected({ exp: (NOW + 3600) * 1000 }), MISMATCH],
    ['the scope in another order passes', issued(), introspected({ scope: 'orders:read openid  products:read' }), []],
    ['another scope fails', issued(), introspected({ scope: 'openid products:read' }), MISMATCH],
    ['another client fails', issued(), introspected({ client_id: 'polar_ci_other' }), MISMATCH],
    ['the access token introspected as a refresh token fails', issued(), introspected({ token_type: 'refresh_token' }), MISMATCH],
    ['an introspection without token_type, scope or client_id is not judged on them', issued(), introspected({ token_type: undefined, scope: undefined, client_id: undefined }), []],
    ['an inactive introspection is not judged', issued({ expires_in: 3_600_000 }), introspected({ active: false, client_id: undefined, exp: undefined }), []],
    ['the refresh token\'s lifetime is not the access token\'s', issued(), introspected({ token_type: 'refresh_token', exp: NOW + 30 * 86_400 }, REFRESH), []],
    ['the refresh token of another client fails', issued(), introspected({ token_type: 'refresh_token', client_id: 'polar_ci_other' }, REFRESH), MISMATCH],
    ['a token answer without a Date header is not judged on times', issued({ expires_in: 3_600_000 }, { date: '' }), introspected(), []],
    ['a token answer with an unreadable Date header is not judged on times', issued({ expires_in: 3_600_000 }, { date: 'soon' }), introspected(), []],
    ['a client authenticated without client_id in the form is not judged on it', issued({}, { client: null }), introspected({ client_id: 'polar_ci_other' }), []],
    ['a redacted recording: the placeholder introspected is the access token', issued({ access_token: '[redacted:ACCESS_1]xxxxxxxxxxxx', expires_in: 3_600_000 }), introspected({}, '[redacted:ACCESS_1]'), MISMATCH],
    ['a redacted recording: another placeholder is not the access token', issued({ access_token: '[redacted:ACCESS_1]xxxxxxxxxxxx', expires_in: 3_600_000 }), introspected({ token_type: 'refresh_token' }, '[redacted:REFRESH_1]'), []],
    ['a refused token request is not judged', issued({}, { status: 400 }), introspected(), []],
    ['a refused introspection is not judged', issued({ expires_in: 3_600_000 }), introspected({}, ACCESS, 401), []],
  ])('%s', async (_name, token, introspection, expected) => {
    const findings = tokenLifetimeMatchesIntrospection.run(await context('oauth2:token'), token, [introspection]);
    expect(findings.map((f) => f.kind)).toEqual(expected);
    for (const f of findings) expect(f.message.length).toBeGreaterThan(0);
  });

  test('a token answer without its introspection is not judged', async () => {
    expect(tokenLifetimeMatchesIntrospection.run(await context('oauth2:token'), issued({ expires_in: 3_600_000 }), [])).toEqual([]);
  });
});

describe('applicability', () => {
  test.each([
    ['oauth2:token', true],
    ['oauth2:introspect', 'not the token endpoint (POST /v1/oauth2/token)'],
    ['products:list', 'not the token endpoint (POST /v1/oauth2/token)'],
  ] as const)('%s: %s', async (operationId, expected) => {
    expect(tokenLifetimeMatchesIntrospection.appliesTo?.(await context(operationId))).toBe(expected);
  });

  test('does not apply to a document without a token introspection', async () => {
    const ctx = await context('oauth2:token');
    const spec = { ...ctx.spec, operations: ctx.spec.operations.filter((o) => o.path !== '/v1/oauth2/introspect') };
    expect(tokenLifetimeMatchesIntrospection.appliesTo?.({ ...ctx, spec })).toBe('the document has no token introspection to read the token back');
  });
});
