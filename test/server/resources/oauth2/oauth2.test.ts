import { createLocalJWKSet, jwtVerify } from 'jose';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { issueToken } from '../../../../server/auth.js';
import type { AuthorizationCodeInput } from '../../../../server/resources/oauth2/grants.js';
import { expectConforms, testServer, type TestServer } from '../../support.js';

let server: TestServer;
let client: { client_id: string; client_secret: string };

beforeAll(async () => {
  server = await testServer({ clock: () => new Date('2026-06-01T12:00:00Z') });
});

beforeEach(() => {
  server.control.reset();
  client = { client_id: server.fixtures.oauth_client_id!, client_secret: server.fixtures.oauth_client_secret! };
});

function mint(input: AuthorizationCodeInput = {}) {
  const minted = server.control.mintAuthorizationCode(input);
  if (!minted.ok) throw new Error(minted.error.message);
  return minted.value;
}

const token = (form: Record<string, string>) => server.send('POST', '/v1/oauth2/token', { as: null, form });
const introspect = (value: string, credentials = client) => server.send('POST', '/v1/oauth2/introspect', { as: null, form: { token: value, ...credentials } });
const exchange = (minted: ReturnType<typeof mint>, extra: Record<string, string> = {}) =>
  token({ grant_type: 'authorization_code', code: minted.code, redirect_uri: minted.redirect_uri!, ...client, ...extra });

