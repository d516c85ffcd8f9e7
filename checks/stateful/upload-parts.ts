/**
 * What the upload checks and the files scenarios share about a file creation's answer: its upload
 * parts and whether a part's URL can be sent to. The judgements are checks of one exchange
 * (checks/upload-parts-match-request.ts, checks/upload-links-unexpired.ts).
 * @see spec/rules.yaml files.upload_parts; operation files:create
 */
import type { CheckContext } from '../../core/types.js';

/** `appliesTo` of the checks of a file creation: the operation is `POST /v1/files/` (operation files:create). */
export function isFileCreation({ operation }: Pick<CheckContext, 'operation'>): true | string {
  return (operation.method === 'POST' && operation.path === '/v1/files/') || 'not the file creation (POST /v1/files/)';
}

/** The upload parts of a create answer, or undefined when it has no `upload.parts` array. */
export function answeredParts(created: Record<string, unknown>): Record<string, unknown>[] | undefined {
  const upload = created.upload;
  if (typeof upload !== 'object' || upload === null || !Array.isArray((upload as Record<string, unknown>).parts)) return undefined;
  return ((upload as Record<string, unknown>).parts as unknown[]).map((part) => (typeof part === 'object' && part !== null && !Array.isArray(part) ? (part as Record<string, unknown>) : {}));
}

/** Whether an answered part's url is an absolute http(s) URL, one the client can send the part to. */
export function usableUrl(part: Record<string, unknown>): boolean {
  if (typeof part.url !== 'string' || !URL.canParse(part.url)) return false;
  const { protocol } = new URL(part.url);
  return protocol === 'https:' || protocol === 'http:';
}
