// The reference server answers any malformed request with a 4xx in the API's error format (or,
// where the broken request is still valid, the documented success), never a 5xx, a crash or a hang;
// the store is unchanged afterwards and no built-in prototype is polluted.
// @see spec/rules.yaml robustness.no_server_error; docs/design.md (Reference server; What the API requires that the
// harness relies on: Errors)
import net from 'node:net';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Operation } from '../../../core/spec/load.js';
import { startReferenceServer, type RunningReference } from '../../../server/index.js';
import { testServer, type TestServer } from '../support.js';
import { materialize, malformedRequest, type Materialized, type RawRequest } from './malformed-request.js';
import { changedMembers, errorBodyShape, prototypeKeys, storeSnapshot, type StoreSnapshot } from './support.js';

const SEED = 20261001;
const RUNS = 400;

let server: TestServer;
let baseline: StoreSnapshot;
let prototypesBefore: Record<string, string[]>;

beforeAll(async () => {
  prototypesBefore = prototypeKeys();
  // The rate limit would answer most of the run 429 and hide the pipeline under test.
  server = await testServer({ rateLimit: false });
  baseline = storeSnapshot(server.store);
});

function inject(request: RawRequest): Promise<LightMyRequestResponse> {
  return server.app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers, ...(request.payload !== undefined ? { payload: request.payload } : {}) });
}

/** Asserts a 2xx is a documented success of the operation with a body valid per the spec (HEAD: status only). */
function expectDocumentedSuccess(operation: Operation, response: LightMyRequestResponse, head: boolean, label: string): void {
  const status = server.spec.matchStatus(operation, response.statusCode);
  expect(status, `${label}: ${response.statusCode} documented for ${operation.operationId}`).toBeDefined();
  if (head || response.statusCode === 204) {
    expect(response.body, label).toBe('');
    return;
  }
  const mediaType = String(response.headers['content-type']).split(';')[0]!;
  expect(operation.responseMediaTypes[status!], label).toContain(mediaType);
  const result = server.spec.validateResponse(operation, status!, mediaType, response.json());
  expect(result?.ok ? [] : result?.errors.slice(0, 3), `${label}: body valid for ${status}`).toEqual([]);
}

/** Asserts a 4xx carries a JSON error body in the API's format, valid per the spec where the operation documents the status. */
function expectErrorAnswer(materialized: Materialized, response: LightMyRequestResponse, label: string): void {
  const { request, operation } = materialized;
  expect(String(response.headers['content-type']), label).toMatch(/^application\/json/);
  if (response.statusCode === 405) expect(response.headers.allow, `${label}: Allow`).toEqual(expect.any(String));
  if (request.method === 'HEAD') return;
  let body: unknown;
  expect(() => (body = JSON.parse(response.body)), `${label}: JSON body ${response.body.slice(0, 200)}`).not.toThrow();
  const shape = errorBodyShape(body);
  expect(shape, `${label}: error format of ${response.body.slice(0, 300)}`).toBeDefined();
  if (shape === 'oauth2') expect(request.url, `${label}: RFC 6749 errors only on the OAuth endpoints`).toMatch(/^\/v1\/oauth2\//);
  if (shape === 'validation') expect(response.statusCode, label).toBe(422);
  const status = operation && server.spec.matchStatus(operation, response.statusCode);
  if (operation && status) {
    const result = server.spec.validateResponse(operation, status, 'application/json', body);
    expect(result?.ok ? [] : result?.errors.slice(0, 3), `${label}: ${response.statusCode} body valid for ${operation.operationId}`).toEqual([]);
  }
}

function expectPrototypesClean(label: string): void {
  expect(({} as Record<string, unknown>).polluted, label).toBeUndefined();
  expect((Object.prototype as Record<string, unknown>).polluted, label).toBeUndefined();
  expect(prototypeKeys(), label).toEqual(prototypesBefore);
}

describe('malformed requests (property)', () => {
  it(`answers ${RUNS} malformed requests to every operation and to unknown paths with a 4xx or a documented success, never a 5xx, and leaves the store as it was`, async () => {
    const context = { spec: server.spec, fixtures: server.fixtures, tokens: server.tokens };
    const targeted = new Set<string>();
    const statuses = new Map<number, number>();
    let validMutations = 0;
    await fc.assert(
      fc.asyncProperty(malformedRequest(context), async (value) => {
        const materialized = materialize(value, context);
        const { request, operation, refusedBecause } = materialized;
        const label = `${request.method} ${request.url.slice(0, 160)} [${refusedBecause.join('; ') || 'may be valid'}]`;
        const response = await inject(request);
        if (value.target.kind === 'operation') targeted.add(value.target.operationId);
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);

        expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
        expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
        if (refusedBecause.length > 0) expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
        if (response.statusCode < 300) {
          expect(operation, `${label}: a success comes from an operation`).toBeDefined();
          expectDocumentedSuccess(operation!, response, request.method === 'HEAD', label);
        } else {
          expectErrorAnswer(materialized, response, label);
        }

        // A request that is still a valid change (a 2xx to a POST, PATCH or DELETE) is undone by a
        // reset, which must restore the store exactly; anything else must not have changed it.
        if (response.statusCode < 300 && request.method !== 'GET' && request.method !== 'HEAD') {
          validMutations++;
          server.control.reset();
        }
        expect(changedMembers(baseline, storeSnapshot(server.store)), `${label}: store members changed`).toEqual([]);
        expectPrototypesClean(label);
      }),
      { numRuns: RUNS, seed: SEED, timeout: 10_000, endOnFailure: true },
    );
    // The property is not vacuous: every operation was aimed at, and both refusals and successes happened.
    expect([...targeted].sort()).toEqual(server.spec.operations.map((operation) => operation.operationId).sort());
    const codes = [...statuses.keys()];
    expect(codes.filter((code) => code >= 400).length, JSON.stringify([...statuses])).toBeGreaterThanOrEqual(6);
    expect(codes.some((code) => code < 300)).toBe(true);
    expect(validMutations).toBeGreaterThan(0);
  }, 90_000);

  it('leaves no key on any built-in prototype after the run', () => {
    expectPrototypesClean('after the run');
    expect(changedMembers(baseline, storeSnapshot(server.store))).toEqual([]);
  });
});

