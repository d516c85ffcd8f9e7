// The judgements of receipt_fetchable: the receipt URL an order answers, and the document it serves;
// passing cases and failing ones of the exact kind.
import { describe, expect, test } from 'vitest';
import { receiptDocumentFindings, receiptUrl } from '../../../checks/stateful/receipt.js';
import type { Exchange } from '../../../core/types.js';
import { fetched, kinds, ORDER } from './support.js';

describe('receipt', () => {
  test.each<[string, unknown, boolean]>([
    ['an https URL', 'https://storage.example.com/receipts/1.pdf?X-Amz-Signature=abc', true],
    ['an http URL (a local reference)', 'http://127.0.0.1:4010/__receipts/1.pdf?signature=abc', true],
    ['a relative URL', '/__receipts/1.pdf', false],
    ['another scheme', 'ftp://storage.example.com/1.pdf', false],
    ['no url', undefined, false],
  ])('receiptUrl: %s', (_name, url, absolute) => {
    const judged = receiptUrl(url === undefined ? {} : { url }, ORDER);
    expect('url' in judged).toBe(absolute);
    if ('finding' in judged) expect(judged.finding).toMatchObject({ kind: 'receipt_url_not_absolute', actual: url });
  });

  test.each<[string, Exchange, string[]]>([
    ['a PDF served as application/pdf', fetched(200, '%PDF-1.4\n1 0 obj', { 'content-type': 'application/pdf' }), []],
    ['a PDF served as application/octet-stream (by its header)', fetched(200, '%PDF-1.7\n…', { 'content-type': 'binary/octet-stream' }), []],
    ['application/pdf with parameters', fetched(200, 'x', { 'content-type': 'Application/PDF; qs=1' }), []],
    ['an HTML page', fetched(200, '<html>receipt</html>', { 'content-type': 'text/html' }), ['receipt_not_pdf']],
    ['JSON with no content type', fetched(200, '{"url":"x"}'), ['receipt_not_pdf']],
    ['a 403 (signature refused)', fetched(403, '{"error":"NotPermitted"}', { 'content-type': 'application/json' }), ['receipt_not_fetchable']],
    ['an empty 200', fetched(200, '', { 'content-type': 'application/pdf' }), ['receipt_not_fetchable']],
    ['no answer', fetched(undefined), ['receipt_not_fetchable']],
  ])('receiptDocumentFindings: %s', (_name, exchange, expected) => {
    expect(kinds(receiptDocumentFindings(exchange))).toEqual(expected);
  });
});
