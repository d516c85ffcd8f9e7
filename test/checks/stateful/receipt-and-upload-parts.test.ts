// The pure judgements of receipt_fetchable (the receipt URL and the document it serves) and of
// upload_parts_match_request (the upload parts a file creation answers), each with passing cases
// and failing ones of the exact kind.
import { describe, expect, test } from 'vitest';
import { receiptDocumentFindings, receiptUrl } from '../../../checks/stateful/receipt.js';
import { answeredAt, EXPIRY_SKEW_TOLERANCE_MS, uploadPartsFindings, type RequestedPart } from '../../../checks/stateful/upload-parts.js';
import type { Exchange } from '../../../core/types.js';

const ORDER = '0b7f3c1e-5a2d-4c8e-9f10-2b3c4d5e6f70';
const kinds = (findings: { kind: string }[]) => findings.map((f) => f.kind);

/** An exchange of a GET to a URL outside the document, answered as given (no answer when `status` is undefined). */
function fetched(status: number | undefined, body = '', headers: Record<string, string> = {}): Exchange {
  return {
    case: { id: 'receipt_fetchable#1', operationId: 'GET /__receipts/x.pdf', pathParams: {}, query: {}, headers: {}, role: null },
    operationId: 'GET /__receipts/x.pdf',
    request: { method: 'GET', url: 'http://127.0.0.1:1/__receipts/x.pdf?signature=s', headers: { accept: '*/*' } },
    ...(status === undefined ? { transportError: { code: 'ECONNRESET', message: 'reset' } } : { response: { status, headers, body, elapsedMs: 1 } }),
  };
}

describe('receipt', () => {
  test.each<[string, unknown, boolean]>([
    ['an https URL', 'https://storage.example.com/receipts/1.pdf?X-Amz-Signature=abc', true],
    ['an http URL (a local reference)', 'http://127.0.0.1:4010/__receipts/1.pdf?signature=abc', true],
    ['a relative URL', '/__receipts/1.pdf', false],
    ['another scheme', 'ftp://storage.example.com/1.pdf', false],
    ['no url', undefined, false],
  ])('receiptUrl: %s', (_name, url, absolute) => {
    const judged = receiptUrl(url === undefined ? {} : { url }, ORDER);
    expect('url' in judged).toBe(absolute);
    if ('finding' in judged) expect(judged.finding).toMatchObject({ kind: 'receipt_url_not_absolute', actual: url });
  });

  test.each<[string, Exchange, string[]]>([
    ['a PDF served as application/pdf', fetched(200, '%PDF-1.4\n1 0 obj', { 'content-type': 'application/pdf' }), []],
    ['a PDF served as application/octet-stream (by its header)', fetched(200, '%PDF-1.7\n…', { 'content-type': 'binary/octet-stream' }), []],
    ['application/pdf with parameters', fetched(200, 'x', { 'content-type': 'Application/PDF; qs=1' }), []],
    ['an HTML page', fetched(200, '<html>receipt</html>', { 'content-type': 'text/html' }), ['receipt_not_pdf']],
    ['JSON with no content type', fetched(200, '{"url":"x"}'), ['receipt_not_pdf']],
    ['a 403 (signature refused)', fetched(403, '{"error":"NotPermitted"}', { 'content-type': 'application/json' }), ['receipt_not_fetchable']],
    ['an empty 200', fetched(200, '', { 'content-type': 'application/pdf' }), ['receipt_not_fetchable']],
    ['no answer', fetched(undefined), ['receipt_not_fetchable']],
  ])('receiptDocumentFindings: %s', (_name, exchange, expected) => {
    expect(kinds(receiptDocumentFindings(exchange))).toEqual(expected);
  });
});

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
