import type { Check, Exchange, Finding } from '../core/types.js';
import { successJson } from './response-objects.js';
import { answeredParts, isFileCreation, usableUrl } from './stateful/upload-parts.js';
import { requestFields } from './support.js';

/** A part as the create request asks for it. @see spec/openapi.yaml, schema FileCreatePart */
export interface RequestedPart {
  number: unknown;
  /** First byte of the part, inclusive. */
  chunk_start: unknown;
  /** Last byte of the part, inclusive. */
  chunk_end: unknown;
}

/** The parts a create request asks for (`upload.parts` of its body), or undefined when it asks for none. */
export function requestedParts(exchange: Exchange): RequestedPart[] | undefined {
  const upload = requestFields(exchange).upload;
  const parts = typeof upload === 'object' && upload !== null ? (upload as { parts?: unknown }).parts : undefined;
  return Array.isArray(parts) ? parts.filter((part): part is RequestedPart => typeof part === 'object' && part !== null) : undefined;
}

/** The fields of the created file that the request names and the answer shows as given. */
const ECHOED = ['name', 'mime_type', 'size', 'service'] as const;

/**
 * Findings about a file creation's answer against its request: one upload part per requested
 * part number, each covering the bytes asked for, with an absolute URL and a headers object; the
 * file's name, MIME type, size and service as asked; `is_uploaded` false.
 * @returns `upload_parts_missing`, `upload_part_missing`, `upload_part_duplicated`,
 *   `upload_part_not_requested`, `upload_part_range_mismatch`, `upload_part_url_invalid`,
 *   `upload_part_headers_missing`, `created_file_differs_from_request`, `created_file_uploaded`
 */
export function uploadPartsFindings(requested: readonly RequestedPart[], created: Record<string, unknown>, asked: Record<string, unknown>): Finding[] {
  const findings: Finding[] = [];
  const differing = ECHOED.filter((field) => asked[field] !== undefined && created[field] !== undefined && created[field] !== asked[field]);
  if (differing.length > 0) {
    findings.push({ kind: 'created_file_differs_from_request', title: 'The created file is not the one requested', message: `POST /v1/files/ asked for ${differing.map((f) => `${f} ${JSON.stringify(asked[f])}`).join(', ')} and answered ${differing.map((f) => `${f} ${JSON.stringify(created[f])}`).join(', ')}.`, expected: Object.fromEntries(differing.map((f) => [f, asked[f]])), actual: Object.fromEntries(differing.map((f) => [f, created[f]])) });
  }
  if (created.is_uploaded === true) {
    findings.push({ kind: 'created_file_uploaded', title: 'A file is answered uploaded when it is created', message: 'POST /v1/files/ answered is_uploaded true; no part has been sent yet.', expected: false, actual: true });
  }
  const parts = answeredParts(created);
  if (!parts) {
    return [...findings, { kind: 'upload_parts_missing', title: 'The created file has no upload parts', message: `POST /v1/files/ with ${requested.length} part(s) answered upload ${JSON.stringify(created.upload)}, without an upload.parts array.`, expected: `${requested.length} upload part(s)`, actual: created.upload ?? null }];
  }
  for (const asked of requested) {
    const answered = parts.filter((part) => part.number === asked.number);
    if (answered.length === 0) {
      findings.push({ kind: 'upload_part_missing', title: 'A requested upload part is not answered', message: `Part ${JSON.stringify(asked.number)} was requested, but the answer's upload.parts has numbers ${JSON.stringify(parts.map((part) => part.number))}.`, expected: asked.number, actual: parts.map((part) => part.number) });
    } else if (answered.length > 1) {
      findings.push({ kind: 'upload_part_duplicated', title: 'An upload part is answered more than once', message: `Part ${JSON.stringify(asked.number)} was requested once and answered ${answered.length} times.`, expected: 1, actual: answered.length });
    }
  }
  for (const part of parts) {
    const label = `Upload part ${JSON.stringify(part.number)}`;
    const asked = requested.find((r) => r.number === part.number);
    if (!asked) {
      findings.push({ kind: 'upload_part_not_requested', title: 'An upload part was not requested', message: `${label} of the answer matches no requested part number (${JSON.stringify(requested.map((r) => r.number))}).`, expected: requested.map((r) => r.number), actual: part.number });
    } else if (part.chunk_start !== asked.chunk_start || part.chunk_end !== asked.chunk_end) {
      findings.push({ kind: 'upload_part_range_mismatch', title: 'An upload part covers other bytes than requested', message: `${label} covers bytes ${JSON.stringify(part.chunk_start)} to ${JSON.stringify(part.chunk_end)}; ${JSON.stringify(asked.chunk_start)} to ${JSON.stringify(asked.chunk_end)} were requested.`, expected: { chunk_start: asked.chunk_start, chunk_end: asked.chunk_end }, actual: { chunk_start: part.chunk_start, chunk_end: part.chunk_end } });
    }
    if (!usableUrl(part)) {
      findings.push({ kind: 'upload_part_url_invalid', title: 'An upload part has no absolute URL', message: `${label} has url ${JSON.stringify(part.url)}; each part is answered with the URL of the storage location it is sent to.`, expected: 'an absolute http(s) URL', actual: part.url });
    }
    if (typeof part.headers !== 'object' || part.headers === null || Array.isArray(part.headers)) {
      findings.push({ kind: 'upload_part_headers_missing', title: 'An upload part has no headers object', message: `${label} has headers ${JSON.stringify(part.headers)}; each part is answered with the headers to send it with.`, expected: 'an object', actual: part.headers ?? null });
    }
  }
  return findings;
}

/**
 * A file creation's answer agrees with its request: the upload parts asked for (the same numbers
 * and byte ranges, each with a URL and headers), the file as asked (name, MIME type, size,
 * service) and not uploaded yet. Judged on every successful `POST /v1/files/` whose request asks
 * for upload parts, whoever sent it.
 * @see spec/rules.yaml files.upload_parts, files.not_uploaded_at_creation; operation files:create
 */
export const uploadPartsMatchRequest: Check = {
  id: 'upload_parts_match_request',
  title: 'A created file does not answer the upload it was asked for',
  severity: 'high',
  rule: 'files.upload_parts',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'state',
  level: 'must',
  needs: 'exchange',
  appliesTo: isFileCreation,
  run(_ctx, exchange) {
    const created = successJson(exchange);
    const requested = requestedParts(exchange);
    if (!requested || typeof created !== 'object' || created === null || Array.isArray(created)) return [];
    return uploadPartsFindings(requested, created as Record<string, unknown>, requestFields(exchange));
  },
};
