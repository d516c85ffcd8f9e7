/**
 * Receiving upload parts at the presigned URLs files:create hands out (`PUT
 * /__uploads/<upload id>/<part number>?expires=...&signature=...`, served by the reference, not
 * part of the API). Each part is checked against its byte range and, when one was given (in the
 * create body or an `x-amz-checksum-sha256` header), its sha256; it is answered 200 with an ETag
 * (the quoted md5 of the part, as S3 does). When the last part arrives the file becomes uploaded.
 * A URL past its expiry or with a bad signature is refused with 403; a file already uploaded, 409.
 * Everything that does not need the body (signature, upload id, part number, expiry, whether the
 * file is uploaded, the declared Content-Length against the part's size) is checked by
 * {@link checkPartRequest} before a byte of the body is read, so that a client cannot make the
 * server hold a body it would refuse anyway; the body is then read with the part's size as its cap.
 * @see spec/rules.yaml files.upload_completes, files.part_checksum_verified, files.part_url_expires
 * @see docs/reference-server.md (Limits on what a client can make the server hold: upload parts)
 */
import { createHash } from 'node:crypto';
import type { MachineContext } from '../../events.js';
import type { ServerKeys } from '../../keys.js';
import { errorReply, type Reply } from '../../replies.js';
import { checkPresigned } from '../../signed-urls.js';
import { fail, ok, type Result } from '../../result.js';
import type { UploadPartRecord, UploadRecord } from '../../records.js';
import { newId } from '../../store.js';
import { parseTimestamp } from '../../timestamps.js';
import { fireFileTransition } from './machine.js';
import { uploadPartPath } from './serializer.js';

/** Largest upload part the reference accepts in one PUT, in bytes (a larger declared length is a 413). */
export const MAX_UPLOAD_PART_BYTES = 64 * 1024 * 1024;

/** What a part PUT says before its body: the path, query and declared length. */
export interface PartRequestHead {
  uploadId: string;
  /** As in the path. */
  partNumber: string;
  query: { expires?: unknown; signature?: unknown };
  /** The Content-Length header as sent (undefined for a chunked body). */
  contentLength?: string | undefined;
}

/** A part PUT as the route received it. */
export interface PartRequest extends PartRequestHead {
  /** `x-amz-checksum-sha256`, when sent. */
  checksumHeader: string | undefined;
  body: Buffer;
}

/** The upload and part a request head names, and the part's size in bytes (the cap of its body). */
export interface AcceptedPart {
  upload: UploadRecord;
  part: UploadPartRecord;
  expectedSize: number;
}

/**
 * Checks a part PUT before its body is read: signature, part number, upload and part, expiry,
 * whether the file is already uploaded, and a declared Content-Length against the part's size.
 * @returns the part and its size; or the refusal: 403 bad signature or expired, 404 unknown upload or part, 409 file already uploaded, 413 a declared length above {@link MAX_UPLOAD_PART_BYTES}, 400 a declared length other than the part's size (S3's EntityTooLarge and IncompleteBody are 400s too)
 */
export function checkPartRequest(ctx: MachineContext & { keys: ServerKeys }, request: PartRequestHead): Result<AcceptedPart, Reply> {
  const { store } = ctx;
  const now = store.clock().getTime();
  if (!/^[1-9]\d{0,4}$/.test(request.partNumber)) return fail(errorReply(403, 'The signature of this upload URL is missing or invalid.'));
  const problem = checkPresigned(ctx.keys.urlSigning, 'PUT', uploadPartPath(request.uploadId, Number(request.partNumber)), request.query, now);
  if (problem === 'missing' || problem === 'invalid') return fail(errorReply(403, 'The signature of this upload URL is missing or invalid.'));
  const upload = store.uploads.get(request.uploadId);
  const part = upload?.parts.find((candidate) => candidate.number === Number(request.partNumber));
  if (!upload || !part) return fail(errorReply(404, `No upload part ${request.partNumber} of upload ${request.uploadId}.`));
  if (problem === 'expired' || now >= parseTimestamp(part.expires_at)! / 1000) return fail(errorReply(403, `The upload URL expired at ${part.expires_at}.`));
  if (store.files.get(upload.file_id)!.is_uploaded) return fail(errorReply(409, `File ${upload.file_id} is already uploaded.`));
  const expectedSize = part.chunk_end - part.chunk_start + 1;
  if (request.contentLength !== undefined) {
    if (!/^\d{1,16}$/.test(request.contentLength)) return fail(errorReply(400, 'Content-Length must be a number of bytes.'));
    const declared = Number(request.contentLength);
    if (declared > MAX_UPLOAD_PART_BYTES) return fail(errorReply(413, `The reference takes at most ${MAX_UPLOAD_PART_BYTES} bytes in one PUT; ${declared} declared.`));
    if (declared !== expectedSize) return fail(errorReply(400, `Part ${part.number} covers bytes ${part.chunk_start} to ${part.chunk_end}: ${expectedSize} bytes expected, ${declared} declared.`));
  }
  return ok({ upload, part, expectedSize });
}

