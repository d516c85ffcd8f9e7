/**
 * Compressed answers: a JSON answer of an API operation of at least {@link MIN_CODED_BYTES} is sent
 * brotli- or gzip-coded when the request's Accept-Encoding accepts one (as browsers, fetch, Python
 * requests, Go and axios do by default), and as it is otherwise; either way it carries
 * `Vary: Accept-Encoding`. The answers of paginated lists are coded once and kept (response-cache.ts).
 * @see RFC 9110, sections 8.4 (Content-Encoding), 12.5.3 (Accept-Encoding) and 12.5.5 (Vary)
 */
import negotiate from '@fastify/accept-negotiator';
import { brotliCompressSync, constants, crc32, deflateRawSync, gzipSync } from 'node:zlib';
import type { Reply } from './replies.js';

/** A content coding the reference sends. */
export type ContentCoding = 'br' | 'gzip';
/**
 * The codings in the reference's order of preference when the client weighs them alike. A list
 * page made for this request prefers gzip, because its gzip body is assembled from pieces coded
 * once (each item's kept coding: {@link assembleGzip}) while a brotli body must be compressed whole.
 * Every answer compressed whole prefers brotli: a kept answer asked again (coded once, smaller for
 * every later request: a page of 100 subscriptions is 43 KB, against 80 KB gzip and 181 KB
 * assembled), and a write's or a single resource's answer, which brotli quality 1 codes in about
 * half the time of gzip level 1 (14 against 26 µs for 0.8 KB, 35 against 46 µs for 13 KB) to
 * within 3% of its size.
 */
const CODINGS: Record<'fresh' | 'kept', ContentCoding[]> = { fresh: ['gzip', 'br'], kept: ['br', 'gzip'] };
/** JSON bodies shorter than this (bytes) are sent as they are: coding them saves less than it costs. */
export const MIN_CODED_BYTES = 1024;
const JSON_TYPE = 'application/json; charset=utf-8';
/** Brotli quality 5 for answers coded once and kept: within 2 % of quality 6's size and ten times faster than 9 (a 515 KB page: 43 KB in about 6 ms). */
const BROTLI_QUALITY = 5;
/**
 * Brotli quality 1 and gzip level 1 for answers coded once and sent once (a write, a page the cache
 * does not keep): a CPU profile of the mixed-workload benchmark spent about 40 % of its time in
 * quality-5 compression of such answers; quality 1 is several times faster for a somewhat larger body.
 */
const FRESH_BROTLI_QUALITY = 1;
const FRESH_GZIP_LEVEL = 1;

/** An answer whose body is the bytes to write. */
export type ByteReply = Reply & { body: Buffer };

/**
 * The coding to send for an Accept-Encoding header (RFC 9110 section 12.5.3: q-values, `*`, `;q=0`
 * refusals), or undefined for the identity coding (no header, or nothing the reference sends is acceptable).
 * @param use `fresh` for a list page made for this request (gzip first, assembled), `kept` for an answer compressed whole (brotli first)
 */
export function preferredCoding(acceptEncoding: string | undefined, use: 'fresh' | 'kept' = 'fresh'): ContentCoding | undefined {
  if (acceptEncoding === undefined || acceptEncoding === '') return undefined;
  return negotiate(acceptEncoding, CODINGS[use]) ?? undefined;
}

/** Whether answers like this one depend on Accept-Encoding: a JSON body of at least {@link MIN_CODED_BYTES}. */
export function isCodable(reply: ByteReply): boolean {
  return reply.body.length >= MIN_CODED_BYTES && (reply.headers?.['content-type'] ?? '').startsWith('application/json');
}

/**
 * The answer as bytes: an object body serialized as JSON (what Fastify would write) with its content
 * type, a Buffer body as it is; `Vary: Accept-Encoding` added when {@link isCodable}.
 * @param reply an answer with a body
 */
export function asBytes(reply: Reply): ByteReply {
  const bytes: ByteReply = Buffer.isBuffer(reply.body)
    ? { ...reply, body: reply.body }
    : { ...reply, body: Buffer.from(JSON.stringify(reply.body)), headers: { ...reply.headers, 'content-type': JSON_TYPE } };
  return isCodable(bytes) ? { ...bytes, headers: { ...bytes.headers, vary: 'Accept-Encoding' } } : bytes;
}

/**
 * The answer in `coding`: the body compressed, with Content-Encoding; the answer itself when it is
 * not {@link isCodable} or `coding` is undefined.
 * @param reply an answer from {@link asBytes}
 * @param use `kept` for an answer coded once and served many times (the response cache: smaller
 *   bodies are worth more CPU), `fresh` for one sent once (faster settings)
 */
export function encode(reply: ByteReply, coding: ContentCoding | undefined, use: 'kept' | 'fresh' = 'kept'): ByteReply {
  if (coding === undefined || !isCodable(reply)) return reply;
  const assembled = coding === 'gzip' ? reply.coded?.gzip : undefined;
  if (assembled) return { ...reply, body: assembled(), headers: { ...reply.headers, 'content-encoding': coding } };
  const quality = use === 'kept' ? BROTLI_QUALITY : FRESH_BROTLI_QUALITY;
  const body = coding === 'br'
    ? brotliCompressSync(reply.body, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: reply.body.length } })
    : gzipSync(reply.body, use === 'kept' ? {} : { level: FRESH_GZIP_LEVEL });
  return { ...reply, body, headers: { ...reply.headers, 'content-encoding': coding } };
}

/**
 * A piece of a JSON body with its coding as raw DEFLATE blocks (RFC 1951) that end on a byte
 * boundary and are not final (a sync flush), so that pieces coded at different times can follow
 * one another in one stream. `deflated` is made on first use.
 */
export interface CodedPiece {
  json: Buffer;
  deflated?: Buffer;
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
/** A final, empty block with fixed Huffman codes: BFINAL 1, BTYPE 01, end-of-block. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** The piece's raw DEFLATE blocks, made once. */
function deflatedOf(piece: CodedPiece): Buffer {
  return (piece.deflated ??= deflateRawSync(piece.json, { finishFlush: constants.Z_SYNC_FLUSH }));
}

/**
 * A piece coded as stored (uncompressed) DEFLATE blocks: for the few bytes around and between the
 * items of a page, which are not worth a compressor's call.
 */
export function storedPiece(json: Buffer): CodedPiece {
  const blocks: Buffer[] = [];
  let start = 0;
  do {
    const chunk = json.subarray(start, start + 0xffff);
    const header = Buffer.alloc(5);
    header.writeUInt16LE(chunk.length, 1);
    header.writeUInt16LE(~chunk.length & 0xffff, 3);
    blocks.push(header, chunk);
    start += 0xffff;
  } while (start < json.length);
  return { json, deflated: Buffer.concat(blocks) };
}

/**
 * A gzip member (RFC 1952) whose data is the pieces' JSON in order, assembled from each piece's
 * kept DEFLATE blocks: no byte is compressed again for a page whose items were coded before.
 * @param pieces the body's pieces, in order
 * @param body the pieces' JSON concatenated (for the CRC-32 and the length of the trailer)
 * @see RFC 1952, section 2.3 (member format); RFC 1951, section 3.2.3 (block format)
 */
export function assembleGzip(pieces: readonly CodedPiece[], body: Buffer): Buffer {
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(body), 0);
  trailer.writeUInt32LE(body.length % 2 ** 32, 4);
  const parts: Buffer[] = [GZIP_HEADER];
  for (const piece of pieces) parts.push(deflatedOf(piece));
  parts.push(FINAL_BLOCK, trailer);
  return Buffer.concat(parts);
}
