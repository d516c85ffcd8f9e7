/**
 * HAR 1.2 in and out: reading recorded traffic (as browsers, Playwright, Postman, Insomnia and the
 * proxy's `--record` write it) into observed exchanges, and recording the proxy's exchanges as a
 * HAR file, one entry at a time (no body is kept in memory), with secrets redacted.
 * @see http://www.softwareishard.com/blog/har-12-spec/ (HAR 1.2); docs/observed.md (HAR files, Redaction)
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { HarnessError } from '../../core/errors.js';
import type { HttpRequest, HttpResponse } from '../../core/types.js';
import type { ObservedExchange } from './exchange.js';
import { redactRequest, redactResponse, type SecretNamer } from './redact.js';

/** A HAR name/value pair (headers, query string, cookies). */
interface HarPair {
  name: string;
  value: string;
}

/** One HAR 1.2 entry, the fields read and written here. */
export interface HarEntry {
  startedDateTime: string;
  /** Milliseconds from sending the request to the end of the response. */
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    headers: HarPair[];
    queryString: HarPair[];
    cookies: HarPair[];
    headersSize: number;
    bodySize: number;
    postData?: { mimeType: string; text: string };
  };
  response: {
    /** 0 when no response came (HAR 1.2 as browsers write a failed request). */
    status: number;
    statusText: string;
    httpVersion: string;
    headers: HarPair[];
    cookies: HarPair[];
    content: { size: number; mimeType: string; text?: string; encoding?: string };
    redirectURL: string;
    headersSize: number;
    /** Bytes of the body on the wire (content-coded), -1 when unknown. */
    bodySize: number;
    /** The proxy's own field: why no response came (`ECONNREFUSED`), on an entry of status 0. */
    _error?: { code: string; message: string };
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
}

function fail(file: string, why: string): never {
  throw new HarnessError('CNF_ERR_HAR_INVALID', `${file}: ${why}`);
}

function headersOf(pairs: unknown, file: string, where: string): Record<string, string> {
  if (pairs === undefined) return {};
  if (!Array.isArray(pairs)) fail(file, `${where}.headers is not an array of {name, value}`);
  const out: Record<string, string> = {};
  for (const pair of pairs as { name?: unknown; value?: unknown }[]) {
    if (typeof pair?.name !== 'string' || typeof pair.value !== 'string') fail(file, `${where}.headers holds an entry without a string name and value`);
    // HTTP/2 pseudo-headers (:authority, :path) as browsers record them are not headers of the request.
    if (pair.name.startsWith(':')) continue;
    const name = pair.name.toLowerCase();
    out[name] = out[name] === undefined ? pair.value : `${out[name]}, ${pair.value}`;
  }
  return out;
}

/**
 * The request body of a HAR entry: `postData.text`, or a form body made of `postData.params`
 * (as some browsers record a form post), or none.
 */
function postDataText(postData: { text?: unknown; params?: unknown } | undefined): string | undefined {
  if (!postData) return undefined;
  if (typeof postData.text === 'string') return postData.text;
  if (!Array.isArray(postData.params)) return undefined;
  const form = new URLSearchParams();
  for (const param of postData.params as { name?: unknown; value?: unknown }[]) if (typeof param?.name === 'string') form.append(param.name, typeof param.value === 'string' ? param.value : '');
  return form.toString();
}

/**
 * Reads the exchanges of a HAR 1.2 document, in the order of its entries.
 * A response of status 0 (no answer) becomes a transport error; a body recorded in base64 is
 * decoded; `response.bodySize` of a content-coded answer becomes `wireBytes`; Chromium's
 * `_resourceType` becomes `resourceType`, lower-case.
 * @param text the file's text
 * @param file the file's name, for messages
 * @throws HarnessError CNF_ERR_HAR_INVALID when the text is not JSON (a truncated file included)
 *   or not a HAR log of entries with a method, an absolute URL and a status
 */
export function parseHar(text: string, file: string): ObservedExchange[] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    fail(file, `not a HAR file: its text is not JSON, or is cut short (${(error as Error).message})`);
  }
  const log = (document as { log?: { version?: unknown; entries?: unknown } } | null)?.log;
  if (!log || typeof log !== 'object') fail(file, 'not a HAR file: no "log" object');
  if (!Array.isArray(log.entries)) fail(file, 'not a HAR file: "log.entries" is not an array');
  return log.entries.map((raw, index): ObservedExchange => {
    const where = `log.entries[${index}]`;
    const entry = raw as Partial<HarEntry> | null;
    const request = entry?.request;
    if (!request || typeof request.method !== 'string' || typeof request.url !== 'string') fail(file, `${where}.request has no method or url`);
    try {
      new URL(request.url);
    } catch {
      fail(file, `${where}.request.url is not an absolute URL: ${JSON.stringify(request.url).slice(0, 120)}`);
    }
    const httpRequest: HttpRequest = {
      method: request.method.toUpperCase(),
      url: request.url,
      headers: headersOf(request.headers, file, `${where}.request`),
      ...(postDataText(request.postData) !== undefined ? { body: postDataText(request.postData)! } : {}),
    };
    const response = entry!.response;
    if (!response || typeof response.status !== 'number') fail(file, `${where}.response has no status`);
    // Chromium's custom field: what the browser fetched the request for (a document, a script, a fetch).
    const resourceType = (raw as { _resourceType?: unknown })._resourceType;
    const kind = typeof resourceType === 'string' && resourceType !== '' ? { resourceType: resourceType.toLowerCase() } : {};
    if (response.status === 0) {
      return { request: httpRequest, transportError: response._error ?? { code: 'CNF_NO_RESPONSE', message: 'the recording holds no response (status 0)' }, ...kind };
    }
    const headers = headersOf(response.headers, file, `${where}.response`);
    const content = response.content ?? { size: 0, mimeType: '' };
    const body = typeof content.text !== 'string' ? '' : content.encoding === 'base64' ? Buffer.from(content.text, 'base64').toString('utf8') : content.text;
    const httpResponse: HttpResponse = {
      status: response.status,
      headers,
      body,
      elapsedMs: typeof entry!.time === 'number' && entry!.time >= 0 ? entry!.time : 0,
      ...(headers['content-encoding'] && typeof response.bodySize === 'number' && response.bodySize >= 0 ? { wireBytes: response.bodySize } : {}),
    };
    if (body.length > 0) {
      try {
        httpResponse.json = JSON.parse(body);
      } catch {
        // Not JSON: the content-type and schema checks say so.
      }
    }
    return { request: httpRequest, response: httpResponse, ...kind };
  });
}

