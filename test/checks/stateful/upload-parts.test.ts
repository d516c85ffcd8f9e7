// What the upload checks and the files scenarios share about a file creation's answer: its upload
// parts (answeredParts) and whether a part's URL can be sent to (usableUrl). The findings are the
// checks' (test/checks/upload-parts-match-request.test.ts, test/checks/upload-links-unexpired.test.ts).
import { describe, expect, test } from 'vitest';
import { answeredParts, usableUrl } from '../../../checks/stateful/upload-parts.js';

describe('answeredParts', () => {
  const part = { number: 1, chunk_start: 0, chunk_end: 3, url: 'https://storage.example.com/1', headers: {} };
  // [name, created file, expected parts]
  test.each<[string, Record<string, unknown>, Record<string, unknown>[] | undefined]>([
    ['the parts of upload.parts, in order', { upload: { parts: [part, { ...part, number: 2 }] } }, [part, { ...part, number: 2 }]],
    ['an empty list', { upload: { parts: [] } }, []],
    ['an entry that is no object becomes an empty part, so that it is counted', { upload: { parts: [part, null, 'x', [1]] } }, [part, {}, {}, {}]],
    ['none without upload', { id: 'f' }, undefined],
    ['none when upload is null', { upload: null }, undefined],
    ['none without upload.parts', { upload: { id: 'u' } }, undefined],
    ['none when upload.parts is an object', { upload: { parts: { 1: part } } }, undefined],
  ])('%s', (_name, created, expected) => {
    expect(answeredParts(created)).toEqual(expected);
  });
});

describe('usableUrl', () => {
  // [url, usable]
  test.each<[unknown, boolean]>([
    ['https://storage.example.com/upload/1?X-Amz-Signature=x', true],
    ['http://127.0.0.1:4010/__uploads/u/1?expires=1&signature=s', true],
    ['HTTPS://STORAGE.EXAMPLE.COM/1', true],
    ['/__uploads/u/1', false],
    ['storage.example.com/upload/1', false],
    ['ftp://storage.example.com/1', false],
    ['data:text/plain,x', false],
    ['', false],
    [undefined, false],
    [null, false],
    [42, false],
  ])('%s: %s', (url, expected) => {
    expect(usableUrl({ number: 1, url })).toBe(expected);
  });
});
