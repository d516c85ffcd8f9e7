// The embedded reference is reached over a local socket as well as TCP (server/index.ts
// `socketPath`, core/target.ts `localSocket`): the same HTTP server answers both, the socket's
// clients are never rate limited, and the harness's client sends only its target's own origin there.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../core/spec/load.js';
import type { Target } from '../../core/target.js';
import { createClient } from '../../engine/client.js';
import { startReferenceServer } from '../../server/index.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'local-socket-test-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function statuses(url: string, token: string, times: number, dispatcher?: Agent): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < times; i++) {
    const answer = await request(url, { headers: { authorization: `Bearer ${token}` }, ...(dispatcher ? { dispatcher } : {}) });
    await answer.body.dump();
    seen.push(answer.statusCode);
  }
  return seen;
}

describe('startReferenceServer with a socketPath', () => {
  it('answers on the socket as on TCP, never counts the socket against the rate limit, and removes the socket on close', async () => {
    const socketPath = path.join(folder, 'reference.sock');
    const running = await startReferenceServer({ seed: 1, socketPath, rateLimit: { max: 2, windowMs: 60_000 } });
    const local = new Agent({ connect: { socketPath } });
    try {
      expect(running.socketPath).toBe(socketPath);
      // The same list five times: the first is made by Fastify, the others come from the response cache, both exempt.
      expect(await statuses(`${running.url}/v1/products/?limit=1`, running.credentials.admin, 5, local)).toEqual([200, 200, 200, 200, 200]);
      expect(await statuses(`${running.url}/v1/products/?limit=2`, running.credentials.admin, 3)).toEqual([200, 200, 429]);
      expect(existsSync(socketPath)).toBe(true);
    } finally {
      await local.close();
      await running.close();
    }
    expect(existsSync(socketPath)).toBe(false);
  });

  it('listens on TCP only when the socket cannot be made', async () => {
    const running = await startReferenceServer({ seed: 1, socketPath: path.join(folder, 'no-such-folder', 'reference.sock') });
    try {
      expect(running.socketPath).toBeUndefined();
      expect(await statuses(`${running.url}/v1/products/?limit=1`, running.credentials.admin, 1)).toEqual([200]);
    } finally {
      await running.close();
    }
  });
});

describe('the client of a target with a local socket', () => {
  const servers: Server[] = [];
  const serve = (name: string, listen: (server: Server) => Promise<void>) => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ answered_by: name }));
    });
    servers.push(server);
    return listen(server).then(() => server);
  };
  const onPort = (server: Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });

  it("sends its own origin's requests over the socket and another origin's over TCP", async () => {
    const socketPath = path.join(folder, 'plain.sock');
    await serve('socket', (server) => new Promise<void>((resolve) => server.listen(socketPath, resolve)));
    const tcp = origin(await serve('tcp', onPort));
    const other = origin(await serve('other', onPort));
    const spec = await loadSpec();
    const operation = spec.operation('products:list');
    const testCase = { id: 'products:list#1', operationId: 'products:list', pathParams: {}, query: {}, headers: {}, role: null };
    const target: Target = { baseUrl: tcp, kind: 'embedded', roles: {}, fixtures: {}, requestsPerSecond: null, timeoutMs: 5000, readOnly: true, localSocket: { origin: tcp, path: socketPath } };
    const own = createClient(target, { breaker: null });
    // A copy for another origin keeps the first's localSocket, which names the first's origin only.
    const elsewhere = createClient({ ...target, baseUrl: other }, { breaker: null });
    const { localSocket: _, ...overTcp } = target;
    const plain = createClient(overTcp, { breaker: null });
    try {
      const first = await own.send(operation, testCase);
      expect(first.request.url).toBe(`${tcp}/v1/products/`);
      expect(first.response?.json).toEqual({ answered_by: 'socket' });
      expect((await elsewhere.send(operation, testCase)).response?.json).toEqual({ answered_by: 'other' });
      expect((await plain.send(operation, testCase)).response?.json).toEqual({ answered_by: 'tcp' });
    } finally {
      await own.close();
      await elsewhere.close();
      await plain.close();
    }
  });
});
