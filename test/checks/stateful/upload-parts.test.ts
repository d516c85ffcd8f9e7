// The judgements of upload_parts_match_request: the upload parts a file creation answers, against
// the parts requested, and the clock their expiry is judged by; passing cases and failing ones of
// the exact kind.
import { describe, expect, test } from 'vitest';
import { answeredAt, EXPIRY_SKEW_TOLERANCE_MS, uploadPartsFindings, type RequestedPart } from '../../../checks/stateful/upload-parts.js';
import { fetched, kinds } from './support.js';

describe('upload parts', () => {
  const NOW = Date.parse('2026-11-22T10:00:00Z');
  const requested: RequestedPart[] = [
    { number: 1, chunk_start: 0, chunk_end: 1499 },
    { number: 2, chunk_start: 1500, chunk_end: 2199 },
    { number: 3, chunk_start: 2200, chunk_end: 2200 },
  ];
  /** The answered part of a requested one: echoed, with a URL, headers and an expiry an hour after NOW. */
  const answer = (part: RequestedPart, extra: Record<string, unknown> = {}) => ({ ...part, url: `https://storage.example.com/upload/${part.number}?sig=x`, expires_at: '2026-11-22T11:00:00.123456Z', checksum_sha256_base64: 'abc=', headers: {}, ...extra });
  const created = (parts: unknown) => ({ id: 'f', is_uploaded: false, upload: { id: 'u', path: 'p', parts } });
  const good = requested.map((part) => answer(part));

  test.each<[string, Record<string, unknown>, string[]]>([
    ['every part echoed, in any order', created([good[2], good[0], good[1]]), []],
    ['an expiry a few seconds before the answer (clock skew)', created([good[0], good[1], answer(requested[2]!, { expires_at: '2026-11-22T09:59:55Z' })]), []],
    ['no upload.parts', { id: 'f', upload: { id: 'u' } }, ['upload_parts_missing']],
    ['a part missing', created([good[0], good[1]]), ['upload_part_missing']],
    ['a part answered twice', created([...good, good[2]]), ['upload_part_duplicated']],
    ['a part renumbered', created([good[0], good[1], answer({ ...requested[2]!, number: 4 })]), ['upload_part_missing', 'upload_part_not_requested']],
    ['another byte range', created([good[0], answer({ ...requested[1]!, chunk_end: 2200 }), good[2]]), ['upload_part_range_mismatch']],
    ['a relative url', created([answer(requested[0]!, { url: '/upload/1' }), good[1], good[2]]), ['upload_part_url_invalid']],
    ['no headers', created([good[0], answer(requested[1]!, { headers: undefined }), good[2]]), ['upload_part_headers_missing']],
    ['headers as a list', created([good[0], answer(requested[1]!, { headers: ['x-amz-checksum: 1'] }), good[2]]), ['upload_part_headers_missing']],
    ['expires_at that is no date-time', created([good[0], good[1], answer(requested[2]!, { expires_at: 'in an hour' })]), ['upload_part_expiry_invalid']],
    ['an expiry well before the answer', created([good[0], good[1], answer(requested[2]!, { expires_at: '2026-11-22T09:00:00Z' })]), ['upload_part_already_expired']],
  ])('uploadPartsFindings: %s', (_name, body, expected) => {
    expect(kinds(uploadPartsFindings(requested, body, NOW))).toEqual(expected);
  });

  test('the skew tolerance is the only slack: just past it is a finding', () => {
    const past = new Date(NOW - EXPIRY_SKEW_TOLERANCE_MS - 1000).toISOString();
    expect(kinds(uploadPartsFindings([requested[0]!], created([answer(requested[0]!, { expires_at: past })]), NOW))).toEqual(['upload_part_already_expired']);
  });

  test.each<[string, Record<string, string>, number]>([
    ["the answer's Date header (the target's clock)", { date: 'Sun, 22 Nov 2026 09:00:00 GMT' }, Date.parse('2026-11-22T09:00:00Z')],
    ['the harness clock without a Date header', {}, NOW],
    ['the harness clock when the Date header does not parse', { date: 'yesterday' }, NOW],
  ])('answeredAt: %s', (_name, headers, expected) => {
    expect(answeredAt({ ...fetched(200), response: { status: 200, headers, body: '', elapsedMs: 1 } }, NOW)).toBe(expected);
  });
});
