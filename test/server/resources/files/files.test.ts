import { createHash } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_PART_BYTES } from '../../../../server/app.js';
import { expectConforms, ids, localPath, tamperedSignature, testServer, type TestServer } from '../../support.js';

let server: TestServer;

beforeAll(async () => {
  server = await testServer();
});

beforeEach(() => {
  server.control.reset();
});

const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('base64');

/** A create body for `content` split at the given offsets. */
function plan(content: Buffer, cuts: number[], options: { partChecksums?: boolean; fileChecksum?: string } = {}) {
  const bounds = [0, ...cuts, content.length];
  const parts = bounds.slice(0, -1).map((start, i) => ({
    number: i + 1,
    chunk_start: start,
    chunk_end: bounds[i + 1]! - 1,
    ...(options.partChecksums ? { checksum_sha256_base64: sha(content.subarray(start, bounds[i + 1])) } : {}),
  }));
  return { name: 'data.bin', mime_type: 'application/octet-stream', size: content.length, service: 'downloadable', upload: { parts }, ...(options.fileChecksum ? { checksum_sha256_base64: options.fileChecksum } : {}) };
}

async function create(body: unknown) {
  const response = await server.send('POST', '/v1/files/', { json: body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { id: string; upload: { parts: { url: string; number: number; chunk_start: number; chunk_end: number; headers: Record<string, string>; expires_at: string }[] } };
}

const put = (url: string, data: Buffer, headers: Record<string, string> = {}) => server.app.inject({ method: 'PUT', url: localPath(url), payload: data, headers });
const stored = (id: string) => server.store.files.get(id)!;

describe('files:create', () => {
  it('answers the file not uploaded, with one presigned URL per part that expires in an hour', async () => {
    const response = await server.send('POST', '/v1/files/', { json: plan(Buffer.alloc(30), [10, 20], { partChecksums: true }) });
    expectConforms(server, 'files:create', response);
    const file = response.json();
    expect(file).toMatchObject({ is_uploaded: false, service: 'downloadable', size: 30, organization_id: server.fixtures.organization_id, checksum_sha256_hex: null });
    expect(file.path).toBe(`${server.fixtures.organization_id}/${file.id}/data.bin`);
    expect(file.upload.parts.map((p: any) => [p.number, p.chunk_start, p.chunk_end])).toEqual([[1, 0, 9], [2, 10, 19], [3, 20, 29]]);
    for (const part of file.upload.parts) {
      expect(part.url).toMatch(new RegExp(`^http://localhost:80/__uploads/${file.upload.id}/${part.number}\\?expires=\\d+&signature=`));
      expect(Date.parse(part.expires_at) - Date.now()).toBeGreaterThan(59 * 60 * 1000);
      expect(part.headers).toEqual({ 'x-amz-checksum-sha256': part.checksum_sha256_base64, 'x-amz-sdk-checksum-algorithm': 'SHA256' });
    }
  });

  it.each(['downloadable', 'product_media', 'organization_avatar', 'support_case_attachment'])('creates a %s file', async (service) => {
    const response = await server.send('POST', '/v1/files/', { json: { ...plan(Buffer.alloc(5), []), service } });
    expectConforms(server, 'files:create', response);
    expect(response.json().service).toBe(service);
  });

  const parts = (...ranges: [number, number, number][]) => ranges.map(([number, chunk_start, chunk_end]) => ({ number, chunk_start, chunk_end }));
  it.each<[string, Record<string, unknown>, (string | number)[]]>([
    ['a gap between parts', { size: 20, upload: { parts: parts([1, 0, 9], [2, 11, 19]) } }, ['body', 'upload', 'parts', 1, 'chunk_start']],
    ['overlapping parts', { size: 20, upload: { parts: parts([1, 0, 9], [2, 9, 19]) } }, ['body', 'upload', 'parts', 1, 'chunk_start']],
    ['parts out of order', { size: 20, upload: { parts: parts([2, 0, 9], [1, 10, 19]) } }, ['body', 'upload', 'parts', 0, 'number']],
    ['parts short of the size', { size: 20, upload: { parts: parts([1, 0, 9]) } }, ['body', 'upload', 'parts', 0, 'chunk_end']],
    ['a part ending before it starts', { size: 20, upload: { parts: parts([1, 0, 9], [2, 10, 5]) } }, ['body', 'upload', 'parts', 1, 'chunk_end']],
    ['a part not starting at 0', { size: 20, upload: { parts: parts([1, 1, 19]) } }, ['body', 'upload', 'parts', 0, 'chunk_start']],
    ['an empty file', { size: 0, upload: { parts: parts([1, 0, 0]) } }, ['body', 'size']],
    ['no parts', { size: 20, upload: { parts: [] } }, ['body', 'upload', 'parts']],
    ['a malformed part checksum', { size: 1, upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 0, checksum_sha256_base64: 'abc' }] } }, ['body', 'upload', 'parts', 0, 'checksum_sha256_base64']],
    ['no service', { service: undefined }, ['body', 'service']],
    ['no name', { name: undefined }, ['body', 'name']],
    ['a negative chunk_start', { size: 20, upload: { parts: parts([1, -1, 19]) } }, ['body', 'upload', 'parts', 0, 'chunk_start']],
    ['another organization', { organization_id: '4420a347-0929-4b16-9b60-8a8f9e22c62e' }, ['body', 'organization_id']],
  ])('refuses %s with 422 at its location', async (_name, change, loc) => {
    const body = { ...plan(Buffer.alloc(20), [10]), ...change };
    const response = await server.send('POST', '/v1/files/', { json: JSON.parse(JSON.stringify(body)) });
    expect(response.statusCode, response.body).toBe(422);
    expectConforms(server, 'files:create', response);
    expect(response.json().detail.map((entry: { loc: unknown[] }) => entry.loc)).toContainEqual(loc);
  });
});