describe('oauth2:token, authorization_code', () => {
  it('answers the token response with a signed ID token, never cached', async () => {
    const minted = mint({ nonce: 'n-0S6_WzA2Mj' });
    const response = await exchange(minted);
    expect(response.statusCode).toBe(200);
    expectConforms(server, 'oauth2:token', response);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: minted.scope });
    expect(body.access_token).toMatch(/^polar_at_u_/);
    expect(body.refresh_token).toMatch(/^polar_rt_u_/);
    const jwks = createLocalJWKSet((await server.get('/.well-known/jwks.json', {}, null)).json());
    const { payload, protectedHeader } = await jwtVerify(body.id_token, jwks, { issuer: 'http://localhost:80', audience: client.client_id, currentDate: new Date('2026-06-01T12:00:00Z') });
    expect(protectedHeader.alg).toBe('ES256');
    expect(payload).toMatchObject({ nonce: 'n-0S6_WzA2Mj', sub_type: 'user', iat: Date.parse('2026-06-01T12:00:00Z') / 1000, exp: Date.parse('2026-06-01T13:00:00Z') / 1000 });
  });

  it('gives no ID token without the openid scope', async () => {
    const response = await exchange(mint({ scope: 'products:read' }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).not.toHaveProperty('id_token');
  });

  it('issues an oidc bearer token: accepted where the spec lists oidc, refused elsewhere', async () => {
    const { access_token } = (await exchange(mint())).json();
    const update = await server.send('POST', `/v1/products/${server.fixtures.product_id}/benefits`, { token: access_token, json: { benefits: [server.fixtures.benefit_id] } });
    expect(update.statusCode).toBe(200);
    expect((await server.send('GET', '/v1/products/', { token: access_token })).statusCode).toBe(403);
    const narrow = (await exchange(mint({ scope: 'openid products:read' }))).json().access_token;
    expect((await server.send('POST', `/v1/products/${server.fixtures.product_id}/benefits`, { token: narrow, json: { benefits: [] } })).statusCode).toBe(403);
  });

  it('is single use: a second exchange is invalid_grant and revokes the tokens of the first', async () => {
    const minted = mint();
    const first = (await exchange(minted)).json();
    const second = await exchange(minted);
    expect(second.statusCode).toBe(400);
    expectConforms(server, 'oauth2:token', second);
    expect(second.json()).toEqual({ error: 'invalid_grant', error_description: 'The authorization code has already been used.' });
    expect((await server.send('POST', `/v1/products/${server.fixtures.product_id}/benefits`, { token: first.access_token, json: { benefits: [] } })).statusCode).toBe(401);
    expect((await introspect(first.refresh_token)).json()).toEqual({ active: false });
  });

  it.each<[string, () => Record<string, string>, string]>([
    ['a redirect_uri that differs', () => ({ redirect_uri: 'https://evil.example.com/cb' }), 'invalid_grant'],
    ['no redirect_uri', () => ({ redirect_uri: '' }), 'invalid_grant'],
    ['an unknown code', () => ({ code: 'polar_ac_unknown' }), 'invalid_grant'],
    ['no code', () => ({ code: '' }), 'invalid_grant'],
  ])('refuses %s (400 %s)', async (_name, change, error) => {
    const minted = mint();
    const form = { grant_type: 'authorization_code', code: minted.code, redirect_uri: minted.redirect_uri!, ...client, ...change() };
    const response = await token(form);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(error);
    // The code is still good after a refused exchange that did not present it.
    if (change().code === undefined) expect((await exchange(minted)).statusCode).toBe(200);
  });

  it('refuses a code issued to another client', async () => {
    const minted = mint();
    const other = server.store.oauthClients.inOrganization(server.fixtures.other_organization_id!)[0]!;
    const theirs = mint({ client_id: other.client_id });
    const crossed = await exchange(theirs);
    expect(crossed.statusCode).toBe(400);
    expect(crossed.json().error).toBe('invalid_grant');
    expect((await exchange(minted)).statusCode).toBe(200);
  });

  it('refuses an expired code (10 minutes, by the server clock)', async () => {
    const minted = mint();
    server.control.advanceClock(600_000);
    expect((await exchange(minted)).json()).toEqual({ error: 'invalid_grant', error_description: 'The authorization code has expired.' });
  });

  it.each<[string, Record<string, string>, number, string]>([
    ['a wrong client secret', { client_secret: 'nope' }, 401, 'invalid_client'],
    ['an unknown client', { client_id: 'polar_ci_nobody' }, 401, 'invalid_client'],
    ['no client secret', { client_secret: '' }, 401, 'invalid_client'],
    ['an unsupported grant type', { grant_type: 'client_credentials' }, 400, 'unsupported_grant_type'],
  ])('answers %s with %i %s', async (_name, change, status, error) => {
    const minted = mint();
    const form = Object.fromEntries(Object.entries({ grant_type: 'authorization_code', code: minted.code, redirect_uri: minted.redirect_uri!, ...client, ...change }).filter(([, v]) => v !== ''));
    const response = await token(form);
    expect(response.statusCode).toBe(status);
    expectConforms(server, 'oauth2:token', response);
    expect(response.json().error).toBe(error);
  });
});

describe('oauth2:token, refresh_token', () => {
  it('rotates: a new pair, the old refresh token refused afterwards', async () => {
    const first = (await exchange(mint())).json();
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, ...client });
    expect(refreshed.statusCode).toBe(200);
    expectConforms(server, 'oauth2:token', refreshed);
    const second = refreshed.json();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.scope).toBe(first.scope);
    const reused = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, ...client });
    expect(reused.json().error).toBe('invalid_grant');
    expect((await introspect(second.refresh_token)).json()).toMatchObject({ active: true, token_type: 'refresh_token' });
  });

  it('may narrow the scope, never widen it', async () => {
    const first = (await exchange(mint({ scope: 'openid products:read products:write' }))).json();
    const narrowed = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, scope: 'products:read', ...client });
    expect(narrowed.json().scope).toBe('products:read');
    const widened = await token({ grant_type: 'refresh_token', refresh_token: narrowed.json().refresh_token, scope: 'products:read orders:read', ...client });
    expect(widened.json().error).toBe('invalid_scope');
  });

  it('refuses a missing or unknown refresh token', async () => {
    expect((await token({ grant_type: 'refresh_token', ...client })).json().error).toBe('invalid_request');
    expect((await token({ grant_type: 'refresh_token', refresh_token: 'nope', ...client })).json().error).toBe('invalid_grant');
  });
});