/**
 * Reads and parses a HAR file ({@link parseHar}).
 * @throws HarnessError CNF_ERR_HAR_INVALID when the file cannot be read or is not HAR 1.2
 */
export async function readHar(file: string): Promise<ObservedExchange[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    fail(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parseHar(text, file);
}

function pairs(headers: Record<string, string>): HarPair[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

/** The HAR entry of an exchange (already redacted when it is to be written to a file). */
export function harEntry(exchange: ObservedExchange, startedAt: Date): HarEntry {
  const { request, response } = exchange;
  const url = new URL(request.url);
  const elapsed = response?.elapsedMs ?? 0;
  return {
    startedDateTime: startedAt.toISOString(),
    time: elapsed,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      headers: pairs(request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      cookies: [],
      headersSize: -1,
      bodySize: request.body === undefined ? 0 : Buffer.byteLength(request.body),
      ...(request.body !== undefined ? { postData: { mimeType: request.headers['content-type'] ?? '', text: request.body } } : {}),
    },
    response: response
      ? {
          status: response.status,
          statusText: '',
          httpVersion: 'HTTP/1.1',
          headers: pairs(response.headers),
          cookies: [],
          content: { size: Buffer.byteLength(response.body), mimeType: response.headers['content-type'] ?? '', text: response.body },
          redirectURL: response.headers.location ?? '',
          headersSize: -1,
          bodySize: response.wireBytes ?? Buffer.byteLength(response.body),
        }
      : { status: 0, statusText: '', httpVersion: '', headers: [], cookies: [], content: { size: 0, mimeType: '' }, redirectURL: '', headersSize: -1, bodySize: -1, ...(exchange.transportError ? { _error: exchange.transportError } : {}) },
    cache: {},
    timings: { send: 0, wait: elapsed, receive: 0 },
  };
}

/**
 * Writes a HAR 1.2 file entry by entry as exchanges end: each is redacted
 * ({@link redactRequest}, {@link redactResponse}) and written at once, none kept in memory. The
 * file is a complete HAR document only after {@link HarRecorder.close}; a file cut before it is
 * reported as cut short by `conformance check`.
 */
export class HarRecorder {
  readonly #stream: WriteStream;
  readonly #name: SecretNamer;
  #count = 0;

  private constructor(stream: WriteStream, name: SecretNamer) {
    this.#stream = stream;
    this.#name = name;
  }

  /**
   * Opens `file` for writing (its directory made when missing) and writes the HAR's head.
   * @param name names each secret by its variable (the judge's `secretEnv`, so that recording and reproducers agree)
   * @throws HarnessError CNF_ERR_CONFIG_INVALID when the file cannot be created
   */
  static async open(file: string, name: SecretNamer, creator = { name: 'billing-api-conformance proxy', version: '1' }): Promise<HarRecorder> {
    try {
      await mkdir(dirname(file), { recursive: true });
    } catch (error) {
      throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--record ${file}: cannot create its directory (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    const stream = createWriteStream(file);
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', (error: NodeJS.ErrnoException) => reject(new HarnessError('CNF_ERR_CONFIG_INVALID', `--record ${file}: cannot be written (${error.code ?? error.message})`)));
    });
    stream.write(`{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[`);
    return new HarRecorder(stream, name);
  }

  /** Appends one exchange, redacted. */
  record(exchange: ObservedExchange, startedAt: Date): void {
    const redacted: ObservedExchange = {
      request: redactRequest(exchange.request, this.#name),
      ...(exchange.response ? { response: redactResponse(exchange.response, this.#name) } : {}),
      ...(exchange.transportError ? { transportError: exchange.transportError } : {}),
    };
    this.#stream.write(`${this.#count++ === 0 ? '\n' : ',\n'}${JSON.stringify(harEntry(redacted, startedAt))}`);
  }

  /** Entries written so far. */
  get entries(): number {
    return this.#count;
  }

  /** Writes the HAR's end and closes the file. */
  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#stream.once('error', reject);
      this.#stream.end('\n]}}\n', () => resolve());
    });
  }
}
