// What a client can make the server hold: an upload body it would refuse is refused before it is
// read, a body beyond its cap is not read past the cap, a 413 reaches fetch and undici (not an
// EPIPE), and a connection that stops reading its answers is cut after the idle timeout.
// @see server/connections.ts; docs/reference-server.md (Limits on what a client can make the server hold)
import net, { type AddressInfo, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type ReferenceApp } from '../../../server/app.js';

let built: ReferenceApp;
let base: string;
let admin: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  built = await buildApp({ rateLimit: false, idleTimeoutMs: 500 });
  built.app.server.on('connection', (socket: Socket) => sockets.push(socket));
  await built.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
  admin = built.tokens.admin;
});

afterAll(async () => {
  await built.app.close();
});

/** Bytes the server read on the sockets opened since `from` (an index into `sockets`), once they are closed. */
async function bytesReadSince(from: number): Promise<number> {
  const opened = sockets.slice(from);
  await Promise.all(opened.map((socket) => (socket.destroyed ? undefined : new Promise((resolve) => socket.once('close', resolve)))));
  return opened.reduce((sum, socket) => sum + socket.bytesRead, 0);
}

/** A file of `size` bytes in one part: its part URL. */
async function onePartUpload(size: number): Promise<string> {
  const created = await request(`${base}/v1/files/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'a.bin', mime_type: 'application/octet-stream', size, service: 'downloadable', upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: size - 1 }] } }),
  });
  expect(created.statusCode).toBe(200);
  return ((await created.body.json()) as { upload: { parts: { url: string }[] } }).upload.parts[0]!.url;
}

describe('upload parts', () => {
  it('refuses a 60 MiB PUT to an unknown upload with 403 without reading the body', async () => {
    const from = sockets.length;
    const answer = await request(`${base}/__uploads/anything/1`, { method: 'PUT', body: Buffer.alloc(60 * 1024 * 1024, 1), reset: true });
    expect(answer.statusCode).toBe(403);
    expect(((await answer.body.json()) as { error: string }).error).toBe('NotPermitted');
    // Headers, what was in flight when the answer left, and at most the lingering read (1 MiB).
    expect(await bytesReadSince(from)).toBeLessThan(16 * 1024 * 1024);
  });

  it('refuses a declared Content-Length above the part size with 400 before reading, and one below too', async () => {
    const url = await onePartUpload(1000);
    const from = sockets.length;
    const over = await request(url, { method: 'PUT', body: Buffer.alloc(40 * 1024 * 1024), reset: true });
    expect(over.statusCode).toBe(400);
    expect(((await over.body.json()) as { detail: string }).detail).toMatch(/1000 bytes expected, 41943040 declared/);
    expect(await bytesReadSince(from)).toBeLessThan(16 * 1024 * 1024);
    const under = await request(url, { method: 'PUT', body: Buffer.alloc(999) });
    expect(under.statusCode).toBe(400);
    await under.body.dump();
  });

  it('stops reading a chunked body at the part size (400), and accepts the exact part', async () => {
    const url = await onePartUpload(1000);
    async function* chunks() {
      for (let i = 0; i < 64; i++) yield Buffer.alloc(64 * 1024, 2);
    }
    const from = sockets.length;
    const over = await request(url, { method: 'PUT', body: Readable.from(chunks()), reset: true });
    expect(over.statusCode).toBe(400);
    expect(((await over.body.json()) as { detail: string }).detail).toMatch(/longer than its range of 1000 bytes/);
    expect(await bytesReadSince(from)).toBeLessThan(4 * 1024 * 1024);
    const exact = await request(url, { method: 'PUT', body: Buffer.alloc(1000, 3) });
    expect(exact.statusCode).toBe(200);
    expect(exact.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    await exact.body.dump();
  });
});

describe('a body too large for an API operation', () => {
  const body = Buffer.alloc(20 * 1024 * 1024, 0x20);
  const headers = () => ({ authorization: `Bearer ${admin}`, 'content-type': 'application/json' });

  it('reaches fetch as a 413 in the API format, 4 requests at once', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, async () => {
      const answer = await fetch(`${base}/v1/products/`, { method: 'POST', headers: headers(), body });
      return [answer.status, ((await answer.json()) as { error: string }).error];
    }));
    expect(answers).toEqual(Array.from({ length: 4 }, () => [413, 'PayloadTooLarge']));
  });

  it('reaches undici as a 413 in the API format, 4 requests at once', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, async () => {
      const answer = await request(`${base}/v1/products/`, { method: 'POST', headers: headers(), body });
      return [answer.statusCode, ((await answer.body.json()) as { error: string }).error];
    }));
    expect(answers).toEqual(Array.from({ length: 4 }, () => [413, 'PayloadTooLarge']));
  });
});

describe('a lingering close after a 413', () => {
  it('gives the answer to a client that reads it half a second later while still sending, and reads at most about a MiB more', async () => {
    const port = (built.app.server.address() as AddressInfo).port;
    const from = sockets.length;
    const client = net.connect(port, '127.0.0.1');
    const body = Buffer.alloc(20 * 1024 * 1024, 0x20);
    await new Promise((resolve) => client.once('connect', resolve));
    client.write(`POST /v1/products/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    client.write(body, () => undefined);
    client.pause();
    let received = '';
    client.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    // The client's own writes fail once the server cuts the connection, after the answer.
    client.on('error', () => undefined);
    // Busy elsewhere for half a second: a connection destroyed as soon as the answer was written would have reset it by now.
    await new Promise((resolve) => setTimeout(resolve, 500));
    client.resume();
    await Promise.race([new Promise((resolve) => client.once('close', resolve)), new Promise((resolve) => setTimeout(resolve, 5000))]);
    client.destroy();
    expect(received).toMatch(/^HTTP\/1\.1 413 [^\r]*\r\n[\s\S]*"PayloadTooLarge"/);
    expect(await bytesReadSince(from)).toBeLessThan(8 * 1024 * 1024);
  });
});

describe('a client that pipelines requests and never reads', () => {
  it('is cut after the idle timeout (500 ms here)', async () => {
    const port = (built.app.server.address() as AddressInfo).port;
    const from = sockets.length;
    const client = net.connect(port, '127.0.0.1');
    client.on('error', () => undefined);
    await new Promise((resolve) => client.once('connect', resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const serverSide = sockets[from]!;
    // 400 list pages of 100 products: far more answer bytes than the socket buffers hold.
    const one = `GET /v1/products/?limit=100 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin}\r\n\r\n`;
    client.write(one.repeat(400));
    client.pause();
    let unsent = -1;
    serverSide.once('timeout', () => (unsent = serverSide.writableLength));
    const closed = await new Promise<string>((resolve) => {
      const guard = setTimeout(() => resolve('still open after 8 s'), 8000);
      serverSide.once('close', () => {
        clearTimeout(guard);
        resolve('closed');
      });
    });
    client.destroy();
    expect(closed).toBe('closed');
    // The cut came while answers were still waiting to be written: the client had stopped reading.
    expect(unsent).toBeGreaterThan(0);
  });
});
