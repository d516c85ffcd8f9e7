/**
 * Presigned URLs of the files and documents the reference serves itself (upload parts, receipt
 * and invoice PDFs): the path and expiry are signed with HMAC-SHA256, like an object store's
 * presigned URL, and checked in constant time.
 * @see spec/rules.yaml orders.receipt_presigned_url, files.upload_parts
 * @see docs/decisions.md (Reference server: rate limit, webhooks, state: stand-ins for a storage service's presigned URLs)
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Why a presigned request is refused. */
export type SignatureProblem = 'missing' | 'invalid' | 'expired';

function signature(key: Buffer, method: string, path: string, expires: number): string {
  return createHmac('sha256', key).update(`${method}\n${path}\n${expires}`).digest('base64url');
}

/**
 * A presigned URL: `<baseUrl><path>?expires=<epoch seconds>&signature=<base64url HMAC>`.
 * @param method the HTTP method the URL is for (`PUT`, `GET`)
 * @param path absolute path without query (`/__uploads/<id>/1`)
 * @param expiresAtMs when the URL stops working, epoch milliseconds
 */
export function presignUrl(key: Buffer, baseUrl: string, method: string, path: string, expiresAtMs: number): string {
  const expires = Math.floor(expiresAtMs / 1000);
  return `${baseUrl}${path}?expires=${expires}&signature=${signature(key, method, path, expires)}`;
}

/**
 * Checks a presigned request.
 * @param query the request's `expires` and `signature` query values
 * @param nowMs the server clock, epoch milliseconds
 * @returns undefined when the signature is valid and not expired, else the problem
 */
export function checkPresigned(key: Buffer, method: string, path: string, query: { expires?: unknown; signature?: unknown }, nowMs: number): SignatureProblem | undefined {
  if (typeof query.expires !== 'string' || typeof query.signature !== 'string') return 'missing';
  if (!/^\d{1,15}$/.test(query.expires)) return 'invalid';
  const expected = Buffer.from(signature(key, method, path, Number(query.expires)));
  const presented = Buffer.from(query.signature);
  if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) return 'invalid';
  if (nowMs >= Number(query.expires) * 1000) return 'expired';
  return undefined;
}
