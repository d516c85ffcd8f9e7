/**
 * What a target answers alone, for `npm run bench:harness`: a recording proxy that passes a
 * harness run's TCP connections through to the target untouched and keeps the bytes the harness
 * sent, the parsing of those bytes back into HTTP requests, and their replay against a target
 * with undici at a given number of connections, timed.
 *
 * The proxy works on bytes, not on HTTP: it copies each connection both ways (Node's stream
 * piping, no parsing, no buffering of answers), so that what it adds to the run it sits in is a
 * copy per chunk, not a second HTTP server. The requests are parsed after the run, by replaying
 * each connection's bytes into a local node:http server that only takes note of them.
 * @see docs/performance.md (The harness's own speed: npm run bench:harness)
 */
import http from 'node:http';
import net from 'node:net';
import { Pool } from 'undici';

/** One request as the harness sent it: `path` with its query, headers lower-cased, `body` the bytes sent (empty when none). */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** A running recording proxy. */
export interface RecordingProxy {
  /** Base URL of the proxy (`http://127.0.0.1:PORT`), to give the harness as its target. */
  url: string;
  /** The most connections that were open through the proxy at once. */
  peakConnections(): number;
  /** The bytes each connection sent to the target so far, one buffer per connection, in the order they opened. */
  streams(): Buffer[];
  /** Stops listening and closes every connection still open. */
  stop(): Promise<void>;
}

/**
 * Starts a recording proxy on 127.0.0.1 and a free port in front of `targetUrl` (http only).
 * @throws Error when the port cannot be bound
 */
export async function startRecordingProxy(targetUrl: string): Promise<RecordingProxy> {
  const target = new URL(targetUrl);
  const port = Number(target.port || 80);
  const recorded: Buffer[][] = [];
  const sockets = new Set<net.Socket>();
  let open = 0;
  let peak = 0;
  const server = net.createServer((client) => {
    const chunks: Buffer[] = [];
    recorded.push(chunks);
    open++;
    peak = Math.max(peak, open);
    const upstream = net.connect(port, target.hostname);
    sockets.add(client).add(upstream);
    client.on('data', (chunk: Buffer) => chunks.push(chunk));
    client.pipe(upstream);
    upstream.pipe(client);
    const done = () => {
      client.destroy();
      upstream.destroy();
    };
    client.once('error', done).once('close', () => {
      sockets.delete(client);
      open--;
      done();
    });
    upstream.once('error', done).once('close', () => {
      sockets.delete(upstream);
      done();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port: own } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${own}`,
    peakConnections: () => peak,
    streams: () => recorded.map((chunks) => Buffer.concat(chunks)),
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Headers that belong to one connection (RFC 9110 section 7.6.1) or that undici sets itself: not replayed. */
const NOT_REPLAYED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'content-length', 'upgrade', 'proxy-connection', 'te', 'trailer']);

/**
 * Parses the bytes of HTTP/1.1 connections (as {@link RecordingProxy.streams} gives them) into
 * requests, by writing each connection's bytes to a local node:http server that answers every
 * request 204 and keeps it. A connection's requests keep their order; connections follow each other.
 * A connection cut mid-request loses that last request only.
 * @returns the requests, with the headers that belong to the connection left out
 */
export async function parseRequests(streams: readonly Buffer[]): Promise<RecordedRequest[]> {
  const perConnection = new Map<net.Socket, RecordedRequest[]>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (value === undefined || NOT_REPLAYED.has(name)) continue;
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      perConnection.get(request.socket)?.push({ method: request.method ?? 'GET', path: request.url ?? '/', headers, body: Buffer.concat(chunks) });
      response.writeHead(204).end();
    });
  });
  server.on('connection', (socket) => perConnection.set(socket, []));
  // Bytes a parser refuses end that connection only.
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const requests: RecordedRequest[] = [];
  try {
    for (const bytes of streams) {
      if (bytes.length === 0) continue;
      const before = new Set(perConnection.keys());
      await new Promise<void>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
        socket.resume();
        socket.once('close', () => resolve());
        socket.once('error', () => resolve());
      });
      for (const [socket, list] of perConnection) if (!before.has(socket)) requests.push(...list);
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return requests;
}

/** What a replay measured. */
export interface ReplayResult {
  requests: number;
  /** Wall-clock milliseconds from the first request sent to the last answer read. */
  ms: number;
  /** Answers per second over `ms`. */
  rps: number;
  /** Requests that got no answer (connection errors, timeouts). */
  errors: number;
  connections: number;
}

/**
 * Sends `requests` to `origin` with an undici Pool of `connections` kept-alive connections, one
 * request at a time on each (each connection takes the next request as soon as its answer is
 * read), and times the whole.
 * @param timeoutMs deadline of each request's answer
 * @returns the time and rate; a request without an answer counts in `errors`, it does not throw
 */
export async function replay(origin: string, requests: readonly RecordedRequest[], connections: number, timeoutMs = 60_000): Promise<ReplayResult> {
  const pool = new Pool(origin, { connections, pipelining: 1, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  let next = 0;
  let errors = 0;
  const started = performance.now();
  try {
    const lane = async () => {
      while (next < requests.length) {
        const r = requests[next++]!;
        try {
          const answer = await pool.request({ method: r.method as 'GET', path: r.path, headers: r.headers, ...(r.body.length > 0 ? { body: r.body } : {}) });
          await answer.body.dump();
        } catch {
          errors++;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, connections) }, lane));
  } finally {
    await pool.close();
  }
  const ms = performance.now() - started;
  return { requests: requests.length, ms, rps: (requests.length / ms) * 1000, errors, connections };
}
