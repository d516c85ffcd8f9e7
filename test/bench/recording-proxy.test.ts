// The recording proxy of bench:harness passes a connection's bytes through untouched and keeps
// what the client sent; those bytes parse back into the requests, which replay against a target.
// @see bench/recording-proxy.ts
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { parseRequests, replay, startRecordingProxy } from '../../bench/recording-proxy.js';

let target: http.Server;
let origin: string;
const seen: string[] = [];

beforeAll(async () => {
  target = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url} ${body}`);
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`answer to ${req.url}`);
    });
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});

afterAll(async () => {
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
});

describe('parseRequests', () => {
  it('parses pipelined requests of one connection, bodies and headers, without the connection headers', async () => {
    const bytes = Buffer.from(
      'GET /a?x=1 HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer t\r\nConnection: keep-alive\r\n\r\n' +
        'POST /b HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"a":1}',
    );
    const requests = await parseRequests([bytes, Buffer.alloc(0)]);
    expect(requests.map((r) => [r.method, r.path, r.body.toString()])).toEqual([
      ['GET', '/a?x=1', ''],
      ['POST', '/b', '{"a":1}'],
    ]);
    expect(requests[0]!.headers).toEqual({ authorization: 'Bearer t' });
    expect(requests[1]!.headers).toEqual({ 'content-type': 'application/json' });
  });
});

describe('startRecordingProxy and replay', () => {
  it('passes answers through, records the requests, and replays them', async () => {
    const proxy = await startRecordingProxy(origin);
    try {
      const first = await request(`${proxy.url}/one`);
      expect(await first.body.text()).toBe('answer to /one');
      const second = await request(`${proxy.url}/two`, { method: 'PUT', body: 'hello', headers: { 'content-type': 'text/plain' } });
      expect(await second.body.text()).toBe('answer to /two');
    } finally {
      await proxy.stop();
    }
    expect(proxy.peakConnections()).toBeGreaterThanOrEqual(1);
    const requests = await parseRequests(proxy.streams());
    expect(requests.map((r) => `${r.method} ${r.path} ${r.body.toString()}`)).toEqual(['GET /one ', 'PUT /two hello']);
    seen.length = 0;
    const result = await replay(origin, requests, 2);
    expect(result).toMatchObject({ requests: 2, errors: 0, connections: 2 });
    expect(seen.sort()).toEqual(['GET /one ', 'PUT /two hello']);
  });
});
