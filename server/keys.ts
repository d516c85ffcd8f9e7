/**
 * Keys of one reference server instance, generated at start and independent of the seed: the
 * HMAC key of the URLs the reference serves itself (upload parts, receipts, invoices) and the
 * ES256 key pair that signs OpenID Connect ID tokens.
 * @see spec/rules.yaml oauth2.token_authorization_code (id_token), files.upload_parts, orders.receipt_presigned_url
 * @see docs/decisions.md (Reference server: rate limit, webhooks, state: the per-instance keys are not kept)
 */
import { randomBytes, webcrypto } from 'node:crypto';
import type { CryptoKey, JWK } from 'jose';

/** The signing algorithm of ID tokens. @see RFC 7518 section 3.4 */
export const ID_TOKEN_ALGORITHM = 'ES256';

/** Keys of a server instance. */
export interface ServerKeys {
  /** 32 random bytes keying the HMAC-SHA256 signatures of presigned URLs. */
  urlSigning: Buffer;
  /** ID token signing key (ES256), its public JWK (with kid, alg and use) and key id. */
  idToken: { privateKey: CryptoKey; publicJwk: JWK; kid: string };
}

/**
 * Generates the keys of a new server instance: an ECDSA P-256 pair (ES256, RFC 7518 section 3.4)
 * by WebCrypto, which jose signs with; jose itself is loaded with the first ID token.
 */
export async function generateServerKeys(): Promise<ServerKeys> {
  const { privateKey, publicKey } = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const kid = randomBytes(8).toString('hex');
  const { kty, crv, x, y } = await webcrypto.subtle.exportKey('jwk', publicKey);
  const publicJwk: JWK = { kty, crv, x, y, kid, alg: ID_TOKEN_ALGORITHM, use: 'sig' } as JWK;
  return { urlSigning: randomBytes(32), idToken: { privateKey, publicJwk, kid } };
}
