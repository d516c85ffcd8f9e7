// OAuth 2.0: an authorization code (minted through the adapter: the API shows no authorization
// endpoint) is exchanged once, with its redirect_uri, for tokens whose access token the product
// benefits endpoint accepts; the refresh token gives a new access token; introspection tells an
// issued token active until it expires, and an unknown one inactive; wrong client credentials are
// refused. Client credentials: the fixture oauth_client_id (or the code's client) and the
// oauth_client role's token as its client_secret.
import { randomBytes } from 'node:crypto';
import { benefitIdsOf } from '../../checks/stateful/benefit-sets.js';
import type { AuthorizationCode } from '../../core/adapter.js';
import type { Exchange } from '../../core/types.js';
import { answerText, bodyOf, defineScenario, statefulSuite, statusOf, succeeded, type ScenarioRun } from '../../engine/stateful/scenario.js';

const suite = await statefulSuite();

/** The client secret: the oauth_client role's token. */
const clientSecret = (): string => suite.target.roles.oauth_client!.token;

/** A code minted through the adapter, hidden from reproducers. */
async function mint(s: ScenarioRun): Promise<AuthorizationCode> {
  const code = await s.adapter('mintAuthorizationCode')({});
  s.secret(code.code, 'AUTHORIZATION_CODE');
  return code;
}

/** The token request of an authorization code. */
function exchangeCode(s: ScenarioRun, code: AuthorizationCode, redirectUri: string | null = code.redirectUri): Promise<Exchange> {
  return s.send('oauth2:token', { form: { grant_type: 'authorization_code', client_id: code.clientId, client_secret: clientSecret(), code: code.code, ...(redirectUri === null ? {} : { redirect_uri: redirectUri }) } });
}

/** Exchanges a fresh code for tokens, stopping the scenario unless the token endpoint answers 200 with an access token. */
async function tokens(s: ScenarioRun, code: AuthorizationCode): Promise<{ exchange: Exchange; body: Record<string, unknown>; accessToken: string }> {
  const exchange = await exchangeCode(s, code);
  const body = bodyOf(exchange);
  if (statusOf(exchange) !== 200 || typeof body?.access_token !== 'string') {
    return s.stop({ kind: 'code_exchange_refused', title: 'A fresh authorization code was not exchanged for tokens', message: `POST /v1/oauth2/token (grant_type authorization_code) with a new code and its redirect_uri answered ${answerText(exchange)}.`, expected: '200 with access_token', actual: statusOf(exchange) }, exchange);
  }
  s.secret(body.access_token, 'ACCESS_TOKEN');
  if (typeof body.refresh_token === 'string') s.secret(body.refresh_token, 'REFRESH_TOKEN');
  return { exchange, body, accessToken: body.access_token };
}

/** Introspects a token with the client's credentials. */
function introspect(s: ScenarioRun, clientId: string, token: string, secret = clientSecret()): Promise<Exchange> {
  return s.send('oauth2:introspect', { form: { token, client_id: clientId, client_secret: secret } });
}

/** Whether an answer is the RFC 6749 error `error`, with status 400 (or 401 for invalid_client). @see RFC 6749 section 5.2 */
function isOAuthError(exchange: Exchange, error: string): boolean {
  const status = statusOf(exchange);
  return (status === 400 || (error === 'invalid_client' && status === 401)) && bodyOf(exchange)?.error === error;
}

