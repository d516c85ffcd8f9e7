// Reading HAR 1.2 as browsers, Playwright and the proxy write it; writing an entry the reader reads back.
import { describe, expect, test } from 'vitest';
import { harEntry, parseHar } from '../../../engine/observed/har.js';

const log = (entries: unknown[]) => JSON.stringify({ log: { version: '1.2', entries } });

describe('parseHar', () => {
  test('browser details: HTTP/2 pseudo-headers dropped, repeated headers joined, base64 bodies decoded, form params, coded size', () => {
    const [exchange] = parseHar(log([{
      time: 12.5,
      request: { method: 'post', url: 'https://api.example.com/v1/oauth2/token', headers: [{ name: ':authority', value: 'api.example.com' }, { name: 'Accept', value: 'a' }, { name: 'accept', value: 'b' }], postData: { mimeType: 'application/x-www-form-urlencoded', params: [{ name: 'grant_type', value: 'client_credentials' }, { name: 'scope', value: 'a b' }] } },
      response: { status: 200, headers: [{ name: 'Content-Encoding', value: 'gzip' }, { name: 'Content-Type', value: 'application/json' }], content: { size: 11, mimeType: 'application/json', text: Buffer.from('{"ok":true}').toString('base64'), encoding: 'base64' }, bodySize: 31 },
    }]), 'browser.har');
    expect(exchange!.request).toEqual({ method: 'POST', url: 'https://api.example.com/v1/oauth2/token', headers: { accept: 'a, b' }, body: 'grant_type=client_credentials&scope=a+b' });
    expect(exchange!.response).toMatchObject({ status: 200, body: '{"ok":true}', json: { ok: true }, wireBytes: 31, elapsedMs: 12.5 });
  });

  test('status 0 is an exchange without an answer, with the error the proxy recorded', () => {
    const [exchange] = parseHar(log([{ request: { method: 'GET', url: 'http://127.0.0.1:1/v1/files/' }, response: { status: 0, _error: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' } } }]), 'x.har');
    expect(exchange).toEqual({ request: { method: 'GET', url: 'http://127.0.0.1:1/v1/files/', headers: {} }, transportError: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' } });
  });

  test('an entry the proxy writes reads back as the same exchange', () => {
    const exchange = {
      request: { method: 'PATCH', url: 'https://api.example.com/v1/orders/o1?x=1', headers: { 'content-type': 'application/json' }, body: '{"billing_name":"A"}' },
      response: { status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'br' }, body: '{"id":"o1"}', json: { id: 'o1' }, elapsedMs: 4, wireBytes: 15 },
    };
    expect(parseHar(log([harEntry(exchange, new Date(0))]), 'y.har')).toEqual([exchange]);
  });
});
