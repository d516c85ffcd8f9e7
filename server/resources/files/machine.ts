/**
 * The file state machine: a file is created not uploaded and becomes uploaded when the last of its
 * parts arrives, with its checksums set. No event is emitted (the API description names none).
 * @see docs/design.md (Reference server: explicit transition tables per resource); spec/rules.yaml files.upload_completes
 */
import { emitEvent, type MachineContext } from '../../events.js';
import { planTransition, type TransitionRefused } from '../../machine.js';
import type { FileRecord } from '../../records.js';
import { fail, ok, type Result } from '../../result.js';
import { nowTimestamp } from '../../store.js';
import { FILE_TRANSITIONS, type FileTransition, type FileState } from './transitions.js';

export { FILE_TRANSITIONS, type FileTransition, type FileState };

/** The checksums of a completed upload. */
export interface UploadedContent {
  sha256: Buffer;
  /** S3-style multipart ETag, quoted (`"<md5 of the part md5s>-<parts>"`). */
  etag: string;
  storageVersion: string;
}

/** The state of a file record. */
export function fileState(file: FileRecord): FileState {
  return file.is_uploaded ? 'uploaded' : 'pending';
}

/**
 * Fires a file transition; `complete_upload` sets is_uploaded, the checksums, storage_version and
 * last_modified_at.
 * @returns the file, or the refusal when it is already uploaded
 */
export function fireFileTransition(ctx: MachineContext, file: FileRecord, name: FileTransition, content: UploadedContent): Result<FileRecord, TransitionRefused<FileState>> {
  const planned = planTransition<FileState, FileTransition>(FILE_TRANSITIONS, name, fileState(file));
  if (!planned.ok) return fail(planned.error);
  const at = nowTimestamp(ctx.store);
  ctx.store.files.update(file, {
    is_uploaded: true,
    checksum_sha256_base64: content.sha256.toString('base64'),
    checksum_sha256_hex: content.sha256.toString('hex'),
    checksum_etag: content.etag,
    storage_version: content.storageVersion,
    last_modified_at: at,
    modified_at: at,
  } satisfies Partial<FileRecord>);
  for (const type of planned.value.events as readonly string[]) emitEvent(ctx.store, type, { id: file.id });
  return ok(file);
}