defineScenario(suite, 'oauth_code_single_use', async (s) => {
  const code = await mint(s);
  const { exchange, body, accessToken } = await tokens(s, code);
  const missing = ['access_token', 'scope', 'refresh_token', 'id_token'].filter((field) => typeof body[field] !== 'string');
  const bearer = typeof body.token_type === 'string' && body.token_type.toLowerCase() === 'bearer';
  const expiresIn = Number.isInteger(body.expires_in) && (body.expires_in as number) > 0;
  s.check(missing.length === 0 && bearer && expiresIn, {
    kind: 'token_response_incomplete',
    title: 'The token response lacks what the authorization code grant returns',
    message: `The token response has token_type ${JSON.stringify(body.token_type)}, expires_in ${JSON.stringify(body.expires_in)}${missing.length ? ` and no string ${missing.join(', ')}` : ''}; it returns an access token of type Bearer, expires_in in seconds, scope, refresh_token and id_token.`,
    expected: { token_type: 'Bearer', expires_in: 'a positive integer', strings: ['access_token', 'scope', 'refresh_token', 'id_token'] },
    actual: { token_type: body.token_type, expires_in: body.expires_in, missing },
  }, exchange);

  // The access token is an OpenID Connect token: the product benefits endpoint accepts it. The
  // product's own benefits are sent back, so nothing changes.
  const productId = s.fixtures.product_id;
  const scopes = typeof body.scope === 'string' ? body.scope.split(' ') : [];
  if (productId && scopes.includes('products:write')) {
    const listed = await s.send('products:list', { role: 'admin', query: { id: productId } });
    const product = ((bodyOf(listed)?.items as Record<string, unknown>[] | undefined) ?? []).find((item) => item.id === productId);
    if (product) {
      const used = await s.send('products:update_benefits', { bearer: accessToken, pathParams: { id: productId }, json: { benefits: benefitIdsOf(product) } });
      s.check(succeeded(used), {
        kind: 'access_token_refused',
        title: 'The access token of the token grant is not accepted where OpenID Connect tokens are',
        message: `POST /v1/products/${productId}/benefits (which accepts oidc tokens) with the new access token (scope ${String(body.scope)}) answered ${answerText(used)}.`,
        expected: 200,
        actual: statusOf(used),
      }, used);
    }
  }

  const again = await exchangeCode(s, code);
  s.check(isOAuthError(again, 'invalid_grant'), {
    kind: 'authorization_code_reused',
    title: 'An authorization code was exchanged twice',
    message: `A second POST /v1/oauth2/token with the same authorization code answered ${answerText(again)}; a code is used once (RFC 6749 section 4.1.2), so the second exchange is 400 invalid_grant.`,
    expected: '400 {"error":"invalid_grant"}',
    actual: statusOf(again),
  }, again);
});

defineScenario(suite, 'oauth_redirect_uri_bound', async (s) => {
  const code = await mint(s);
  if (code.redirectUri === null) return s.skip('the minted code is bound to no redirect_uri');
  const elsewhere = `${code.redirectUri.replace(/\/+$/, '')}/elsewhere`;
  const exchange = await exchangeCode(s, code, elsewhere);
  s.check(isOAuthError(exchange, 'invalid_grant'), {
    kind: 'redirect_uri_not_checked',
    title: 'An authorization code was exchanged with another redirect_uri',
    message: `POST /v1/oauth2/token with a code issued for ${code.redirectUri} and redirect_uri ${elsewhere} answered ${answerText(exchange)}; the redirect_uri must be identical (RFC 6749 section 4.1.3).`,
    expected: '400 {"error":"invalid_grant"}',
    actual: statusOf(exchange),
  }, exchange);
});

defineScenario(suite, 'oauth_refresh_works', async (s) => {
  const code = await mint(s);
  const { body } = await tokens(s, code);
  if (typeof body.refresh_token !== 'string') return s.skip('the token response has no refresh_token (token_response_incomplete of oauth_code_single_use says so)');
  const refreshed = await s.send('oauth2:token', { form: { grant_type: 'refresh_token', refresh_token: body.refresh_token, client_id: code.clientId, client_secret: clientSecret() } });
  const fresh = bodyOf(refreshed)?.access_token;
  if (!s.check(statusOf(refreshed) === 200 && typeof fresh === 'string', {
    kind: 'refresh_refused',
    title: 'A refresh token was not exchanged for a new access token',
    message: `POST /v1/oauth2/token (grant_type refresh_token) with a refresh token just issued answered ${answerText(refreshed)}.`,
    expected: '200 with access_token',
    actual: statusOf(refreshed),
  }, refreshed)) return;
  s.secret(fresh as string, 'REFRESHED_ACCESS_TOKEN');
  const introspected = await introspect(s, code.clientId, fresh as string);
  s.check(bodyOf(introspected)?.active === true, {
    kind: 'refreshed_token_inactive',
    title: 'The access token of a refresh is not active',
    message: `Introspecting the access token the refresh grant issued answered ${answerText(introspected)}.`,
    expected: { active: true },
    actual: bodyOf(introspected),
  }, introspected);
});

