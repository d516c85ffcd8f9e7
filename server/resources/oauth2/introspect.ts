/**
 * Token introspection. A client learns about the tokens issued to it: an active access or refresh
 * token gives its claims; any other token (unknown, expired, revoked, or issued to another client
 * or outside OAuth, such as the demo tokens and portal sessions) gives only `{active: false}`.
 * @see RFC 7662 sections 2.2 and 4; spec/rules.yaml oauth2.introspection
 */
import { findToken, isTokenActive } from '../../auth.js';
import type { HandlerContext } from '../../handler-types.js';
import type { OAuthClientRecord } from '../../records.js';
import type { Reply } from '../../replies.js';
import { NO_STORE } from './clients.js';
import { grantDigest } from './grants.js';

const INACTIVE: Reply = { status: 200, body: { active: false }, headers: { ...NO_STORE } };

/**
 * Introspects a token for a client.
 * @param ctx.faults `introspect_unknown_active` answers an unknown token as active with made-up claims
 * @returns 200 with the RFC 7662 response
 */
export function introspect(ctx: HandlerContext, client: OAuthClientRecord, token: string): Reply {
  const { store } = ctx;
  const now = store.clock().getTime();
  const claims = (fields: { token_type: string; scope: string; sub_type: string; sub: string; organizations: string[]; iat: number; exp: number }) => ({
    status: 200,
    body: { active: true, client_id: client.client_id, ...fields, aud: client.client_id, iss: ctx.baseUrl },
    headers: { ...NO_STORE },
  });
  const access = findToken(store, token);
  if (access) {
    if (access.oauth?.clientId !== client.client_id || !isTokenActive(store, access)) return INACTIVE;
    return claims({
      token_type: 'access_token',
      scope: [...access.scopes].join(' '),
      sub_type: access.oauth.subjectType,
      sub: access.subject,
      organizations: [...access.organizationIds],
      // The fault introspection_iat_in_milliseconds gives iat in milliseconds (exp stays in seconds).
      iat: ctx.faults.has('introspection_iat_in_milliseconds') ? (access.issuedAtMs ?? now) : Math.floor((access.issuedAtMs ?? now) / 1000),
      exp: Math.floor(access.expiresAtMs! / 1000),
    });
  }
  const refresh = store.refreshTokens.get(grantDigest(token));
  if (refresh) {
    if (refresh.client_id !== client.client_id || refresh.revoked || now >= refresh.expiresAtMs) return INACTIVE;
    return claims({
      token_type: 'refresh_token',
      scope: refresh.scope,
      sub_type: refresh.subject.type,
      sub: refresh.subject.id,
      organizations: [...refresh.subject.organizationIds],
      iat: Math.floor(refresh.issuedAtMs / 1000),
      exp: Math.floor(refresh.expiresAtMs / 1000),
    });
  }
  if (ctx.faults.has('introspect_unknown_active')) {
    return claims({ token_type: 'access_token', scope: '', sub_type: 'user', sub: 'unknown', organizations: [], iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 3600 });
  }
  return INACTIVE;
}