describe('uploading parts', () => {
  it('turns the file uploaded, with its checksums, once every part has arrived in any order', async () => {
    const content = Buffer.from('The quick brown fox jumps over the lazy dog');
    const file = await create(plan(content, [10, 30], { partChecksums: true, fileChecksum: sha(content) }));
    const [first, second, third] = file.upload.parts;
    for (const part of [third!, first!]) {
      const response = await put(part.url, content.subarray(part.chunk_start, part.chunk_end + 1), part.headers);
      expect(response.statusCode).toBe(200);
      expect(response.headers.etag).toBe(`"${createHash('md5').update(content.subarray(part.chunk_start, part.chunk_end + 1)).digest('hex')}"`);
      expect(stored(file.id).is_uploaded).toBe(false);
    }
    expect((await put(second!.url, content.subarray(10, 30))).statusCode).toBe(200);
    expect(stored(file.id)).toMatchObject({ is_uploaded: true, checksum_sha256_base64: sha(content), checksum_sha256_hex: createHash('sha256').update(content).digest('hex') });
    expect(stored(file.id).checksum_etag).toMatch(/^"[0-9a-f]{32}-3"$/);
    const listed = await server.get('/v1/files/', { ids: file.id });
    expectConforms(server, 'files:list', listed);
    expect(listed.json().items[0]).toMatchObject({ id: file.id, is_uploaded: true, flagged_malicious_at: null });
  });

  it('refuses a part whose bytes do not match its checksum, and the file stays not uploaded', async () => {
    const content = Buffer.from('0123456789');
    const file = await create(plan(content, [], { partChecksums: true }));
    const response = await put(file.upload.parts[0]!.url, Buffer.from('9876543210'));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'BadRequest', detail: expect.stringContaining('BadDigest') });
    expect(stored(file.id).is_uploaded).toBe(false);
    expect((await put(file.upload.parts[0]!.url, content)).statusCode).toBe(200);
    expect(stored(file.id).is_uploaded).toBe(true);
  });

  it('checks an x-amz-checksum-sha256 header too', async () => {
    const file = await create(plan(Buffer.from('abc'), []));
    const response = await put(file.upload.parts[0]!.url, Buffer.from('abc'), { 'x-amz-checksum-sha256': sha('xyz') });
    expect(response.statusCode).toBe(400);
  });

  it('refuses the last part when the whole file does not match checksum_sha256_base64', async () => {
    const file = await create(plan(Buffer.from('abcdef'), [3], { fileChecksum: sha('other') }));
    expect((await put(file.upload.parts[0]!.url, Buffer.from('abc'))).statusCode).toBe(200);
    expect((await put(file.upload.parts[1]!.url, Buffer.from('def'))).statusCode).toBe(400);
    expect(stored(file.id).is_uploaded).toBe(false);
  });

  it.each([['too short', 'abc'], ['too long', 'abcdefghijk']])('refuses a part %s for its range', async (_name, data) => {
    const file = await create(plan(Buffer.alloc(10), []));
    const response = await put(file.upload.parts[0]!.url, Buffer.from(data));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('BadRequest');
  });

  it('refuses a part after expires_at (403), by the server clock', async () => {
    const file = await create(plan(Buffer.from('abc'), []));
    server.control.advanceClock(60 * 60 * 1000);
    const response = await put(file.upload.parts[0]!.url, Buffer.from('abc'));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'NotPermitted', detail: expect.stringContaining('expired') });
    expect(stored(file.id).is_uploaded).toBe(false);
  });

  it('refuses a part larger than the reference takes in one PUT with 413 and an error body', async () => {
    const file = await create(plan(Buffer.alloc(10), []));
    const response = await put(file.upload.parts[0]!.url, Buffer.alloc(MAX_UPLOAD_PART_BYTES + 1));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'PayloadTooLarge', detail: expect.any(String) });
  });

  it('answers 404 for a validly signed URL of an upload the server no longer has (after a reset)', async () => {
    const file = await create(plan(Buffer.from('abc'), []));
    server.control.reset();
    const response = await put(file.upload.parts[0]!.url, Buffer.from('abc'));
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('ResourceNotFound');
  });

  it('refuses a tampered URL or another part\'s path (403) and a part of a complete file (409)', async () => {
    const file = await create(plan(Buffer.from('abc'), []));
    const url = file.upload.parts[0]!.url;
    expect((await put(tamperedSignature(url), Buffer.from('abc'))).statusCode).toBe(403);
    expect((await put(url.replace(/\/1\?/, '/2?'), Buffer.from('abc'))).statusCode).toBe(403);
    expect((await put(url.replace(/expires=\d+/, 'expires=99999999999'), Buffer.from('abc'))).statusCode).toBe(403);
    expect((await put(url, Buffer.from('abc'))).statusCode).toBe(200);
    const again = await put(url, Buffer.from('abc'));
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('Conflict');
  });
});

