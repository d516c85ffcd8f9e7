// Files: a file becomes uploaded once every part is PUT
// to the URL handed out for it (with the headers handed out, sha256 checksums declared); a part whose bytes
// do not match its declared sha256, or sent after its URL expired, is refused and the file stays
// not uploaded. The file is read back through the file list (filter ids).
import { createHash } from 'node:crypto';
import { answeredParts, usableUrl } from '../../checks/stateful/upload-parts.js';
import type { Exchange } from '../../core/types.js';
import { answerText, bodyOf, defineScenario, eventually, millisBetween, refused, statefulSuite, statusOf, succeeded, type ScenarioRun } from '../../engine/stateful/scenario.js';

const suite = await statefulSuite();

type Item = Record<string, unknown>;

/** Printable bytes derived from the run's seed (so that a part's text is its bytes). */
function content(label: string, size: number): string {
  let text = '';
  for (let block = 0; text.length < size; block++) text += createHash('sha256').update(`${suite.run.seed}:${label}:${block}`).digest('hex');
  return text.slice(0, size);
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('base64');

/** The body of a create request for a text file of `parts` (each the text of one part, sha256 declared), and its parts. */
function createRequest(name: string, parts: string[]): { body: Item; requested: Item[] } {
  let start = 0;
  const requested = parts.map((part, index) => {
    const entry = { number: index + 1, chunk_start: start, chunk_end: start + part.length - 1, checksum_sha256_base64: sha256(part) };
    start += part.length;
    return entry;
  });
  const body = {
    name: `${name}-${suite.run.seed}.txt`,
    mime_type: 'text/plain',
    size: parts.reduce((sum, part) => sum + part.length, 0),
    service: 'downloadable',
    checksum_sha256_base64: sha256(parts.join('')),
    upload: { parts: requested },
  };
  return { body, requested };
}

/** A file of `parts` (each the text of one part) created through the API; stops unless it is answered with an absolute URL per part. */
async function createFile(s: ScenarioRun, name: string, parts: string[]): Promise<{ id: string; created: Item; urls: Item[] }> {
  const created = s.require(await s.send('files:create', { role: 'admin', json: createRequest(name, parts).body }), 'POST /v1/files/');
  const urls = answeredParts(created) ?? [];
  if (typeof created.id !== 'string' || urls.length !== parts.length || !urls.every(usableUrl)) {
    return s.stop({ kind: 'upload_parts_missing', title: 'The created file does not hand out a URL per part', message: `POST /v1/files/ with ${parts.length} parts answered ${urls.length} upload part(s), ${urls.filter(usableUrl).length} with an absolute URL (file id ${JSON.stringify(created.id)}).`, expected: parts.length, actual: urls.length });
  }
  return { id: created.id, created, urls: [...urls].sort((a, b) => Number(a.number) - Number(b.number)) };
}

/** PUTs the text of one part to its URL with the headers the create answer gave for it. */
function putPart(s: ScenarioRun, part: Item, text: string): Promise<Exchange> {
  const headers = Object.fromEntries(Object.entries(typeof part.headers === 'object' && part.headers !== null ? (part.headers as Record<string, unknown>) : {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? 'application/octet-stream';
  return s.fetch({ method: 'PUT', url: part.url as string, headers, body: { contentType, text } });
}

/** The file as the file list shows it (filter ids). */
async function listedFile(s: ScenarioRun, id: string): Promise<Item | undefined> {
  const listed = await s.send('files:list', { role: 'admin', query: { ids: id } });
  return ((bodyOf(listed)?.items as Item[] | undefined) ?? []).find((item) => item.id === id);
}

/** Checks that a file whose upload was refused is still not uploaded. */
async function stillNotUploaded(s: ScenarioRun, id: string, why: string): Promise<void> {
  const file = await listedFile(s, id);
  s.check(file?.is_uploaded !== true, {
    kind: 'file_uploaded_after_refusal',
    title: 'A file became uploaded although a part should have been refused',
    message: `File ${id} is listed with is_uploaded true after ${why}.`,
    expected: false,
    actual: file?.is_uploaded,
  });
}

defineScenario(suite, 'file_upload_completes', async (s) => {
  const parts = [content('complete-1', 3000), content('complete-2', 2000)];
  const { id, created, urls } = await createFile(s, 'conformance-upload', parts);
  let refusedPart: Exchange | undefined;
  for (const [index, part] of urls.entries()) {
    const put = await putPart(s, part, parts[index]!);
    if (!succeeded(put)) refusedPart ??= put;
  }
  if (refusedPart) {
    return s.stop({ kind: 'upload_part_refused', title: 'A part PUT to its upload URL was refused', message: `PUT of a part with its declared bytes and the headers handed out answered ${answerText(refusedPart)}.`, expected: '2xx', actual: statusOf(refusedPart) }, refusedPart);
  }
  let file: Item | undefined;
  const uploaded = await eventually(async () => {
    file = await listedFile(s, id);
    return file?.is_uploaded === true;
  });
  if (s.check(uploaded, {
    kind: 'file_not_uploaded',
    title: 'A file whose every part was uploaded is not uploaded',
    message: `Every part of file ${id} was PUT and accepted; GET /v1/files/?ids=${id} shows ${file ? `is_uploaded ${JSON.stringify(file.is_uploaded)}` : 'no such file'}.`,
    expected: true,
    actual: file?.is_uploaded,
  }) && created.is_uploaded === false) s.transition('file', 'pending', 'uploaded');
});

defineScenario(suite, 'upload_checksum_enforced', async (s) => {
  const declared = content('checksum-declared', 2048);
  const { id, urls } = await createFile(s, 'conformance-checksum', [declared]);
  const wrong = content('checksum-sent', 2048);
  const put = await putPart(s, urls[0]!, wrong);
  s.check(refused(put), {
    kind: 'part_checksum_ignored',
    title: 'A part whose bytes do not match its sha256 was accepted',
    message: `PUT of part 1 of file ${id} with bytes whose sha256 is ${sha256(wrong)}, not the declared ${sha256(declared)}, answered ${answerText(put)}.`,
    expected: 'a 4xx',
    actual: statusOf(put),
  }, put);
  await stillNotUploaded(s, id, 'its only part was sent with the wrong bytes');
});

defineScenario(suite, 'upload_part_expiry', async (s) => {
  const text = content('expiry', 1024);
  const { id, created, urls } = await createFile(s, 'conformance-expiry', [text]);
  const validity = millisBetween(created.created_at, urls[0]!.expires_at);
  if (validity === undefined) return s.skip('the created file has no created_at or its part no expires_at to tell when the URL expires');
  // A link handed out already expired is upload_links_unexpired's finding; its refusal after expiry cannot be told from its refusal now.
  if (validity <= 0) return s.skip(`the part's expires_at ${String(urls[0]!.expires_at)} is not after the file's created_at: the link was handed out expired (upload_links_unexpired judges that)`);
  await s.adapter('advanceClock')(Math.max(0, validity) + 1000);
  const put = await putPart(s, urls[0]!, text);
  s.check(refused(put), {
    kind: 'expired_part_url_accepted',
    title: 'A part URL was accepted after it expired',
    message: `PUT of part 1 of file ${id} after its expires_at ${String(urls[0]!.expires_at)} answered ${answerText(put)}.`,
    expected: 'a 4xx',
    actual: statusOf(put),
  }, put);
  await stillNotUploaded(s, id, 'its only part was sent after its URL expired');
});