describe('oauth2:introspect', () => {
  it('describes an active access token, then {active: false} once it has expired', async () => {
    const minted = mint({ scope: 'openid products:read' });
    const { access_token } = (await exchange(minted)).json();
    const response = await introspect(access_token);
    expect(response.statusCode).toBe(200);
    expectConforms(server, 'oauth2:introspect', response);
    const iat = Date.parse('2026-06-01T12:00:00Z') / 1000;
    expect(response.json()).toEqual({
      active: true,
      client_id: client.client_id,
      token_type: 'access_token',
      scope: 'openid products:read',
      sub_type: 'user',
      sub: expect.any(String),
      organizations: [server.fixtures.organization_id],
      aud: client.client_id,
      iss: 'http://localhost:80',
      exp: iat + 3600,
      iat,
    });
    server.control.advanceClock(3600 * 1000);
    expect((await introspect(access_token)).json()).toEqual({ active: false });
    expect((await server.send('POST', `/v1/products/${server.fixtures.product_id}/benefits`, { token: access_token, json: { benefits: [] } })).statusCode).toBe(401);
  });

  it('gives sub_type organization for an organization grant', async () => {
    const { access_token } = (await exchange(mint({ subject_type: 'organization' }))).json();
    expect(access_token).toMatch(/^polar_at_o_/);
    expect((await introspect(access_token)).json()).toMatchObject({ active: true, sub_type: 'organization', sub: server.fixtures.organization_id });
  });

  it.each<[string, () => string]>([
    ['an unknown token', () => 'polar_at_u_unknown'],
    ['a demo organization token', () => server.tokens.admin],
    ['a customer session', () => server.tokens.customer_session],
  ])('answers only {active: false} for %s', async (_name, value) => {
    const response = await introspect(value());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ active: false });
  });

  it('answers another client\'s token {active: false}', async () => {
    const other = server.store.oauthClients.inOrganization(server.fixtures.other_organization_id!)[0]!;
    const now = server.store.clock().getTime();
    const { token: theirs } = issueToken(
      server.store,
      'polar_at_u',
      { kind: 'oidc', subject: 'someone', organizationIds: [server.fixtures.other_organization_id!], scopes: new Set(['openid']) },
      { issuedAtMs: now, expiresAtMs: now + 3_600_000, oauth: { clientId: other.client_id, subjectType: 'user' } },
    );
    expect((await introspect(theirs)).json()).toEqual({ active: false });
  });

  it('refuses bad client credentials with 401 invalid_client', async () => {
    const response = await introspect('x', { client_id: client.client_id, client_secret: 'wrong' });
    expect(response.statusCode).toBe(401);
    expectConforms(server, 'oauth2:introspect', response);
    expect(response.json()).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
  });

  it('refuses a repeated parameter with 400 invalid_request (RFC 6749 section 3.2)', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/v1/oauth2/introspect', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `token=a&token=b&client_id=${client.client_id}&client_secret=${client.client_secret}` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'invalid_request', error_description: 'Parameter token is included more than once.' });
  });
});

describe('mintAuthorizationCode', () => {
  it.each<[string, AuthorizationCodeInput, string]>([
    ['an unknown client', { client_id: 'nope' }, 'NOT_FOUND'],
    ['an unregistered redirect URI', { redirect_uri: 'https://evil.example.com' }, 'INVALID'],
    ['an unknown scope', { scope: 'openid admin:everything' }, 'INVALID'],
    ['a negative lifetime', { expires_in_seconds: -1 }, 'INVALID'],
  ])('refuses %s', (_name, input, code) => {
    const minted = server.control.mintAuthorizationCode(input);
    expect(minted.ok ? undefined : minted.error.code).toBe(code);
  });
});