describe('malformed requests (regressions)', () => {
  const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

  // A 10,000-level unknown field inside billing_address overflowed the stack in the order update
  // (JSON.stringify of the raw address), a 500; and once invoiced, the 422 echoed it back.
  it.each([
    ['a pending or paid order', () => server.fixtures.order_id!],
    ['an invoiced order', () => [...server.store.orders.all()].find((order) => order.invoice_generated_at !== null && order.organization_id === server.fixtures.organization_id)!.id],
  ])('answers an order update with a 10,000-level unknown field in billing_address (%s) without a 5xx', async (_name, orderId) => {
    const id = orderId();
    const response = await server.app.inject({
      method: 'PATCH',
      url: `/v1/orders/${id}`,
      headers: { authorization: `Bearer ${server.tokens.admin}`, 'content-type': 'application/json' },
      payload: `{"billing_address":{"country":"FR","a":${deep(10_000)}}}`,
    });
    expect(response.statusCode, response.body.slice(0, 300)).toBeLessThan(500);
    expect(response.body.length).toBeLessThan(20_000);
    server.control.reset();
  });

  // A discriminator (files:create `service`) given a 10,000-level object was echoed back whole in
  // the 422, and serializing the answer overflowed the stack: a 500.
  it('answers a file whose service is a 10,000-level object with a short 422', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/v1/files/',
      headers: { authorization: `Bearer ${server.tokens.admin}`, 'content-type': 'application/json' },
      payload: `{"name":"a.pdf","mime_type":"application/pdf","size":1,"service":${deep(10_000)}}`,
    });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(422);
    expect(response.json().detail[0]).toMatchObject({ loc: ['body', 'service'], type: 'union_tag_invalid' });
    expect(response.body.length).toBeLessThan(20_000);
  });

  it('names a missing Content-Type in the 422 of a JSON operation', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/v1/customer-seats/claim', payload: '{"invitation_token":"x"}' });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail[0].ctx.reason).toBe('the body must be application/json; the request has no Content-Type');
  });
});

/** Sends raw bytes on a new connection and reads until the server closes it (or `timeoutMs` passes). */
function rawExchange(url: string, bytes: string | Buffer, timeoutMs = 5_000): Promise<{ status: number | undefined; headers: string; body: string; timedOut: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let timedOut = false;
    socket.setTimeout(timeoutMs, () => {
      timedOut = true;
      socket.destroy();
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1];
      resolve({ status: status ? Number(status) : undefined, headers: head, body: rest.join('\r\n\r\n'), timedOut });
    });
    socket.write(bytes);
  });
}

