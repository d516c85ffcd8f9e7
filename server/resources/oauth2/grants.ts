/**
 * The OAuth 2.0 grants of the token endpoint, and the authorization codes the control API mints
 * (the API description shows no authorization endpoint). An authorization code is single use,
 * expires after ten minutes, belongs to one client and, when minted with a redirect_uri, must be
 * exchanged with the same one; presenting a used code again revokes the tokens issued from it.
 * Refresh tokens rotate: each use revokes the presented one and issues a new pair.
 * Issued access tokens are `oidc` bearer tokens of the grant's subject (accepted where the spec
 * lists oidc) and last an hour; refresh tokens thirty days.
 * @see RFC 6749 sections 4.1.2, 4.1.3, 5.1 and 6; OpenID Connect Core 1.0 section 3.1.3.3
 */
import { createHash, randomBytes } from 'node:crypto';
import { issueToken, ALL_SCOPES } from '../../auth.js';
import type { HandlerContext } from '../../handler-types.js';
import type { AuthorizationCodeRecord, OAuthClientRecord, OAuthSubject } from '../../records.js';
import type { Reply } from '../../replies.js';
import { fail, ok, type Result } from '../../result.js';
import type { Store } from '../../store.js';
import { formatTimestamp } from '../../timestamps.js';
import { NO_STORE, oauthError } from './clients.js';
import { signIdToken } from './id-token.js';

/** Lifetime of an access token, in seconds (the token response's expires_in). */
export const ACCESS_TOKEN_TTL_S = 3600;
/** Lifetime of a refresh token, in seconds. */
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;
/** Lifetime of an authorization code, in seconds. @see RFC 6749 section 4.1.2 (10 minutes maximum recommended) */
export const AUTHORIZATION_CODE_TTL_S = 600;
/** OpenID Connect scopes a client may ask for besides the API's. */
export const OIDC_SCOPES = ['openid', 'profile', 'email'] as const;

/** The sha256 (hex) under which codes and refresh tokens are kept. */
export function grantDigest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function scopeWords(scope: string): string[] {
  return scope.split(' ').filter((word) => word.length > 0);
}

/** Issues an access token, a refresh token and (for the openid scope) an ID token; the 200 token response. */
async function issueTokens(ctx: HandlerContext, client: OAuthClientRecord, subject: OAuthSubject, scope: string, nonce: string | null): Promise<{ reply: Reply; access: Buffer; refresh: string }> {
  const { store } = ctx;
  const now = store.clock().getTime();
  const prefix = subject.type === 'user' ? 'u' : 'o';
  const { token: accessToken, record } = issueToken(
    store,
    `polar_at_${prefix}`,
    { kind: 'oidc', subject: subject.id, organizationIds: subject.organizationIds, scopes: new Set(scopeWords(scope)) },
    { issuedAtMs: now, expiresAtMs: now + ACCESS_TOKEN_TTL_S * 1000, oauth: { clientId: client.client_id, subjectType: subject.type } },
  );
  const refreshToken = `polar_rt_${prefix}_${randomBytes(32).toString('base64url')}`;
  const refreshDigest = grantDigest(refreshToken);
  store.refreshTokens.set(refreshDigest, { client_id: client.client_id, scope, subject, issuedAtMs: now, expiresAtMs: now + REFRESH_TOKEN_TTL_S * 1000, revoked: false });
  // The fault token_expires_in_milliseconds answers the lifetime in milliseconds (the token still lives ACCESS_TOKEN_TTL_S seconds).
  const expiresIn = ctx.faults.has('token_expires_in_milliseconds') ? ACCESS_TOKEN_TTL_S * 1000 : ACCESS_TOKEN_TTL_S;
  const body: Record<string, unknown> = { access_token: accessToken, token_type: 'Bearer', expires_in: expiresIn, scope, refresh_token: refreshToken };
  if (scopeWords(scope).includes('openid')) body.id_token = await signIdToken(ctx, { client, subject, nonce, nowMs: now, ttlSeconds: ACCESS_TOKEN_TTL_S });
  return { reply: { status: 200, body, headers: { ...NO_STORE } }, access: record.digest, refresh: refreshDigest };
}

/**
 * The authorization_code grant.
 * @param ctx.faults `oauth_code_reusable` lets a used code be exchanged again
 * @returns the token response, or invalid_request / invalid_grant
 */
export async function exchangeAuthorizationCode(ctx: HandlerContext, client: OAuthClientRecord, fields: Record<string, string>): Promise<Reply> {
  if (fields.code === undefined) return oauthError('invalid_request', 'The code parameter is required for grant_type authorization_code.');
  const code = ctx.store.authorizationCodes.get(grantDigest(fields.code));
  if (!code || code.client_id !== client.client_id) return oauthError('invalid_grant', 'The authorization code is invalid.');
  if (code.used && !ctx.faults.has('oauth_code_reusable')) {
    // RFC 6749 section 4.1.2: a code used twice revokes every token issued from it.
    for (const digest of code.issued.access) for (const token of ctx.store.tokens) if (token.digest.equals(digest)) token.revoked = true;
    for (const digest of code.issued.refresh) ctx.store.refreshTokens.get(digest)!.revoked = true;
    return oauthError('invalid_grant', 'The authorization code has already been used.');
  }
  if (ctx.store.clock().getTime() >= code.expiresAtMs) return oauthError('invalid_grant', 'The authorization code has expired.');
  if (code.redirect_uri !== null && fields.redirect_uri !== code.redirect_uri) {
    return oauthError('invalid_grant', 'The redirect_uri does not match the one the authorization code was issued for.');
  }
  code.used = true;
  const issued = await issueTokens(ctx, client, code.subject, code.scope, code.nonce);
  code.issued.access.push(issued.access);
  code.issued.refresh.push(issued.refresh);
  return issued.reply;
}

