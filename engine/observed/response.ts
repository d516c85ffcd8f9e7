/**
 * An observed answer as the checks read it: headers lower-case, the body decoded from its content
 * coding (gzip, deflate, br) with its size on the wire kept, JSON parsed when it is JSON.
 * @see RFC 9110 section 8.4.1 (content codings); engine/content-coding.ts (the harness's own client decodes answers the same way)
 */
import type { HttpResponse } from '../../core/types.js';
import { decodeBody, decodes } from '../content-coding.js';
import { sameAnswer } from '../judge.js';
import type { RawAnswer } from './exchange.js';

/** Largest body kept for judging, in bytes (the client still gets all of it). */
export const MAX_JUDGED_BODY = 1024 * 1024;

/** Header values of any of Node's and undici's shapes as one string per lower-case name (repeated values joined by `, `). */
export function flatHeaders(raw: Record<string, string | string[] | undefined> | Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = Symbol.iterator in raw ? [...(raw as Iterable<[string, string]>)] : Object.entries(raw);
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    const text = Array.isArray(value) ? value.join(', ') : value;
    out[key] = out[key] === undefined ? text : `${out[key]}, ${text}`;
  }
  return out;
}

/**
 * The answer as judged.
 * @param raw the first {@link MAX_JUDGED_BODY} bytes of the body as received
 * @param size the body's whole size as received, in bytes
 * @param elapsedMs milliseconds from sending the request to the end of the body
 */
export function observedResponse(status: number, headers: Record<string, string>, raw: Buffer, size: number, elapsedMs: number): HttpResponse {
  let text: string | undefined;
  let wireBytes: number | undefined;
  const coding = headers['content-encoding'];
  if (decodes(coding) && size <= MAX_JUDGED_BODY) {
    try {
      text = decodeBody(raw, coding!, MAX_JUDGED_BODY + 1).toString('utf8');
      wireBytes = size;
    } catch {
      // Not in the coding it names: judged as received.
    }
  }
  if (text === undefined) {
    text = raw.subarray(0, MAX_JUDGED_BODY).toString('utf8');
    if (size > MAX_JUDGED_BODY) text = `${text}\n[... ${size - MAX_JUDGED_BODY} more bytes cut]`;
  }
  const response: HttpResponse = { status, headers, body: text, elapsedMs, ...(wireBytes !== undefined ? { wireBytes } : {}) };
  if (text.length > 0) {
    try {
      response.json = JSON.parse(text);
    } catch {
      // Not JSON: the content-type and schema checks say so.
    }
  }
  return response;
}

/** Most answers {@link RecentAnswers} keeps of each kind, and most bytes of each kind. */
const MAX_RECENT_ANSWERS = 64;
const MAX_RECENT_BYTES = 2 * 1024 * 1024;

/**
 * Forgets the oldest entries of a map (its first in insertion order) until it holds at most
 * {@link MAX_RECENT_ANSWERS} entries and at most {@link MAX_RECENT_BYTES} bytes.
 * @param bytes what the entries weigh now, added up with `size`
 * @returns what the entries left weigh, in bytes
 */
function forgetOldest<V>(map: Map<string, V>, bytes: number, size: (value: V) => number): number {
  for (const [oldest, kept] of map) {
    if (map.size <= MAX_RECENT_ANSWERS && bytes <= MAX_RECENT_BYTES) break;
    map.delete(oldest);
    bytes -= size(kept);
  }
  return bytes;
}

/**
 * The answers a judging thread decoded last, by their bytes: an answer that keeps coming byte for
 * byte (the same status, headers and body: a page polled, a fixture read by every test) is
 * decoded, parsed and judged by the response checks on its first two comings only; each later one
 * shares the findings of the answer kept (engine/judge.ts `sameAnswer`) with its own timing. The checks that read the request too (a
 * list's limit, filter and sort order against the query) still judge it. An answer is looked up
 * by its status, size and headers, then its body's bytes are compared: no hashing.
 *
 * An answer is kept decoded from its second coming on: the first time, only its bytes are kept,
 * outside the JavaScript heap. Most answers of a session come once, and keeping each one's parsed
 * body alive for the next 64 answers made V8 copy every page's objects out of the young generation
 * and collect them later from the old one; on two cores, where the collector's threads compete
 * with the judging threads, distinct pages were judged about 6% slower (a median of 2,568 against
 * 2,743 a second; docs/performance.md, "The judge's rate in five windows, and answers kept decoded
 * from their second coming").
 *
 * Bounded: at most {@link MAX_RECENT_ANSWERS} answers of each kind, and {@link MAX_RECENT_BYTES}
 * of decoded body text kept and of bytes of answers seen once, the oldest forgotten first.
 */
export class RecentAnswers {
  /** Answers that came at least twice, decoded, by their status, size and headers. */
  readonly #answers = new Map<string, { raw: Uint8Array; response: HttpResponse }>();
  #bytes = 0;
  /** Answers that came once: their bytes only. */
  readonly #once = new Map<string, Uint8Array>();
  #onceBytes = 0;

  /** The answer as judged ({@link observedResponse}), decoded afresh or as it was the last time these bytes came. */
  responseOf(answer: RawAnswer): HttpResponse {
    const { status, headers, raw, size, elapsedMs } = answer;
    const key = `${status} ${size} ${JSON.stringify(headers)}`;
    const known = this.#answers.get(key);
    if (known && Buffer.compare(known.raw, raw) === 0) {
      // Most recently used last.
      this.#answers.delete(key);
      this.#answers.set(key, known);
      const response = { ...known.response, elapsedMs };
      sameAnswer(response, known.response);
      return response;
    }
    const body = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    const response = observedResponse(status, headers, body, size, elapsedMs);
    if (known) {
      this.#answers.delete(key);
      this.#bytes -= known.response.body.length;
    }
    const before = this.#once.get(key);
    if (before !== undefined) {
      this.#once.delete(key);
      this.#onceBytes -= before.byteLength;
    }
    if (before === undefined || Buffer.compare(before, raw) !== 0) {
      // The first time these bytes come: only they are kept.
      if (raw.byteLength <= MAX_RECENT_BYTES) {
        this.#once.set(key, raw);
        this.#onceBytes = forgetOldest(this.#once, this.#onceBytes + raw.byteLength, (kept) => kept.byteLength);
      }
      return response;
    }
    if (response.body.length <= MAX_RECENT_BYTES) {
      this.#answers.set(key, { raw, response });
      this.#bytes = forgetOldest(this.#answers, this.#bytes + response.body.length, (kept) => kept.response.body.length);
    }
    return response;
  }
}