describe('files:list', () => {
  it('lists the files of every service of the caller\'s organization, newest first', async () => {
    const { items, totalCount } = await server.all('/v1/files/');
    const own = server.store.files.inOrganization(server.fixtures.organization_id!);
    expect(totalCount).toBe(own.length);
    expect(new Set(items.map((item) => item.service)).size).toBe(4);
    expect(items.every((item) => item.organization_id === server.fixtures.organization_id && 'flagged_malicious_at' in item)).toBe(true);
    expect(items.some((item) => item.flagged_malicious_at !== null)).toBe(true);
    for (let i = 1; i < items.length; i++) expect(items[i - 1].created_at >= items[i].created_at).toBe(true);
  });

  it('filters by ids (one or repeated) and organization_id', async () => {
    const own = server.store.files.inOrganization(server.fixtures.organization_id!);
    const one = (await server.get('/v1/files/', { ids: own[3]!.id })).json();
    expect(ids(one.items)).toEqual([own[3]!.id]);
    const two = (await server.get('/v1/files/', { ids: [own[3]!.id, own[5]!.id] })).json();
    expect(ids(two.items).sort()).toEqual([own[3]!.id, own[5]!.id].sort());
    const foreign = (await server.get('/v1/files/', { organization_id: server.fixtures.other_organization_id! })).json();
    expect(foreign.pagination.total_count).toBe(0);
    const otherFile = server.store.files.inOrganization(server.fixtures.other_organization_id!)[0]!;
    expect((await server.get('/v1/files/', { ids: otherFile.id })).json().items).toEqual([]);
  });

  it('pages without overlap', async () => {
    const { pages, items } = await server.all('/v1/files/', { limit: 7 });
    expect(new Set(ids(items)).size).toBe(items.length);
    expect(pages.slice(0, -1).every((page) => page.length === 7)).toBe(true);
  });
});
