/**
 * Model-based commands of files: POST /v1/files/ in one to three parts (each with its sha256), each
 * part PUT to the URL handed out for it with its bytes or with other bytes, and the file read back
 * through the file list (filter ids). The model (FILE_TRANSITIONS) says when the file is uploaded:
 * once every part arrived with its declared bytes; a part with other bytes is refused and changes
 * nothing.
 * @see spec/rules.yaml files.upload_parts, files.not_uploaded_at_creation, files.part_checksum_verified, files.upload_completes;
 *   operations files:create, files:list; spec/openapi.yaml, schemas FileCreate and File
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { ModelCommand } from './command.js';
import type { Family } from './family.js';
import { familyInfo } from './registry.js';
import { MAX_FILES, pick, withPart, type FileModel, type FilesModel } from './model.js';
import { answerText, bodyOf, eventually, refused, statusOf, succeeded, type Real } from './real.js';

type Item = Record<string, unknown>;

/** What the sequence keeps of a file: the bytes of each part and the upload part the target handed out for it (by part number). */
interface FileData {
  contents: string[];
  parts: Item[];
}

/** Most parts of one file. */
export const MAX_PARTS = 3;

/** Printable bytes derived from the seed, a label and a size (so that a part's text is its bytes). */
export function partContent(seed: number, label: string, size: number): string {
  let text = '';
  for (let block = 0; text.length < size; block++) text += createHash('sha256').update(`${seed}:${label}:${block}`).digest('hex');
  return text.slice(0, size);
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('base64');

/** createFile(n parts): a 2xx with is_uploaded false and one upload part (url, headers) per part. */
export class CreateFile extends ModelCommand<FilesModel> {
  /** The size of each part, in bytes. */
  readonly sizes: number[];
  constructor(sizes: number[]) {
    super();
    this.sizes = sizes;
  }
  protected get name(): string {
    return `createFile(${this.sizes.length} part${this.sizes.length === 1 ? '' : 's'})`;
  }
  check(model: Readonly<FilesModel>): boolean {
    return model.files.length < MAX_FILES;
  }
  describe(): string {
    return this.name;
  }
  protected async execute(model: FilesModel, real: Real): Promise<void> {
    const file: FileModel = { label: `f${model.files.length + 1}`, state: 'pending', uploaded: this.sizes.map(() => false) };
    model.files.push(file);
    const contents = this.sizes.map((size, index) => partContent(real.env.seed, `${file.label}:${index + 1}:${size}`, size));
    let start = 0;
    const body = {
      name: `model-${file.label}-${real.env.seed}.txt`,
      mime_type: 'text/plain',
      size: contents.reduce((sum, part) => sum + part.length, 0),
      service: 'downloadable',
      checksum_sha256_base64: sha256(contents.join('')),
      upload: {
        parts: contents.map((part, index) => {
          const entry = { number: index + 1, chunk_start: start, chunk_end: start + part.length - 1, checksum_sha256_base64: sha256(part) };
          start += part.length;
          return entry;
        }),
      },
    };
    const created = await real.send('files:create', { role: 'admin', json: body });
    const answer = bodyOf(created);
    const upload = (typeof answer?.upload === 'object' && answer.upload !== null ? answer.upload : {}) as Item;
    const parts = (Array.isArray(upload.parts) ? (upload.parts as Item[]) : []).slice().sort((a, b) => Number(a.number) - Number(b.number));
    if (!real.expect(succeeded(created) && typeof answer?.id === 'string' && parts.length === contents.length && parts.every((p) => typeof p.url === 'string'), {
      rule: 'files.upload_parts',
      kind: 'upload_parts_missing',
      title: 'The created file does not hand out a URL per part',
      message: `POST /v1/files/ with ${contents.length} part(s) answered ${answerText(created)}; it answers one upload part, with its url, per part.`,
      expected: contents.length,
      actual: succeeded(created) ? parts.length : statusOf(created),
    }, created)) return;
    real.ids.set(file.label, answer!.id as string);
    real.data.set(file.label, { contents, parts } satisfies FileData);
    real.expect(answer!.is_uploaded === false, {
      rule: 'files.not_uploaded_at_creation',
      kind: 'uploaded_at_creation',
      title: 'A new file is already uploaded',
      message: `POST /v1/files/ answered is_uploaded ${JSON.stringify(answer!.is_uploaded)} for file ${file.label}, before any part was sent.`,
      expected: false,
      actual: answer!.is_uploaded,
    }, created);
  }
}

/** PUTs a part's text to its URL with the headers the create answer gave for it. */
function putPart(real: Real, part: Item, text: string) {
  const headers = Object.fromEntries(Object.entries(typeof part.headers === 'object' && part.headers !== null ? (part.headers as Record<string, unknown>) : {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? 'application/octet-stream';
  return real.fetch({ method: 'PUT', url: part.url as string, headers, body: { contentType, text } });
}

/** A file with a part still to upload, and that part, as drawn. */
function partToUpload(model: Readonly<FilesModel>, fileIndex: number, partIndex: number): { file: FileModel; part: number } | undefined {
  const file = pick(model.files.filter((f) => f.state === 'pending' && f.uploaded.includes(false)), fileIndex);
  if (!file) return undefined;
  const missing = file.uploaded.flatMap((done, index) => (done ? [] : [index]));
  return { file, part: pick(missing, partIndex)! };
}

/** putPart(f, k): the part's bytes to its URL: a 2xx; the last one makes the file uploaded. With `wrongBytes`, other bytes: a 4xx and nothing changes. */
export class PutPart extends ModelCommand<FilesModel> {
  readonly fileIndex: number;
  readonly partIndex: number;
  readonly wrongBytes: boolean;
  constructor(fileIndex: number, partIndex: number, wrongBytes: boolean) {
    super();
    this.fileIndex = fileIndex;
    this.partIndex = partIndex;
    this.wrongBytes = wrongBytes;
  }
  protected get name(): string {
    return `putPart(#${this.fileIndex}, #${this.partIndex})${this.wrongBytes ? '[wrong bytes]' : ''}`;
  }
  check(model: Readonly<FilesModel>): boolean {
    return partToUpload(model, this.fileIndex, this.partIndex) !== undefined;
  }
  describe(model: Readonly<FilesModel>): string {
    const { file, part } = partToUpload(model, this.fileIndex, this.partIndex)!;
    return `putPart(${file.label}, ${part + 1})${this.wrongBytes ? '[wrong bytes]' : ''}`;
  }
  protected async execute(model: FilesModel, real: Real): Promise<void> {
    const { file, part } = partToUpload(model, this.fileIndex, this.partIndex)!;
    if (!this.wrongBytes) model.files[model.files.indexOf(file)] = withPart(file, part);
    const data = real.data.get(file.label) as FileData | undefined;
    if (!data) return real.note(`no upload parts for ${file.label}`, null);
    const text = this.wrongBytes ? partContent(real.env.seed, `${file.label}:${part + 1}:other`, data.contents[part]!.length) : data.contents[part]!;
    const put = await putPart(real, data.parts[part]!, text);
    real.expect(this.wrongBytes ? refused(put) : succeeded(put), this.wrongBytes
      ? {
          rule: 'files.part_checksum_verified',
          kind: 'part_checksum_ignored',
          title: 'A part whose bytes do not match its sha256 was accepted',
          message: `PUT of part ${part + 1} of file ${file.label} with bytes whose sha256 is not the declared one answered ${answerText(put)}.`,
          expected: 'a 4xx',
          actual: statusOf(put),
        }
      : {
          rule: 'files.upload_completes',
          kind: 'upload_part_refused',
          title: 'A part PUT to its upload URL was refused',
          message: `PUT of part ${part + 1} of file ${file.label} with its declared bytes and the headers handed out answered ${answerText(put)}.`,
          expected: '2xx',
          actual: statusOf(put),
        }, put);
  }
}

/** getFile(f): the file list shows the file, uploaded exactly when every part arrived. */
export class GetFile extends ModelCommand<FilesModel> {
  readonly index: number;
  constructor(index: number) {
    super();
    this.index = index;
  }
  protected get name(): string {
    return `getFile(#${this.index})`;
  }
  check(model: Readonly<FilesModel>): boolean {
    return model.files.length > 0;
  }
  describe(model: Readonly<FilesModel>): string {
    const file = pick(model.files, this.index)!;
    return `getFile(${file.label})${file.state === 'uploaded' ? '[uploaded]' : ''}`;
  }
  protected async execute(model: FilesModel, real: Real): Promise<void> {
    const file = pick(model.files, this.index)!;
    const id = real.idOf(file.label);
    if (id === undefined) return;
    const uploaded = file.state === 'uploaded';
    const read = async () => {
      const exchange = await real.send('files:list', { role: 'admin', query: { ids: id } });
      const items = bodyOf(exchange)?.items;
      return { exchange, shown: (Array.isArray(items) ? (items as Item[]) : []).find((item) => item.id === id) };
    };
    let { exchange, shown } = await read();
    // A target may complete an upload a moment after the last part's answer.
    if (uploaded && real.mode === 'assert' && shown?.is_uploaded !== true) {
      await eventually(async () => {
        ({ exchange, shown } = await read());
        return shown?.is_uploaded === true;
      });
    }
    if (real.expect(shown !== undefined && shown.is_uploaded === uploaded, {
      rule: uploaded ? 'files.upload_completes' : 'files.not_uploaded_at_creation',
      kind: uploaded ? 'file_not_uploaded' : 'file_uploaded_too_soon',
      title: uploaded ? 'A file whose every part was uploaded is not uploaded' : 'A file is uploaded before every part arrived with its bytes',
      message: `GET /v1/files/?ids=… shows file ${file.label} ${shown ? `with is_uploaded ${JSON.stringify(shown.is_uploaded)}` : `nowhere (${answerText(exchange)})`}; ${file.uploaded.filter(Boolean).length} of its ${file.uploaded.length} part(s) arrived with their declared bytes.`,
      expected: uploaded,
      actual: shown?.is_uploaded,
    }, exchange) && uploaded) real.transition('file', 'pending', 'uploaded');
  }
}

/** The files family. */
export const filesFamily: Family<FilesModel> = {
  ...familyInfo('files'),
  commands() {
    const index = fc.nat({ max: MAX_FILES - 1 });
    const partIndex = fc.nat({ max: MAX_PARTS - 1 });
    return [
      fc.array(fc.integer({ min: 256, max: 3000 }), { minLength: 1, maxLength: MAX_PARTS }).map((sizes) => new CreateFile(sizes)),
      fc.tuple(index, partIndex).map(([f, p]) => new PutPart(f, p, false)),
      fc.tuple(index, partIndex).map(([f, p]) => new PutPart(f, p, true)),
      index.map((i) => new GetFile(i)),
    ];
  },
  async setup() {
    return { files: [] };
  },
  async readBack(model, real) {
    for (const file of model.files) {
      const id = real.ids.get(file.label);
      if (id !== undefined) await real.send('files:list', { role: 'admin', query: { ids: id } }, `read back: ${file.label}`);
    }
  },
};
