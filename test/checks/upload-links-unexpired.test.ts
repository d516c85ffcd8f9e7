// upload_links_unexpired on hand-made file creations: links that expire after the answer's Date
// pass, within the minute of clock skew too; a link expired when handed out and an expiry that is
// no date-time fail with their exact kinds; an answer without a readable Date header, without
// parts or with an error is not judged; and its applicability.
import { describe, expect, test } from 'vitest';
import { uploadLinksUnexpired } from '../../checks/upload-links-unexpired.js';
import type { Exchange } from '../../core/types.js';
import { testApplicability } from './cases.js';
import { context, exchange } from './fixtures.js';

/** The answer's Date header: 2026-11-22T10:00:00Z. */
const DATE = 'Sun, 22 Nov 2026 10:00:00 GMT';
const EXPIRED = ['upload_link_already_expired'];
const INVALID = ['upload_link_expiry_invalid'];

/** A part of the answer expiring at `expires_at` (a missing key when undefined). */
const part = (number: number, expires_at?: unknown) => ({ number, chunk_start: 0, chunk_end: 3, url: `https://storage.example.com/upload/${number}`, headers: {}, ...(expires_at === undefined ? {} : { expires_at }) });

/** A `POST /v1/files/` answered `status` with a file of these parts, with these response headers (a Date by default). */
function creation(parts: unknown, headers: Record<string, string> = { date: DATE }, status = 201): Exchange {
  const made = exchange({ operationId: 'files:create', status, body: status < 300 ? { id: 'f', is_uploaded: false, upload: { id: 'u', path: 'p', parts } } : { detail: [] } });
  return { ...made, request: { ...made.request, method: 'POST', url: 'http://127.0.0.1:1/v1/files/' }, response: { ...made.response!, headers: { ...made.response!.headers, ...headers } } };
}

describe('upload_links_unexpired', () => {
  // [name, exchange, expected kinds ([] = passes)]
  test.each<[string, Exchange, string[]]>([
    ['links valid for an hour pass', creation([part(1, '2026-11-22T11:00:00.123456Z'), part(2, '2026-11-22T11:00:00.123456Z')]), []],
    ['a link expiring 59 s before the Date passes (clock skew)', creation([part(1, '2026-11-22T09:59:01Z')]), []],
    ['a link expiring 59.5 s before the Date passes (the Date is whole seconds)', creation([part(1, '2026-11-22T09:59:00.500000Z')]), []],
    ['a link expiring 61 s before the Date fails', creation([part(1, '2026-11-22T09:58:59Z')]), EXPIRED],
    ['a link expired two hours before the answer fails', creation([part(1, '2026-11-22T11:00:00Z'), part(2, '2026-11-22T08:00:00Z')]), EXPIRED],
    ['an expiry with an offset compares as an instant: 10:30Z passes', creation([part(1, '2026-11-22T12:30:00+02:00')]), []],
    ['an expiry with an offset compares as an instant: 09:30Z fails', creation([part(1, '2026-11-22T11:30:00+02:00')]), EXPIRED],
    ['each expired link is a finding', creation([part(1, '2026-11-22T08:00:00Z'), part(2, '2026-11-22T08:00:00Z')]), [...EXPIRED, ...EXPIRED]],
    ['an expiry that is no date-time fails', creation([part(1, 'in an hour')]), INVALID],
    ['an expiry in epoch seconds fails', creation([part(1, 1795940001)]), INVALID],
    ['a part without expires_at fails', creation([part(1)]), INVALID],
    ['without a Date header, an expired link is not judged', creation([part(1, '2020-01-01T00:00:00Z')], { date: '' }), []],
    ['with an unreadable Date header, an expired link is not judged', creation([part(1, '2020-01-01T00:00:00Z')], { date: 'yesterday' }), []],
    ['an answer without upload parts is not judged', creation(undefined), []],
    ['an error answer is not judged', creation([part(1, '2020-01-01T00:00:00Z')], { date: DATE }, 422), []],
  ])('%s', async (_name, made, expected) => {
    const findings = uploadLinksUnexpired.run(await context('files:create'), made, []);
    expect(findings.map((f) => f.kind)).toEqual(expected);
    for (const f of findings) expect(f.message.length).toBeGreaterThan(0);
  });

  test('a response without any Date header is not judged', async () => {
    const made = creation([part(1, '2020-01-01T00:00:00Z')]);
    const { date: _date, ...headers } = made.response!.headers;
    expect(uploadLinksUnexpired.run(await context('files:create'), { ...made, response: { ...made.response!, headers } }, [])).toEqual([]);
  });
});

describe('applicability', () => {
  testApplicability([
    [uploadLinksUnexpired, 'files:create', true],
    [uploadLinksUnexpired, 'files:list', 'not the file creation (POST /v1/files/)'],
  ]);
});