defineScenario(suite, 'oauth_client_authenticated', async (s) => {
  const clientId = s.fixtures.oauth_client_id!;
  const wrong = `cnf_wrong_secret_${randomBytes(12).toString('hex')}`;
  const token = await s.send('oauth2:token', { form: { grant_type: 'authorization_code', client_id: clientId, client_secret: wrong, code: `cnf_unknown_code_${randomBytes(12).toString('hex')}`, redirect_uri: 'https://example.invalid/callback' } });
  s.check(isOAuthError(token, 'invalid_client'), {
    kind: 'wrong_client_secret_accepted',
    title: 'The token endpoint did not refuse a wrong client_secret as invalid_client',
    message: `POST /v1/oauth2/token with client_id ${clientId} and a wrong client_secret answered ${answerText(token)}; client authentication fails first (RFC 6749 section 5.2: invalid_client).`,
    expected: '401 (or 400) {"error":"invalid_client"}',
    actual: statusOf(token),
  }, token);
  const introspected = await introspect(s, clientId, `cnf_unknown_token_${randomBytes(12).toString('hex')}`, wrong);
  const status = statusOf(introspected);
  s.check(status === 400 || status === 401, {
    kind: 'introspection_without_client_auth',
    title: 'The introspection endpoint answered a client with a wrong client_secret',
    message: `POST /v1/oauth2/introspect with client_id ${clientId} and a wrong client_secret answered ${answerText(introspected)}; the client must authenticate (RFC 7662 section 2.1).`,
    expected: '401 (or 400)',
    actual: status,
  }, introspected);
});

defineScenario(suite, 'introspection_after_expiry', async (s) => {
  const code = await mint(s);
  const { body, accessToken } = await tokens(s, code);
  const active = await introspect(s, code.clientId, accessToken);
  const claims = bodyOf(active) ?? {};
  s.check(statusOf(active) === 200 && claims.active === true && (claims.client_id === undefined || claims.client_id === code.clientId) && (claims.token_type === undefined || claims.token_type === 'access_token') && ['user', 'organization'].includes(claims.sub_type as string), {
    kind: 'issued_token_not_active',
    title: 'An access token just issued does not introspect active, with its client and subject type',
    message: `Introspecting the access token just issued to client ${code.clientId} answered ${answerText(active)}.`,
    expected: { active: true, client_id: code.clientId, token_type: 'access_token', sub_type: 'user or organization' },
    actual: claims,
  }, active);
  if (!Number.isInteger(body.expires_in)) return s.skip('the token response has no integer expires_in to tell when the access token expires');
  await s.adapter('advanceClock')((body.expires_in as number) * 1000 + 1000);
  const expired = await introspect(s, code.clientId, accessToken);
  s.check(statusOf(expired) === 200 && bodyOf(expired)?.active === false, {
    kind: 'expired_token_active',
    title: 'An expired access token introspects active',
    message: `Introspecting the access token after its expires_in (${String(body.expires_in)} s) had passed answered ${answerText(expired)}.`,
    expected: { active: false },
    actual: bodyOf(expired),
  }, expired);
});

defineScenario(suite, 'introspection_unknown_inactive', async (s) => {
  const clientId = s.fixtures.oauth_client_id!;
  const unknown = await introspect(s, clientId, `cnf_unknown_token_${randomBytes(16).toString('hex')}`);
  s.check(statusOf(unknown) === 200 && bodyOf(unknown)?.active === false, {
    kind: 'unknown_token_active',
    title: 'An unknown token introspects active',
    message: `Introspecting a token no one issued answered ${answerText(unknown)}; an unknown token is {"active": false} (RFC 7662 section 2.2).`,
    expected: { active: false },
    actual: bodyOf(unknown),
  }, unknown);
});
