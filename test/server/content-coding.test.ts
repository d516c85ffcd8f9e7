import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { assembleGzip, encode, preferredCoding, storedPiece, type CodedPiece } from '../../server/content-coding.js';

describe('preferredCoding (RFC 9110 section 12.5.3)', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['gzip, deflate, br', 'gzip'],
    ['gzip, deflate, br, zstd', 'gzip'],
    ['br', 'br'],
    ['br, deflate', 'br'],
    ['br;q=0.9, gzip;q=0.5', 'br'],
    ['gzip, deflate', 'gzip'],
    ['deflate', undefined],
    ['identity', undefined],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['gzip;q=0, br;q=0', undefined],
    ['*', 'gzip'],
    ['zstd, *;q=0.1', 'gzip'],
  ])('%j: %s', (header, coding) => {
    expect(preferredCoding(header)).toBe(coding);
  });
});

describe('preferredCoding for a kept answer (brotli first when weighed alike)', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['*', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['identity', undefined],
  ])('%j: %s', (header, coding) => {
    expect(preferredCoding(header, 'kept')).toBe(coding);
  });
});

describe('preferredCoding on any header text', () => {
  it('never throws and answers br, gzip or nothing', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(fc.constantFrom('br', 'gzip', 'deflate', '*', 'identity', ';q=', '0', '1', '0.5', ',', ' ', ';', 'q', '=', 'x')).map((parts) => parts.join(''))), (header) => {
        expect([undefined, 'br', 'gzip']).toContain(preferredCoding(header));
      }),
      { seed: 20261122, numRuns: 2000 },
    );
  });
});

describe('assembleGzip (RFC 1952 member from RFC 1951 pieces)', () => {
  const piece = (json: string, stored: boolean): CodedPiece => (stored ? storedPiece(Buffer.from(json)) : { json: Buffer.from(json) });

  it('decodes, CRC-32 and length checked by zlib, to the pieces in order, whether each was compressed or stored', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.oneof(fc.string(), fc.json(), fc.constant('')), fc.boolean()), { maxLength: 12 }), (drawn) => {
        const pieces = drawn.map(([json, stored]) => piece(json, stored));
        const body = Buffer.concat(pieces.map((p) => p.json));
        expect(gunzipSync(assembleGzip(pieces, body)).equals(body)).toBe(true);
      }),
      { seed: 20261124, numRuns: 300 },
    );
  });

  it('stores a piece longer than one stored block (65,535 bytes) in several, and keeps a piece\'s compressed blocks for the next page', () => {
    const long = piece('x'.repeat(200_000), true);
    const item: CodedPiece = { json: Buffer.from(JSON.stringify({ id: 1, name: 'a'.repeat(5000) })) };
    const pieces = [long, item, piece(',', true), item];
    const body = Buffer.concat(pieces.map((p) => p.json));
    expect(gunzipSync(assembleGzip(pieces, body)).equals(body)).toBe(true);
    const kept = item.deflated;
    expect(kept!.length).toBeLessThan(item.json.length / 10);
    assembleGzip([item], item.json);
    expect(item.deflated).toBe(kept);
  });

  it('is what encode sends for gzip when an answer carries it, and not for br', () => {
    const json = Buffer.from(JSON.stringify({ items: Array.from({ length: 300 }, (_, i) => ({ i })) }));
    let assembled = 0;
    const reply = { status: 200, body: json, headers: { 'content-type': 'application/json; charset=utf-8' }, coded: { gzip: () => (assembled++, assembleGzip([{ json }], json)) } };
    const gzip = encode(reply, 'gzip');
    expect(assembled).toBe(1);
    expect(gzip.headers?.['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(json)).toBe(true);
    expect(encode(reply, 'br').headers?.['content-encoding']).toBe('br');
    expect(assembled).toBe(1);
  });
});
