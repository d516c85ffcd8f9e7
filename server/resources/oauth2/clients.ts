/**
 * OAuth 2.0 client authentication by client_secret_post (client_id and client_secret in the form
 * body), the secret compared in constant time; and the RFC 6749 error bodies of the token service.
 * @see RFC 6749 sections 2.3.1 and 5.2; spec/rules.yaml auth.client_credentials (client credentials in the form body)
 */
import { secretDigest, secretMatches } from '../../auth.js';
import type { OAuthClientRecord } from '../../records.js';
import type { Reply } from '../../replies.js';
import { fail, ok, type Result } from '../../result.js';
import type { Store } from '../../store.js';

/** RFC 6749 section 5.2 error codes. */
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope';

/** Responses of the token service are never cached. @see RFC 6749 section 5.1 */
export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

/**
 * An RFC 6749 error reply `{error, error_description}`: 401 for invalid_client, else 400.
 * @see RFC 6749 section 5.2
 */
export function oauthError(error: OAuthErrorCode, description: string): Reply {
  return { status: error === 'invalid_client' ? 401 : 400, body: { error, error_description: description }, headers: { ...NO_STORE } };
}

// Compared against when the client_id is unknown, so that an unknown client takes as long as a wrong secret.
const NO_SECRET = secretDigest('no client has this secret');

/**
 * Authenticates the client of a token or introspection request.
 * @param fields the form body (client_id, client_secret)
 * @returns the client, or a 401 invalid_client reply
 */
export function authenticateClient(store: Store, fields: Record<string, string>): Result<OAuthClientRecord, Reply> {
  const clientId = fields.client_id;
  const secret = fields.client_secret ?? '';
  const client = clientId === undefined ? undefined : store.oauthClients.lookup('client_id', clientId)[0];
  const matches = secretMatches(client?.secret_digest ?? NO_SECRET, secret);
  if (!client || !matches || fields.client_secret === undefined) return fail(oauthError('invalid_client', 'Client authentication failed: unknown client_id or wrong client_secret.'));
  return ok(client);
}
