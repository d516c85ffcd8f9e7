/**
 * Judges the upload parts of a file creation: `POST /v1/files/` answers one upload part per part
 * the request asked for, with the same number, chunk_start and chunk_end, each with a url, headers
 * and an expires_at still to come.
 * @see spec/rules.yaml files.upload_parts ("The response carries upload.parts with a url, expires_at and headers for each part");
 *   operation files:create
 */
import type { Exchange, Finding } from '../../core/types.js';
import { instantMicros } from '../support.js';

/** A part as the create request asks for it. @see spec/openapi.yaml, schema FileCreatePart */
export interface RequestedPart {
  number: number;
  /** First byte of the part, inclusive. */
  chunk_start: number;
  /** Last byte of the part, inclusive. */
  chunk_end: number;
  checksum_sha256_base64?: string;
}

/**
 * How long before the answer an expires_at may lie and still count as "to come", in milliseconds:
 * the clock it is judged against (the answer's Date header, which a proxy may set, or the
 * harness's own) may differ from the one that set it by a few seconds, and a false failure from
 * clock skew is as bad as a miss.
 */
export const EXPIRY_SKEW_TOLERANCE_MS = 30_000;

/**
 * When an answer was given, in epoch milliseconds: its Date header (the target's clock, to the
 * second) when it has a valid one, else `receivedAt`, the harness's clock when it arrived.
 */
export function answeredAt(exchange: Exchange, receivedAt: number): number {
  const date = exchange.response?.headers.date;
  const parsed = date === undefined ? Number.NaN : Date.parse(date);
  return Number.isNaN(parsed) ? receivedAt : parsed;
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

/**
 * Findings about the upload parts of a create answer.
 * @param requested the parts of the request body
 * @param created the JSON object of the 2xx create answer
 * @param answeredAtMs when it was answered ({@link answeredAt}), epoch milliseconds
 * @returns `upload_parts_missing` when the answer has no upload.parts; else per requested number
 *   absent or answered twice `upload_part_missing` / `upload_part_duplicated`; per answered part
 *   `upload_part_not_requested` (a number not asked for), `upload_part_range_mismatch`
 *   (chunk_start or chunk_end not those asked for), `upload_part_url_invalid` (no absolute
 *   http(s) url), `upload_part_headers_missing` (headers not an object), `upload_part_expiry_invalid`
 *   (expires_at not a date-time) or `upload_part_already_expired` (expires_at more than
 *   {@link EXPIRY_SKEW_TOLERANCE_MS} before the answer); empty when every part is as asked
 */
export function uploadPartsFindings(requested: readonly RequestedPart[], created: Record<string, unknown>, answeredAtMs: number): Finding[] {
  const parts = answeredParts(created);
  if (!parts) {
    return [{ kind: 'upload_parts_missing', title: 'The created file has no upload parts', message: `POST /v1/files/ with ${requested.length} part(s) answered upload ${JSON.stringify(created.upload)}, without an upload.parts array.`, expected: `${requested.length} upload part(s)`, actual: created.upload ?? null }];
  }
  const findings: Finding[] = [];
  for (const asked of requested) {
    const answered = parts.filter((part) => part.number === asked.number);
    if (answered.length === 0) {
      findings.push({ kind: 'upload_part_missing', title: 'A requested upload part is not answered', message: `Part ${asked.number} was requested, but the answer's upload.parts has numbers ${JSON.stringify(parts.map((part) => part.number))}.`, expected: asked.number, actual: parts.map((part) => part.number) });
    } else if (answered.length > 1) {
      findings.push({ kind: 'upload_part_duplicated', title: 'An upload part is answered more than once', message: `Part ${asked.number} was requested once and answered ${answered.length} times.`, expected: 1, actual: answered.length });
    }
  }
  const expiryFloor = answeredAtMs - EXPIRY_SKEW_TOLERANCE_MS;
  for (const part of parts) {
    const label = `Upload part ${JSON.stringify(part.number)}`;
    const asked = requested.find((r) => r.number === part.number);
    if (!asked) {
      findings.push({ kind: 'upload_part_not_requested', title: 'An upload part was not requested', message: `${label} of the answer matches no requested part number (${JSON.stringify(requested.map((r) => r.number))}).`, expected: requested.map((r) => r.number), actual: part.number });
    } else if (part.chunk_start !== asked.chunk_start || part.chunk_end !== asked.chunk_end) {
      findings.push({ kind: 'upload_part_range_mismatch', title: 'An upload part covers other bytes than requested', message: `${label} covers bytes ${JSON.stringify(part.chunk_start)} to ${JSON.stringify(part.chunk_end)}; ${asked.chunk_start} to ${asked.chunk_end} were requested.`, expected: { chunk_start: asked.chunk_start, chunk_end: asked.chunk_end }, actual: { chunk_start: part.chunk_start, chunk_end: part.chunk_end } });
    }
    if (!usableUrl(part)) {
      findings.push({ kind: 'upload_part_url_invalid', title: 'An upload part has no absolute URL', message: `${label} has url ${JSON.stringify(part.url)}; each part is answered with the URL of the storage location it is sent to.`, expected: 'an absolute http(s) URL', actual: part.url });
    }
    if (typeof part.headers !== 'object' || part.headers === null || Array.isArray(part.headers)) {
      findings.push({ kind: 'upload_part_headers_missing', title: 'An upload part has no headers object', message: `${label} has headers ${JSON.stringify(part.headers)}; each part is answered with the headers to send it with.`, expected: 'an object', actual: part.headers ?? null });
    }
    const expires = instantMicros(part.expires_at);
    if (expires === undefined) {
      findings.push({ kind: 'upload_part_expiry_invalid', title: 'An upload part has no expires_at date-time', message: `${label} has expires_at ${JSON.stringify(part.expires_at)}, not an ISO 8601 date-time.`, expected: 'a date-time', actual: part.expires_at ?? null });
    } else if (expires / 1000 <= expiryFloor) {
      findings.push({ kind: 'upload_part_already_expired', title: 'An upload part URL has expired when handed out', message: `${label} expires at ${String(part.expires_at)}, before the answer was given (${new Date(answeredAtMs).toISOString()}, less ${EXPIRY_SKEW_TOLERANCE_MS / 1000} s for clock skew).`, expected: `expires_at after ${new Date(expiryFloor).toISOString()}`, actual: part.expires_at });
    }
  }
  return findings;
}
