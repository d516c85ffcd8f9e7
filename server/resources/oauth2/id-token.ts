/**
 * OpenID Connect ID tokens: JWTs signed with the server's ES256 key (jose), issued by the
 * reference's own base URL to the client (aud).
 * @see OpenID Connect Core 1.0 section 2; RFC 7519
 */
import type { HandlerContext } from '../../handler-types.js';
import { ID_TOKEN_ALGORITHM } from '../../keys.js';
import type { OAuthClientRecord, OAuthSubject } from '../../records.js';

/**
 * Signs an ID token: iss (the base URL), sub, aud (client_id), iat, exp, auth_time, sub_type and,
 * when the authorization carried one, nonce.
 * @param input.nowMs the server clock, epoch milliseconds
 * @param input.ttlSeconds seconds from iat to exp
 * @returns the compact JWS
 */
export async function signIdToken(ctx: HandlerContext, input: { client: OAuthClientRecord; subject: OAuthSubject; nonce: string | null; nowMs: number; ttlSeconds: number }): Promise<string> {
  const iat = Math.floor(input.nowMs / 1000);
  // jose is loaded with the first ID token: most servers never issue one.
  const { SignJWT } = await import('jose');
  return new SignJWT({ sub_type: input.subject.type, auth_time: iat, ...(input.nonce !== null ? { nonce: input.nonce } : {}) })
    .setProtectedHeader({ alg: ID_TOKEN_ALGORITHM, kid: ctx.keys.idToken.kid, typ: 'JWT' })
    .setIssuer(ctx.baseUrl)
    .setSubject(input.subject.id)
    .setAudience(input.client.client_id)
    .setIssuedAt(iat)
    .setExpirationTime(iat + input.ttlSeconds)
    .sign(ctx.keys.idToken.privateKey);
}
