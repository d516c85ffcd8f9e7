/**
 * The platform's webhook signing key: the Standard Webhooks algorithm (`v1,` + base64 HMAC-SHA256
 * of `id.timestamp.body`) keyed with the UTF-8 bytes of the endpoint's secret string as the user
 * sees it (`whsec_…` included), not with the base64-decoded part after `whsec_` that the Standard
 * Webhooks libraries read by default. The platform base64-encodes the secret before handing it to
 * the `standardwebhooks` library, and its SDKs verify the same way (`validateEvent` of
 * `@polar-sh/sdk` 0.x only that way; 1.x that way first, the decoded way as a fallback). Shared by
 * the reference, which signs (server/webhooks/signature.ts), and the harness, which verifies
 * (checks/stateful/webhook-deliveries.ts).
 * @see https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md;
 *   docs/server-behaviour.md (Webhooks); spec/rules.yaml webhooks.standard_webhooks_signature
 */
import { Webhook } from 'standardwebhooks';

/** Prefix of the platform's webhook signing secrets (`whsec_` + a random URL-safe token). */
export const SECRET_PREFIX = 'whsec_';

/** Longest secret accepted from a user (a data file, the control API), in characters. */
export const MAX_SECRET_LENGTH = 256;

/**
 * Whether `secret` can sign deliveries: a string of 1 to {@link MAX_SECRET_LENGTH} characters
 * without whitespace or control characters. Its UTF-8 bytes are the key, so any such string works
 * (the platform's own are `whsec_` + a token; an app may be configured with an older shape).
 */
export function isSigningSecret(secret: unknown): secret is string {
  return typeof secret === 'string' && secret.length > 0 && secret.length <= MAX_SECRET_LENGTH && !/[\s\p{Cc}]/u.test(secret);
}

/**
 * A `standardwebhooks` signer and verifier keyed as the platform keys it: the UTF-8 bytes of the secret string.
 * @throws Error for an empty secret (the library refuses an empty key)
 */
export function platformWebhook(secret: string): Webhook {
  return new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' });
}

/**
 * A signer keyed the Standard Webhooks libraries' default way, which the platform does not use:
 * the base64 decoding (either alphabet, padding optional) of the secret after `whsec_`.
 * @returns undefined when that part decodes to no bytes
 */
export function decodedKeyWebhook(secret: string): Webhook | undefined {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return key.length > 0 ? new Webhook(key, { format: 'raw' }) : undefined;
}
