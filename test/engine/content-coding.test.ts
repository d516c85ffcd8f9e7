// decodeBody sizes its output chunk from a gzip member's ISIZE trailer (RFC 1952 section 2.3.1):
// a hint only. Whatever the trailer says, the decoded bytes are zlib's, and the output bound holds.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeBody, decodes } from '../../engine/content-coding.js';

/** A page-like JSON text of about `bytes` bytes. */
const text = (bytes: number) => JSON.stringify({ items: Array.from({ length: Math.ceil(bytes / 40) }, (_, i) => ({ id: `id-${i}`, at: `2026-10-01T00:00:${i % 60}Z` })) });

/** The same gzip body with its ISIZE trailer replaced by `size`. */
function withTrailer(body: Buffer, size: number): Buffer {
  const copy = Buffer.from(body);
  copy.writeUInt32LE(size >>> 0, copy.length - 4);
  return copy;
}

describe('decodeBody', () => {
  const page = text(200_000);
  const coded = gzipSync(page);

  it('decodes a gzip body of several default chunks into the same text', () => {
    expect(decodeBody(coded, 'gzip', 1024 * 1024).toString('utf8')).toBe(page);
    expect(decodeBody(coded, ' X-GZIP ', 1024 * 1024).toString('utf8')).toBe(page);
  });

  it.each([0, 17, 20_000, 1 << 20, 0xffffffff])('refuses a body whose trailer lies (%d), as zlib does without the hint', (claimed) => {
    // zlib checks ISIZE after the data, whatever chunk it decoded into.
    expect(() => decodeBody(withTrailer(coded, claimed), 'gzip', 1024 * 1024)).toThrow();
  });

  it('decodes every member of a body of several gzip members (the trailer names the last one only)', () => {
    const second = text(50_000);
    expect(decodeBody(Buffer.concat([gzipSync(second), coded]), 'gzip', 1024 * 1024).toString('utf8')).toBe(second + page);
  });

  it('still refuses to expand past its bound, the trailer saying more or less', () => {
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, ' '));
    expect(() => decodeBody(bomb, 'gzip', 1024 * 1024 + 1)).toThrow(RangeError);
    expect(() => decodeBody(withTrailer(bomb, 100), 'gzip', 1024 * 1024 + 1)).toThrow(RangeError);
  });

  it('names the codings it decodes', () => {
    expect(['gzip', 'x-gzip', 'deflate', 'br', ' Br '].map(decodes)).toEqual([true, true, true, true, true]);
    expect(['identity', 'zstd', undefined, 'constructor'].map(decodes)).toEqual([false, false, false, false]);
  });
});
