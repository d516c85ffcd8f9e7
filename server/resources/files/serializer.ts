/**
 * Files as the files endpoints answer them: the generic File of every service, and the create
 * response with its upload parts (presigned PUT URLs served by the reference itself).
 * @see spec/openapi.yaml, schemas File (returned by the files endpoints) and FileUpload (the create response)
 */
import type { ServerKeys } from '../../keys.js';
import type { FileRecord, UploadRecord } from '../../records.js';
import { renderNullableTimestamp as nullableTs, renderTimestamp as ts, type RenderContext } from '../../render.js';
import { presignUrl } from '../../signed-urls.js';
import { formatTimestamp, parseTimestamp } from '../../timestamps.js';
import { readableSize, type Json } from '../products/serializer.js';

/** The path of an upload part's URL (`/__uploads/<upload id>/<part number>`); not part of the API. */
export function uploadPartPath(uploadId: string, partNumber: number): string {
  return `/__uploads/${uploadId}/${partNumber}`;
}

/**
 * A file. `flagged_malicious_at` is shown on list items (where the API description says it appears);
 * product media and organization avatars carry the `public_url` the platform gives them.
 * @see spec/openapi.yaml, schema File; docs/platform.md (files)
 */
export function serializeFile(ctx: RenderContext, file: FileRecord, options: { listItem: boolean }): Json {
  return {
    id: file.id,
    organization_id: file.organization_id,
    name: file.name,
    path: file.path,
    mime_type: file.mime_type,
    size: file.size,
    storage_version: file.storage_version,
    checksum_etag: file.checksum_etag,
    checksum_sha256_base64: file.checksum_sha256_base64,
    checksum_sha256_hex: file.checksum_sha256_hex,
    last_modified_at: nullableTs(ctx, file.last_modified_at),
    version: file.version,
    service: file.service,
    is_uploaded: file.is_uploaded,
    created_at: ts(ctx, file.created_at),
    ...(options.listItem ? { flagged_malicious_at: nullableTs(ctx, file.flagged_malicious_at) } : {}),
    size_readable: readableSize(file.size),
    ...(file.service === 'product_media' || file.service === 'organization_avatar' ? { public_url: publicUrl(file.service, file.path) } : {}),
  };
}

/** Where the platform serves a public file (product media, organization avatars); the reference does not serve it. */
export function publicUrl(service: string, path: string): string {
  return `https://files.example.com/${service}/${path}`;
}

/**
 * The create response: the file and its upload, each part with a presigned PUT URL, its expiry and
 * the headers to send (the part's sha256 when one was given).
 * @param baseUrl the reference's own base URL
 */
export function serializeFileUpload(ctx: RenderContext & { keys: ServerKeys; baseUrl: string }, file: FileRecord, upload: UploadRecord): Json {
  return {
    ...serializeFile(ctx, file, { listItem: false }),
    upload: {
      id: upload.id,
      path: upload.path,
      parts: upload.parts.map((part) => ({
        number: part.number,
        chunk_start: part.chunk_start,
        // The fault upload_part_ranges_shifted answers a range one byte longer than the one stored.
        chunk_end: ctx.faults?.has('upload_part_ranges_shifted') ? part.chunk_end + 1 : part.chunk_end,
        url: presignUrl(ctx.keys.urlSigning, ctx.baseUrl, 'PUT', uploadPartPath(upload.id, part.number), parseTimestamp(part.expires_at)! / 1000),
        // The fault upload_links_expired answers an expiry three hours before the real one (two before the answer).
        expires_at: ts(ctx, ctx.faults?.has('upload_links_expired') ? formatTimestamp(parseTimestamp(part.expires_at)! - 3 * 3_600_000_000) : part.expires_at),
        checksum_sha256_base64: part.checksum_sha256_base64,
        headers: part.checksum_sha256_base64 === null ? {} : { 'x-amz-checksum-sha256': part.checksum_sha256_base64, 'x-amz-sdk-checksum-algorithm': 'SHA256' },
      })),
    },
  };
}