/**
 * The refresh_token grant, with rotation; a narrower `scope` may be asked for.
 * @returns the token response, or invalid_request / invalid_grant / invalid_scope
 */
export async function exchangeRefreshToken(ctx: HandlerContext, client: OAuthClientRecord, fields: Record<string, string>): Promise<Reply> {
  if (fields.refresh_token === undefined) return oauthError('invalid_request', 'The refresh_token parameter is required for grant_type refresh_token.');
  const digest = grantDigest(fields.refresh_token);
  const grant = ctx.store.refreshTokens.get(digest);
  if (!grant || grant.client_id !== client.client_id || grant.revoked || ctx.store.clock().getTime() >= grant.expiresAtMs) {
    return oauthError('invalid_grant', 'The refresh token is invalid, expired or already used.');
  }
  let scope = grant.scope;
  if (fields.scope !== undefined) {
    const granted = new Set(scopeWords(grant.scope));
    const asked = scopeWords(fields.scope);
    if (asked.some((word) => !granted.has(word))) return oauthError('invalid_scope', 'The requested scope exceeds the scope originally granted.');
    scope = asked.join(' ');
  }
  grant.revoked = true;
  return (await issueTokens(ctx, client, grant.subject, scope, null)).reply;
}

/** What {@link mintAuthorizationCode} needs; every field has a default. */
export interface AuthorizationCodeInput {
  /** Default: organization A's demo client. */
  client_id?: string;
  /** Must be one of the client's; default its first. `null` mints a code bound to no redirect URI. */
  redirect_uri?: string | null;
  /** Space-separated; default the client's scope. */
  scope?: string;
  /** `user` (default) or `organization`. */
  subject_type?: 'user' | 'organization';
  /** The user or organization id; default the demo user, or the client's organization. */
  subject_id?: string;
  nonce?: string;
  /** Default {@link AUTHORIZATION_CODE_TTL_S}. */
  expires_in_seconds?: number;
}

/** A minted code, with what it was bound to. */
export interface MintedCode {
  code: string;
  client_id: string;
  redirect_uri: string | null;
  scope: string;
  /** ISO 8601. */
  expires_at: string;
}

/**
 * Mints an authorization code, as an authorization endpoint would after the user consents.
 * @param defaults the demo client and user
 * @returns the code (the only time it exists in clear), or NOT_FOUND / INVALID with a message
 */
export function mintAuthorizationCode(
  store: Store,
  defaults: { clientId: string; userId: string },
  input: AuthorizationCodeInput,
): Result<MintedCode, { code: 'NOT_FOUND' | 'INVALID'; message: string }> {
  const clientId = input.client_id ?? defaults.clientId;
  const client = store.oauthClients.lookup('client_id', clientId)[0];
  if (!client) return fail({ code: 'NOT_FOUND', message: `No OAuth client ${clientId}.` });
  const redirectUri = input.redirect_uri === undefined ? client.redirect_uris[0]! : input.redirect_uri;
  if (redirectUri !== null && !client.redirect_uris.includes(redirectUri)) return fail({ code: 'INVALID', message: `${redirectUri} is not a redirect URI of client ${clientId}.` });
  const scope = scopeWords(input.scope ?? client.scope).join(' ');
  const known = new Set<string>([...ALL_SCOPES, ...OIDC_SCOPES]);
  const unknown = scopeWords(scope).filter((word) => !known.has(word));
  if (unknown.length > 0) return fail({ code: 'INVALID', message: `Unknown scope ${unknown.join(', ')}.` });
  const type = input.subject_type ?? 'user';
  if (type !== 'user' && type !== 'organization') return fail({ code: 'INVALID', message: 'subject_type must be user or organization.' });
  const ttl = input.expires_in_seconds ?? AUTHORIZATION_CODE_TTL_S;
  if (!Number.isFinite(ttl) || ttl <= 0) return fail({ code: 'INVALID', message: 'expires_in_seconds must be a positive number.' });
  const subject: OAuthSubject =
    type === 'user'
      ? { type, id: input.subject_id ?? defaults.userId, organizationIds: [client.organization_id] }
      : { type, id: input.subject_id ?? client.organization_id, organizationIds: [input.subject_id ?? client.organization_id] };
  const code = `polar_ac_${randomBytes(32).toString('base64url')}`;
  const expiresAtMs = store.clock().getTime() + ttl * 1000;
  const record: AuthorizationCodeRecord = { client_id: client.client_id, redirect_uri: redirectUri, scope, subject, nonce: input.nonce ?? null, expiresAtMs, used: false, issued: { access: [], refresh: [] } };
  store.authorizationCodes.set(grantDigest(code), record);
  return ok({ code, client_id: client.client_id, redirect_uri: redirectUri, scope, expires_at: formatTimestamp(Math.round(expiresAtMs * 1000)) });
}
