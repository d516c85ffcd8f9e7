// A target may code its answers even though the harness sends no Accept-Encoding (RFC 9110
// section 12.5.3: no header means any coding is acceptable). The client decodes gzip, deflate and
// br, keeps the size on the wire for the Content-Length check, and records anything else as received.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseHeadersConformance } from '../../checks/response-headers-conformance.js';
import { createClient, type Client } from '../../engine/client.js';
import type { CheckContext } from '../../core/types.js';
import { loadSpec, type LoadedSpec } from '../../core/spec/load.js';

const page = JSON.stringify({ items: [{ id: 'a', name: 'x'.repeat(2000) }], pagination: { total_count: 1, max_page: 1 } });
const ANSWERS: Record<string, { coding: string; body: Buffer }> = {
  gzip: { coding: 'gzip', body: gzipSync(page) },
  'x-gzip': { coding: 'x-gzip', body: gzipSync(page) },
  deflate: { coding: 'deflate', body: deflateSync(page) },
  br: { coding: 'br', body: brotliCompressSync(page) },
  // Names gzip but is not: recorded as received.
  liar: { coding: 'gzip', body: Buffer.from(page) },
  // 64 MiB of spaces in 64 KB: decoded no further than the 1 MiB the client keeps.
  bomb: { coding: 'gzip', body: gzipSync(Buffer.alloc(64 * 1024 * 1024, ' ')) },
  unknown: { coding: 'zstd', body: Buffer.from('not zstd') },
};

describe('the harness client and content-coded answers', () => {
  let spec: LoadedSpec;
  let server: Server;
  let client: Client;
  let acceptEncoding: (string | undefined)[] = [];

  beforeAll(async () => {
    spec = await loadSpec();
    server = createServer((request, response) => {
      acceptEncoding.push(request.headers['accept-encoding']);
      const answer = ANSWERS[new URL(request.url!, 'http://x').searchParams.get('sorting') ?? ''] ?? ANSWERS.gzip!;
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': answer.coding, 'content-length': answer.body.length });
      response.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = createClient({ baseUrl: `http://127.0.0.1:${port}`, kind: 'remote', roles: {}, fixtures: {}, requestsPerSecond: null, timeoutMs: 5000, readOnly: true });
  });
  afterAll(async () => {
    await client.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const send = (name: string) => client.send(spec.operation('products:list'), { id: `products:list#${name}`, operationId: 'products:list', pathParams: {}, query: { sorting: name }, headers: {}, role: null });

  it.each(['gzip', 'x-gzip', 'deflate', 'br'])('decodes a %s body, and judges Content-Length against the bytes on the wire', async (name) => {
    acceptEncoding = [];
    const exchange = await send(name);
    expect(acceptEncoding).toEqual([undefined]);
    expect(exchange.response!.json).toEqual(JSON.parse(page));
    expect(exchange.response!.wireBytes).toBe(ANSWERS[name]!.body.length);
    expect(exchange.response!.headers['content-encoding']).toBe(ANSWERS[name]!.coding);
    const ctx = { spec, operation: spec.operation('products:list') } as unknown as CheckContext;
    expect(responseHeadersConformance.run(ctx, exchange, [])).toEqual([]);
  });

  it.each(['liar', 'unknown'])('records a body that is not in the coding it names (%s) as received', async (name) => {
    const exchange = await send(name);
    expect(exchange.response!.body).toBe(ANSWERS[name]!.body.toString('utf8'));
    expect(exchange.response!.wireBytes).toBeUndefined();
  });

  it('does not expand a small coded body past the 1 MiB it keeps', async () => {
    const exchange = await send('bomb');
    expect(exchange.response!.wireBytes).toBeUndefined();
    expect(exchange.response!.body).toBe(ANSWERS.bomb!.body.toString('utf8'));
  });
});