describe('malformed requests over a socket', () => {
  let running: RunningReference;
  let auth: string;

  beforeAll(async () => {
    running = await startReferenceServer();
    auth = `Authorization: Bearer ${running.credentials.admin}\r\n`;
  });

  afterAll(async () => {
    await running.close();
  });

  // What Node's HTTP parser refuses never reaches a route: custom verbs, oversized headers, bytes
  // that are not allowed in a request line, broken framing.
  const PARSER_ERRORS: [string, () => string | Buffer][] = [
    ['a custom verb', () => `BREW /v1/products/ HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`],
    ['another custom verb', () => `FROBNICATE /v1/orders/x/receipt HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`],
    ['a lower-case method', () => `get /v1/products/ HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`],
    ['a 20 KB header', () => `GET /v1/products/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n${auth}Connection: close\r\n\r\n`],
    ['3,000 headers', () => `GET /v1/products/ HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 3_000 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n${auth}Connection: close\r\n\r\n`],
    ['raw invalid UTF-8 bytes in the path', () => Buffer.concat([Buffer.from('GET /v1/orders/'), Buffer.from([0xff, 0xfe]), Buffer.from(`/receipt HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`)])],
    ['a NUL byte in the path', () => `GET /v1/products/\u0000 HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`],
    ['garbage', () => 'HELLO\r\n\r\n'],
    ['an HTTP/2 preface', () => 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
    ['a Content-Length that is not a number', () => `POST /v1/customer-seats/claim HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\nConnection: close\r\n\r\n{}`],
    ['two different Content-Lengths', () => `POST /v1/customer-seats/claim HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{}`],
    ['a bad chunk size', () => `POST /v1/customer-seats/claim HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`],
    ['a header line without a colon', () => `GET /v1/products/ HTTP/1.1\r\nHost: x\r\nNo colon here\r\n${auth}Connection: close\r\n\r\n`],
  ];

  // A request line without a version (HTTP/0.9 style) is read as a request and reaches the route.
  const CASES: [string, () => string | Buffer][] = [...PARSER_ERRORS, ['a request line without a version', () => 'GET /v1/products/\r\n\r\n']];

  it.each(CASES)('answers %s with a 4xx and a JSON body, closes the connection, and keeps serving', async (_name, bytes) => {
    const answer = await rawExchange(running.url, bytes());
    expect(answer.timedOut).toBe(false);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.headers).toMatch(/content-type: application\/json/i);
    expect(() => JSON.parse(answer.body)).not.toThrow();
    const next = await fetch(`${running.url}/v1/products/?limit=1`, { headers: { authorization: `Bearer ${running.credentials.admin}` } });
    expect(next.status).toBe(200);
  });

  // inject() keeps only the first of repeated headers, so duplicates are sent as bytes. Node keeps
  // the first Authorization line too: a bad first credential must be refused whatever follows.
  it.each([
    ['a valid then an unknown token', (token: string) => [token, 'not-a-token'], [200]],
    ['an unknown then a valid token', (token: string) => ['not-a-token', token], [401]],
    ['a valid token twice', (token: string) => [token, token], [200]],
  ] as const)('answers two Authorization headers (%s) as documented, never a 5xx', async (_name, tokens, statuses) => {
    const lines = tokens(running.credentials.admin).map((token) => `Authorization: Bearer ${token}\r\n`).join('');
    const answer = await rawExchange(running.url, `GET /v1/products/?limit=1 HTTP/1.1\r\nHost: x\r\n${lines}Connection: close\r\n\r\n`);
    expect(statuses).toContain(answer.status);
    expect(() => JSON.parse(answer.body)).not.toThrow();
  });

  // Requests Node's parser rejects never reach a route; app.ts's clientErrorHandler answers them
  // in the API's format (Fastify's default body has no `detail`).
  it.each(PARSER_ERRORS)('answers %s in the API error format {error, detail}', async (_name, bytes) => {
    const answer = await rawExchange(running.url, bytes());
    expect(errorBodyShape(JSON.parse(answer.body))).toBe('error-detail');
  });
});
