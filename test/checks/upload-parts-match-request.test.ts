// upload_parts_match_request: uploadPartsFindings on a file creation's answer against the parts and
// the file requested (a passing case, each finding kind exactly); the check on hand-made exchanges
// (judged only on a successful creation that asks for parts); requestedParts; its applicability.
import { describe, expect, test } from 'vitest';
import { requestedParts, uploadPartsFindings, uploadPartsMatchRequest, type RequestedPart } from '../../checks/upload-parts-match-request.js';
import type { Exchange } from '../../core/types.js';
import { testApplicability } from './cases.js';
import { context, exchange } from './fixtures.js';

const requested: RequestedPart[] = [
  { number: 1, chunk_start: 0, chunk_end: 1499 },
  { number: 2, chunk_start: 1500, chunk_end: 2199 },
  { number: 3, chunk_start: 2200, chunk_end: 2200 },
];
/** The file the request asks for. */
const asked = { name: 'a.bin', mime_type: 'application/octet-stream', size: 2201, service: 'downloadable' };
/** The answered part of a requested one: echoed, with a URL, headers and an expiry. */
const answer = (part: RequestedPart, extra: Record<string, unknown> = {}) => ({ ...part, url: `https://storage.example.com/upload/${part.number}?sig=x`, expires_at: '2026-11-22T11:00:00.123456Z', checksum_sha256_base64: 'abc=', headers: {}, ...extra });
/** The create answer: the file as asked, not uploaded, with these upload parts; `fields` override. */
const created = (parts: unknown, fields: Record<string, unknown> = {}) => ({ id: 'f', ...asked, is_uploaded: false, upload: { id: 'u', path: 'p', parts }, ...fields });
const good = requested.map((part) => answer(part));

describe('uploadPartsFindings', () => {
  // [name, created file, file asked for, expected kinds ([] = passes)]
  test.each<[string, Record<string, unknown>, Record<string, unknown>, string[]]>([
    ['every part echoed, in any order', created([good[2], good[0], good[1]]), asked, []],
    ['an expiry long past is upload_links_unexpired\'s', created([good[0], good[1], answer(requested[2]!, { expires_at: '2020-01-01T00:00:00Z' })]), asked, []],
    ['no upload.parts', created(undefined, { upload: { id: 'u' } }), asked, ['upload_parts_missing']],
    ['no upload at all', { id: 'f', ...asked, is_uploaded: false }, asked, ['upload_parts_missing']],
    ['a part missing', created([good[0], good[1]]), asked, ['upload_part_missing']],
    ['a part answered twice', created([...good, good[2]]), asked, ['upload_part_duplicated']],
    ['a part renumbered', created([good[0], good[1], answer({ ...requested[2]!, number: 4 })]), asked, ['upload_part_missing', 'upload_part_not_requested']],
    ['a part numbered "3" for 3', created([good[0], good[1], answer({ ...requested[2]!, number: '3' })]), asked, ['upload_part_missing', 'upload_part_not_requested']],
    ['a range one byte longer', created([good[0], answer({ ...requested[1]!, chunk_end: 2200 }), good[2]]), asked, ['upload_part_range_mismatch']],
    ['a range starting elsewhere', created([answer({ ...requested[0]!, chunk_start: 1 }), good[1], good[2]]), asked, ['upload_part_range_mismatch']],
    ['a relative url', created([answer(requested[0]!, { url: '/upload/1' }), good[1], good[2]]), asked, ['upload_part_url_invalid']],
    ['an ftp url', created([answer(requested[0]!, { url: 'ftp://storage.example.com/1' }), good[1], good[2]]), asked, ['upload_part_url_invalid']],
    ['a plain http url passes', created([answer(requested[0]!, { url: 'http://127.0.0.1:4010/__uploads/u/1?signature=s' }), good[1], good[2]]), asked, []],
    ['no headers', created([good[0], answer(requested[1]!, { headers: undefined }), good[2]]), asked, ['upload_part_headers_missing']],
    ['headers as a list', created([good[0], answer(requested[1]!, { headers: ['x-amz-checksum: 1'] }), good[2]]), asked, ['upload_part_headers_missing']],
    ['another name', created(good, { name: 'b.bin' }), asked, ['created_file_differs_from_request']],
    ['the size as a string', created(good, { size: '2201' }), asked, ['created_file_differs_from_request']],
    ['a field the request leaves out is not compared', created(good, { service: 'product_media' }), { ...asked, service: undefined }, []],
    ['a field the answer leaves out is not compared', created(good, { mime_type: undefined }), asked, []],
    ['uploaded at creation', created(good, { is_uploaded: true }), asked, ['created_file_uploaded']],
    ['every kind of the file, then the parts', created(undefined, { name: 'b.bin', is_uploaded: true, upload: null }), asked, ['created_file_differs_from_request', 'created_file_uploaded', 'upload_parts_missing']],
  ])('%s', (_name, body, file, expected) => {
    expect(uploadPartsFindings(requested, body, file).map((f) => f.kind)).toEqual(expected);
  });
});

/** A `POST /v1/files/` sent with `body` (JSON, or none) and answered `status` with `answered`. */
function creation(body: unknown, answered: unknown, status = 201): Exchange {
  const made = exchange({ operationId: 'files:create', status, body: answered });
  const sent = body === undefined ? {} : { body: JSON.stringify(body) };
  return { ...made, request: { method: 'POST', url: 'http://127.0.0.1:1/v1/files/', headers: { 'content-type': 'application/json' }, ...sent } };
}

describe('upload_parts_match_request', () => {
  const request = { ...asked, upload: { parts: requested } };
  // [name, exchange, expected kinds ([] = passes)]
  test.each<[string, Exchange, string[]]>([
    ['the upload asked for passes', creation(request, created(good)), []],
    ['a shifted range fails', creation(request, created([good[0], answer({ ...requested[1]!, chunk_end: 2200 }), good[2]])), ['upload_part_range_mismatch']],
    ['another file fails', creation(request, created(good, { size: 1 })), ['created_file_differs_from_request']],
    ['a request without parts is not judged', creation(asked, created([])), []],
    ['a request without a body is not judged', creation(undefined, created([])), []],
    ['an error answer is not judged', creation(request, { detail: [{ loc: ['body', 'upload'], msg: 'x', type: 'x' }] }, 422), []],
    ['an answer that is no object is not judged', creation(request, [created(good)]), []],
  ])('%s', async (_name, made, expected) => {
    const findings = uploadPartsMatchRequest.run(await context('files:create'), made, []);
    expect(findings.map((f) => f.kind)).toEqual(expected);
    for (const f of findings) expect(f.message.length).toBeGreaterThan(0);
  });
});

describe('requestedParts', () => {
  // [name, request body, expected parts]
  test.each<[string, unknown, RequestedPart[] | undefined]>([
    ['the parts of upload.parts', { upload: { parts: requested } }, requested],
    ['entries that are no object are left out', { upload: { parts: [requested[0], 'x', null, 3] } }, [requested[0]!]],
    ['none without upload', { name: 'a' }, undefined],
    ['none when parts is no array', { upload: { parts: {} } }, undefined],
    ['none when upload is null', { upload: null }, undefined],
  ])('%s', (_name, body, expected) => {
    expect(requestedParts(creation(body, {}))).toEqual(expected);
  });
});

describe('applicability', () => {
  testApplicability([
    [uploadPartsMatchRequest, 'files:create', true],
    [uploadPartsMatchRequest, 'files:list', 'not the file creation (POST /v1/files/)'],
  ]);
});
