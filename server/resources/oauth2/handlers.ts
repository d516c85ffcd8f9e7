/**
 * Handlers of the OAuth 2.0 / OpenID Connect token service. Both take form-encoded bodies with the
 * client's credentials (client_secret_post) and answer RFC 6749 errors (400, or 401 invalid_client).
 * @see operationIds oauth2:token, oauth2:introspect; RFC 6749; RFC 7662
 */
import type { OperationHandler } from '../../handler-types.js';
import { authenticateClient, oauthError } from './clients.js';
import { exchangeAuthorizationCode, exchangeRefreshToken } from './grants.js';
import { introspect } from './introspect.js';

/**
 * `oauth2:token`: grant_type authorization_code or refresh_token; 200 `{access_token, token_type,
 * expires_in, scope, refresh_token, id_token}`; 400 invalid_request, invalid_grant,
 * unsupported_grant_type, invalid_scope; 401 invalid_client.
 */
export const tokenHandler: OperationHandler = async (ctx) => {
  const fields = ctx.body as Record<string, string>;
  const client = authenticateClient(ctx.store, fields);
  if (!client.ok) return client.error;
  switch (fields.grant_type) {
    case 'authorization_code':
      return exchangeAuthorizationCode(ctx, client.value, fields);
    case 'refresh_token':
      return exchangeRefreshToken(ctx, client.value, fields);
    default:
      return oauthError('unsupported_grant_type', `grant_type ${fields.grant_type} is not supported; use authorization_code or refresh_token.`);
  }
};

/** `oauth2:introspect`: 200 with the RFC 7662 response; 401 invalid_client. */
export const introspectHandler: OperationHandler = (ctx) => {
  const fields = ctx.body as Record<string, string>;
  const client = authenticateClient(ctx.store, fields);
  if (!client.ok) return client.error;
  return introspect(ctx, client.value, fields.token!);
};
