/**
 * The conformance proxy: an HTTP server (loopback by default) in front of a target that forwards
 * every request to it untouched and streams the answer back as it comes, then judges the exchange
 * (engine/observed/judge.ts) off the client's path. With `strict`, an answer is held until judged,
 * and one that failed a must-level check is replaced by 502 with a JSON body naming the findings.
 * A target that does not answer gets the client a 502 naming why.
 * @see docs/observed.md (The proxy)
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request as undiciRequest } from 'undici';
import type { HttpRequest } from '../../core/types.js';
import { factsOf } from '../conformance.js';
import type { ObservedExchange } from './exchange.js';
import type { HarRecorder } from './har.js';
import { flatHeaders, MAX_JUDGED_BODY, observedResponse } from './response.js';
import type { ObservedJudge, ObservedVerdict } from './judge.js';
import type { JudgePool } from './judge-pool.js';

/** Most exchanges answered but not yet judged, by default; beyond it the proxy forwards nothing new until the judge catches up (bounded memory). */
const MAX_BACKLOG = 256;

/** Headers of one connection (RFC 9110 section 7.6.1), never forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

/** Options of {@link startProxy}. */
export interface ProxyOptions {
  /** Base URL of the target (`http://127.0.0.1:8000`, or with a base path: `https://host/sandbox`). */
  target: string;
  /** Port to listen on; 0 (default) a free one. */
  port?: number;
  /** Address to listen on; default 127.0.0.1 (loopback). */
  host?: string;
  /**
   * The judge every exchange goes to: in this thread (judged between forwarded exchanges), or on
   * threads of their own ({@link JudgePool}, which also records), so that judging never holds up
   * forwarding.
   */
  judge: ObservedJudge | JudgePool;
  /** Where to record every exchange as HAR, redacted (with a judge of this thread; a `JudgePool` records itself). */
  record?: HarRecorder;
  /** Answer 502 with the findings for an exchange that failed a must-level check (the answer is held until judged). */
  strict?: boolean;
  /** Deadline of the whole exchange with the target, in milliseconds (default 30000). */
  timeoutMs?: number;
  /**
   * Told of each verdict, after the client was answered (or, with `strict`, before). Without it, a
   * {@link JudgePool} sends no verdict back to this thread: what it found is in its results.
   */
  onVerdict?: (verdict: ObservedVerdict, exchange: ObservedExchange) => void;
  /** Most exchanges answered and not yet judged before new requests wait (default 256). */
  maxBacklog?: number;
}

/** A listening proxy. */
export interface RunningProxy {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Exchanges forwarded so far. */
  exchanges(): number;
  /** Stops listening, waits for the exchanges in flight, closes the connection pool. */
  close(): Promise<void>;
}

