/**
 * Content codings of answers (RFC 9110 section 8.4.1): which ones the harness decodes, and the
 * decoding itself, shared by the harness's client (engine/client.ts) and the observed answers of
 * the proxy and of HAR files (engine/observed/response.ts), which must not load the client's
 * generators to decode a body.
 */
import { brotliDecompressSync, gunzipSync, inflateSync, type ZlibOptions } from 'node:zlib';

/** Content codings decoded (RFC 9110 section 8.4.1); any other is judged as received. */
const DECODERS: Record<string, (input: Buffer, options: ZlibOptions) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/** zlib's own output chunk (16 KiB), below which no size hint is used. */
const DEFAULT_CHUNK = 16 * 1024;

/**
 * The output chunk to decode a body in: a gzip member ends with its decoded size modulo 2^32
 * (ISIZE, RFC 1952 section 2.3.1), so a body of one member decodes into one chunk instead of
 * several chunks joined (about an eighth less time for pages of 30 to 500 KB). Only a hint: a
 * wrong or hostile ISIZE changes the chunk's size, never the decoded bytes, and the chunk is
 * kept between zlib's 16 KiB and `maxOutput`.
 */
function chunkSizeFor(coding: string, input: Buffer, maxOutput: number): number | undefined {
  if ((coding !== 'gzip' && coding !== 'x-gzip') || input.length < 18) return undefined;
  const declared = input.readUInt32LE(input.length - 4);
  return declared > DEFAULT_CHUNK ? Math.min(declared + 64, maxOutput) : undefined;
}

/**
 * Whether the client decodes a content coding (gzip, x-gzip, deflate, br; RFC 9110 section 8.4.1),
 * as named by a Content-Encoding value (case and surrounding spaces ignored).
 */
export function decodes(contentEncoding: string | undefined): boolean {
  return contentEncoding !== undefined && Object.hasOwn(DECODERS, contentEncoding.trim().toLowerCase());
}

/**
 * Decodes a body in the content coding its Content-Encoding names.
 * @param contentEncoding one coding {@link decodes} accepts
 * @param maxOutput most decoded bytes: a small coded body must not expand into gigabytes
 * @throws zlib's error for bytes that are not in that coding, or that decode to more than `maxOutput`
 */
export function decodeBody(input: Buffer, contentEncoding: string, maxOutput: number): Buffer {
  const coding = contentEncoding.trim().toLowerCase();
  const chunkSize = chunkSizeFor(coding, input, maxOutput);
  return DECODERS[coding]!(input, { maxOutputLength: maxOutput, ...(chunkSize ? { chunkSize } : {}) });
}