function sha256(data: Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

function md5(data: Buffer): Buffer {
  return createHash('md5').update(data).digest();
}

/** Completes the file when every part has arrived; a whole-file checksum mismatch refuses the last part. */
function completeIfWhole(ctx: MachineContext, upload: UploadRecord, lastNumber: number): Reply | undefined {
  if (upload.parts.some((part) => part.received === null)) return undefined;
  const data = Buffer.concat(upload.parts.map((part) => part.received!.data));
  const digest = sha256(data);
  if (upload.checksum_sha256_base64 !== null && digest.toString('base64') !== upload.checksum_sha256_base64 && !ctx.faults.has('upload_checksum_ignored')) {
    ctx.store.uploads.update(upload, { parts: upload.parts.map((part) => (part.number === lastNumber ? { ...part, received: null } : part)) });
    return errorReply(400, `BadDigest: the sha256 of the whole file is ${digest.toString('base64')}, not the checksum_sha256_base64 of the create request; send part ${lastNumber} again.`);
  }
  const file = ctx.store.files.get(upload.file_id)!;
  const etag = `"${md5(Buffer.concat(upload.parts.map((part) => Buffer.from(part.received!.etag.slice(1, -1), 'hex')))).toString('hex')}-${upload.parts.length}"`;
  fireFileTransition(ctx, file, 'complete_upload', { sha256: digest, etag, storageVersion: newId(ctx.store).replace(/-/g, '') });
  // The bytes are not kept once the file is complete: nothing in the API reads them back.
  ctx.store.uploads.update(upload, { parts: upload.parts.map((part) => ({ ...part, received: { etag: part.received!.etag, data: Buffer.alloc(0) } })) });
  return undefined;
}

/**
 * Receives one part.
 * @param ctx.faults `upload_checksum_ignored` accepts a part whose sha256 does not match
 * @returns 200 with an ETag header; 400 size or checksum mismatch; 403 bad signature or expired; 404 unknown upload or part; 409 file already uploaded
 */
export function receivePart(ctx: MachineContext & { keys: ServerKeys }, request: PartRequest): Reply {
  // Checked again: the state may have changed while the body arrived (another PUT completed the file).
  const accepted = checkPartRequest(ctx, { ...request, contentLength: undefined });
  if (!accepted.ok) return accepted.error;
  const { upload, part, expectedSize } = accepted.value;
  if (request.body.length !== expectedSize) return errorReply(400, `Part ${part.number} covers bytes ${part.chunk_start} to ${part.chunk_end}: ${expectedSize} bytes expected, ${request.body.length} received.`);
  const actual = sha256(request.body).toString('base64');
  const expected = [part.checksum_sha256_base64, request.checksumHeader].filter((value): value is string => typeof value === 'string');
  if (expected.some((value) => value !== actual) && !ctx.faults.has('upload_checksum_ignored')) {
    return errorReply(400, `BadDigest: the sha256 of part ${part.number} is ${actual}, not ${expected.find((value) => value !== actual)}.`);
  }
  const etag = `"${md5(request.body).toString('hex')}"`;
  ctx.store.uploads.update(upload, { parts: upload.parts.map((p) => (p === part ? { ...p, received: { etag, data: request.body } } : p)) });
  const refused = completeIfWhole(ctx, upload, part.number);
  return refused ?? { status: 200, headers: { etag } };
}