/**
 * Starts the proxy.
 * @throws the listen error (`EADDRINUSE`, `EACCES`) when it cannot listen; the CLI names it
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = new URL(options.target);
  const base = `${target.origin}${target.pathname.replace(/\/+$/, '')}`;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const agent = new Agent({ connections: 128, keepAliveTimeout: 10_000, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, pipelining: 1 });
  let count = 0;
  // Exchanges answered and waiting to be judged (with those a pool counts, below). Past maxBacklog,
  // new requests wait before they are forwarded: a load faster than the judge is slowed to its pace
  // rather than held in memory.
  let backlog = 0;
  let drained: (() => void)[] = [];
  const inFlight = new Set<Promise<void>>();

  const { judge } = options;
  const maxBacklog = options.maxBacklog ?? MAX_BACKLOG;
  const threaded = 'judgeAsync' in judge;
  // Exchanges handed to a pool without asking for their verdicts (none is wanted here): the pool counts them.
  const quiet = 'submitRaw' in judge && !options.onVerdict ? judge : undefined;
  const waiting = () => backlog + (quiet?.pending ?? 0);
  const judging = new Set<Promise<unknown>>();

  function judged(exchange: ObservedExchange, startedAt: Date): ObservedVerdict | Promise<ObservedVerdict> {
    if ('judgeAsync' in judge) {
      const verdict = judge.judgeAsync(exchange, startedAt).then((v) => {
        options.onVerdict?.(v, exchange);
        return v;
      });
      judging.add(verdict);
      void verdict.finally(() => judging.delete(verdict)).catch(() => undefined);
      return verdict;
    }
    options.record?.record(exchange, startedAt);
    const verdict = judge.judge(exchange);
    options.onVerdict?.(verdict, exchange);
    return verdict;
  }

  /** One fewer exchange waiting for the judge; the requests held back go on below the bound. */
  function judgedOne(): void {
    backlog--;
    if (waiting() < maxBacklog && drained.length) {
      const waiting = drained;
      drained = [];
      for (const resume of waiting) resume();
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    count++;
    while (waiting() >= maxBacklog) {
      // Woken by a verdict of this thread's own, or by the pool judging one more.
      await Promise.race([new Promise<void>((resolve) => drained.push(resolve)), ...(quiet ? [quiet.whenPendingBelow(quiet.pending)] : [])]);
    }
    const startedAt = new Date();
    // A request that announces no body (neither length nor chunks) has none to read.
    const chunks: Buffer[] = [];
    if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) for await (const chunk of req) chunks.push(chunk as Buffer);
    else req.resume();
    const requestBody = chunks.length ? Buffer.concat(chunks) : undefined;
    const forwarded: Record<string, string | string[]> = {};
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!.toLowerCase();
      if (HOP_BY_HOP.has(name)) continue;
      const value = req.rawHeaders[i + 1]!;
      const had = forwarded[name];
      forwarded[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
    }
    const headers = flatHeaders(req.headers);
    for (const name of Object.keys(headers)) if (HOP_BY_HOP.has(name)) delete headers[name];
    const request: HttpRequest = { method: req.method ?? 'GET', url: `${base}${req.url ?? '/'}`, headers, ...(requestBody ? { body: requestBody.toString('utf8') } : {}) };
    const sent = performance.now();
    let answer: Awaited<ReturnType<typeof undiciRequest>>;
    // One controller per exchange, released at its end: AbortSignal.timeout would keep a timer and a
    // signal alive for the whole timeout after every answer (thousands at a busy suite's rate).
    const controller = new AbortController();
    const deadline = setTimeout(() => controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
    try {
      answer = await undiciRequest(request.url, { method: request.method as 'GET', headers: forwarded, body: requestBody, dispatcher: agent, signal: controller.signal });
    } catch (error) {
      clearTimeout(deadline);
      const err = error as Error & { code?: string };
      const code = err.name === 'TimeoutError' ? 'CNF_TIMEOUT' : (err.code ?? (err.cause as { code?: string } | undefined)?.code ?? err.name);
      const transportError = { code, message: err.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : err.message };
      void judged({ request, transportError }, startedAt);
      res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'BadGateway', detail: `the target ${target.origin} did not answer: ${code}: ${transportError.message}` }));
      return;
    }
    const responseHeaders: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) responseHeaders[name] = value;
    if (!options.strict) res.writeHead(answer.statusCode, responseHeaders);
    const kept: Buffer[] = [];
    let size = 0;
    let transportError: ObservedExchange['transportError'];
    try {
      for await (const chunk of answer.body) {
        if (!options.strict) res.write(chunk);
        if (size < MAX_JUDGED_BODY || options.strict) kept.push(chunk as Buffer);
        size += (chunk as Buffer).length;
      }
    } catch (error) {
      const err = error as Error & { code?: string };
      transportError = { code: err.name === 'TimeoutError' ? 'CNF_TIMEOUT' : (err.code ?? err.name), message: err.message };
    }
    clearTimeout(deadline);
    const elapsedMs = Math.round((performance.now() - sent) * 1000) / 1000;
    const raw = Buffer.concat(kept);
    if (!options.strict) {
      if (transportError) res.destroy();
      else res.end();
    }
    if (!options.strict && !transportError && 'judgeRawAsync' in judge) {
      // Judged after the client has its answer, on a judging thread, which also decodes and parses it.
      const rawAnswer = { status: answer.statusCode, headers: flatHeaders(answer.headers), raw: raw.subarray(0, MAX_JUDGED_BODY), size, elapsedMs };
      if (quiet) {
        quiet.submitRaw(request, rawAnswer, startedAt);
        return;
      }
      backlog++;
      const verdict = judge.judgeRawAsync(request, rawAnswer, startedAt);
      judging.add(verdict);
      void verdict
        .then((v) => options.onVerdict?.(v, { request }))
        .catch(() => undefined)
        .finally(() => {
          judging.delete(verdict);
          judgedOne();
        });
      return;
    }
    const response = observedResponse(answer.statusCode, flatHeaders(answer.headers), raw.subarray(0, MAX_JUDGED_BODY), size, elapsedMs);
    const exchange: ObservedExchange = transportError ? { request, transportError } : { request, response };
    if (!options.strict) {
      // Judged after the client has its answer: the proxy adds no judging time to the exchange.
      backlog++;
      if (threaded) {
        void Promise.resolve(judged(exchange, startedAt)).catch(() => undefined).finally(judgedOne);
        return;
      }
      setImmediate(() => {
        try {
          judged(exchange, startedAt);
        } finally {
          judgedOne();
        }
      });
      return;
    }
    const verdict = await judged(exchange, startedAt);
    const must = verdict.failures.filter((f) => factsOf(f.checkId).level === 'must');
    if (verdict.mustFailed) {
      res.writeHead(502, { 'content-type': 'application/json', 'x-conformance-findings': String(must.length) }).end(JSON.stringify({
        error: 'ConformanceFailure',
        detail: `the target's answer (${answer.statusCode}) failed ${must.length} check${must.length === 1 ? '' : 's'} of the document; --strict replaced it`,
        findings: verdict.failures.map((f) => ({ checkId: f.checkId, kind: f.kind, title: f.title, message: f.message, operationId: f.operationId, severity: f.severity })),
      }));
    } else if (transportError) {
      res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'BadGateway', detail: `the target's answer was cut: ${transportError.code}: ${transportError.message}` }));
    } else {
      res.writeHead(answer.statusCode, responseHeaders).end(raw);
    }
  }

  const server = createServer((req, res) => {
    const done = handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'BadGateway', detail: `the proxy could not forward the request: ${(error as Error).message}` }));
      else res.destroy();
    });
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    exchanges: () => count,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await Promise.allSettled([...inFlight]);
      server.closeAllConnections();
      await closed;
      // Verdicts scheduled after the last answers are given before the judge's results are read.
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.allSettled([...judging]);
      await agent.close();
    },
  };
}
