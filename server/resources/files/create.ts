/**
 * Creating a file: the upload plan of the body is checked beyond its schema (parts numbered 1 to
 * n in order, contiguous, covering bytes 0 to size - 1, sha256 checksums well formed), then the
 * file is stored not uploaded with one upload whose parts expire after an hour.
 * @see spec/openapi.yaml, schemas FileCreate, File; spec/rules.yaml files.upload_parts, files.not_uploaded_at_creation
 */
import type { Principal } from '../../auth.js';
import type { MachineContext } from '../../events.js';
import type { FileRecord, FileService, UploadRecord } from '../../records.js';
import type { ValidationEntry } from '../../replies.js';
import { newId, nowTimestamp } from '../../store.js';
import { formatTimestamp } from '../../timestamps.js';

/** How long the part URLs of an upload work, in milliseconds. */
export const UPLOAD_URL_TTL_MS = 60 * 60 * 1000;

/** Most parts an upload may have (as S3's multipart uploads). */
export const MAX_UPLOAD_PARTS = 10_000;

/** A part of the create body. */
export interface FileCreatePart {
  number: number;
  chunk_start: number;
  chunk_end: number;
  checksum_sha256_base64?: string;
}

/** The create body, as validated against its schema. @see spec/openapi.yaml, schema FileCreate */
export interface FileCreateBody {
  name: string;
  mime_type: string;
  size: number;
  upload: { parts: FileCreatePart[] };
  service: FileService;
  organization_id?: string;
  checksum_sha256_base64?: string;
  version?: string;
}

const SHA256_BASE64 = /^[A-Za-z0-9+/]{43}=$/;

/**
 * What the schema cannot say about a create body.
 * @returns validation entries (loc `["body", ...]`), empty when the plan is sound
 */
export function checkUploadPlan(body: FileCreateBody): ValidationEntry[] {
  const entries: ValidationEntry[] = [];
  const parts = body.upload.parts;
  const at = (index: number, field: string) => ['body', 'upload', 'parts', index, field];
  if (body.size < 1) entries.push({ loc: ['body', 'size'], msg: 'Input should be greater than or equal to 1: an empty file has no part to upload', type: 'greater_than_equal', input: body.size, ctx: { ge: 1 } });
  if (parts.length > MAX_UPLOAD_PARTS) entries.push({ loc: ['body', 'upload', 'parts'], msg: `List should have at most ${MAX_UPLOAD_PARTS} items after validation`, type: 'too_long', ctx: { max_length: MAX_UPLOAD_PARTS } });
  if (body.checksum_sha256_base64 !== undefined && !SHA256_BASE64.test(body.checksum_sha256_base64)) {
    entries.push({ loc: ['body', 'checksum_sha256_base64'], msg: 'Value error, must be the base64 of a SHA-256 digest (44 characters)', type: 'value_error', input: body.checksum_sha256_base64 });
  }
  let next = 0;
  parts.forEach((part, index) => {
    if (part.number !== index + 1) entries.push({ loc: at(index, 'number'), msg: `Value error, parts must be numbered 1 to ${parts.length} in order; expected ${index + 1}`, type: 'value_error', input: part.number });
    if (part.chunk_start !== next) entries.push({ loc: at(index, 'chunk_start'), msg: `Value error, parts must be contiguous from byte 0; expected ${next}`, type: 'value_error', input: part.chunk_start });
    if (part.chunk_end < part.chunk_start) entries.push({ loc: at(index, 'chunk_end'), msg: 'Value error, chunk_end must not be before chunk_start', type: 'value_error', input: part.chunk_end });
    if (part.checksum_sha256_base64 !== undefined && !SHA256_BASE64.test(part.checksum_sha256_base64)) {
      entries.push({ loc: at(index, 'checksum_sha256_base64'), msg: 'Value error, must be the base64 of a SHA-256 digest (44 characters)', type: 'value_error', input: part.checksum_sha256_base64 });
    }
    next = Math.max(part.chunk_start, part.chunk_end) + 1;
  });
  const last = parts.length - 1;
  if (body.size >= 1 && last >= 0 && parts[last]!.chunk_end !== body.size - 1) {
    entries.push({ loc: at(last, 'chunk_end'), msg: `Value error, the parts must cover bytes 0 to size - 1; the last must end at ${body.size - 1}`, type: 'value_error', input: parts[last]!.chunk_end });
  }
  return entries;
}

/**
 * The organization a new file belongs to: the body's organization_id when it is one of the
 * caller's, else the caller's only organization.
 * @returns the id, or the validation entry to answer
 */
export function fileOrganization(principal: Principal, body: FileCreateBody): { ok: true; id: string } | { ok: false; entry: ValidationEntry } {
  if (body.organization_id !== undefined) {
    const id = body.organization_id.toLowerCase();
    if (principal.organizationIds.includes(id)) return { ok: true, id };
    return { ok: false, entry: { loc: ['body', 'organization_id'], msg: 'Value error, organization not found', type: 'value_error', input: body.organization_id } };
  }
  if (principal.organizationIds.length === 1) return { ok: true, id: principal.organizationIds[0]! };
  return { ok: false, entry: { loc: ['body', 'organization_id'], msg: 'Field required: the token belongs to several organizations', type: 'missing' } };
}

/** Stores a new file (not uploaded) and its upload; part URLs expire {@link UPLOAD_URL_TTL_MS} from now. */
export function createFile(ctx: MachineContext, organizationId: string, body: FileCreateBody): { file: FileRecord; upload: UploadRecord } {
  const { store } = ctx;
  const at = nowTimestamp(store);
  const expiresAt = formatTimestamp((store.clock().getTime() + UPLOAD_URL_TTL_MS) * 1000);
  const id = newId(store);
  const path = `${organizationId}/${id}/${body.name}`;
  const file = store.files.insert({
    id,
    organization_id: organizationId,
    created_at: at,
    modified_at: null,
    name: body.name,
    path,
    mime_type: body.mime_type,
    size: body.size,
    storage_version: null,
    checksum_etag: null,
    checksum_sha256_base64: null,
    checksum_sha256_hex: null,
    last_modified_at: null,
    version: body.version ?? null,
    is_uploaded: false,
    service: body.service,
    flagged_malicious_at: null,
  });
  const upload = store.uploads.insert({
    id: newId(store),
    organization_id: organizationId,
    created_at: at,
    modified_at: null,
    file_id: id,
    path,
    checksum_sha256_base64: body.checksum_sha256_base64 ?? null,
    parts: body.upload.parts.map((part) => ({
      number: part.number,
      chunk_start: part.chunk_start,
      chunk_end: part.chunk_end,
      checksum_sha256_base64: part.checksum_sha256_base64 ?? null,
      expires_at: expiresAt,
      received: null,
    })),
  });
  return { file, upload };
}
