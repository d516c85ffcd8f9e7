// A misbehaving target for the harness's own tests and for bench/unresponsive-target.ts. It
// listens on 127.0.0.1 on a free port and is closed, with every open connection, by whoever
// started it. By default each list path fails in its own way (CHAOS); with a behaviour, it answers
// the harness's reachability probe (`GET /`) normally and every other request with that behaviour.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How each path misbehaves when no behaviour is given. */
export const CHAOS = {
  '/v1/products/': 'hangs: never answers',
  '/v1/subscriptions/': 'resets the connection',
  '/v1/files/': 'answers 200 with garbage that claims to be JSON',
  '/v1/refunds/': 'sends headers, then one body byte every 200 ms, forever',
  '/v1/webhooks/endpoints': 'answers 503 with an HTML page',
} as const;

/** What the target does with every request but the probe, when given one behaviour. */
export const BEHAVIOURS = {
  hang: 'never answers',
  drip: 'sends headers, then a chunked body that never ends (one byte every 200 ms)',
  slow: 'answers 200 with a JSON list after `slowMs` (default 15 s)',
  reset: 'sends the headers and half a body, then resets the connection',
  garbage: 'sends bytes that are not HTTP, then closes',
  mix: 'cycles through hang, drip, slow, reset, garbage and a quick 500 answer, one per request',
} as const;

/** A behaviour of every request but the probe. */
export type Behaviour = keyof typeof BEHAVIOURS;

/** Options of {@link startChaosTarget}. */
export interface ChaosOptions {
  /** Every request but `GET /` gets this behaviour; absent: each path of {@link CHAOS} its own. */
  behaviour?: Behaviour;
  /** Delay of the `slow` behaviour's answer, in milliseconds; default 15,000. */
  slowMs?: number;
}

/** A running chaos target. */
export interface ChaosTarget {
  url: string;
  /** Requests received so far, the probe included; with `path`, those to that path (without the query). */
  requests(path?: string): number;
  close(): Promise<void>;
}

const MIX: readonly Exclude<Behaviour, 'mix'>[] = ['hang', 'drip', 'slow', 'reset', 'garbage'];

/** Starts the chaos target on 127.0.0.1 and a free port. */
export async function startChaosTarget(options: ChaosOptions = {}): Promise<ChaosTarget> {
  const timers = new Set<NodeJS.Timeout>();
  const slowMs = options.slowMs ?? 15_000;
  let received = 0;
  const byPath = new Map<string, number>();

  const later = (ms: number, fn: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };
  const drip = (res: ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => res.write(' '), 200);
    timers.add(timer);
    res.on('close', () => {
      clearInterval(timer);
      timers.delete(timer);
    });
  };
  const behave = (behaviour: Exclude<Behaviour, 'mix'> | 'error', req: IncomingMessage, res: ServerResponse): void => {
    switch (behaviour) {
      case 'hang':
        return;
      case 'drip':
        return drip(res);
      case 'slow':
        return later(slowMs, () => {
          if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[],"pagination":{"total_count":0,"max_page":0}}');
        });
      case 'reset':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '64' });
        res.write('{"items": [');
        // After the bytes above have left: the client sees a body cut short by a reset.
        return later(20, () => req.socket.resetAndDestroy());
      case 'garbage':
        req.socket.end('\u0000\u00ff garbage, not HTTP \r\n\r\n');
        return;
      case 'error':
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"InternalServerError","detail":"chaos"}');
        return;
    }
  };

  const server: Server = createServer((req, res) => {
    received++;
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    byPath.set(path, (byPath.get(path) ?? 0) + 1);
    if (options.behaviour) {
      if (req.method === 'GET' && path === '/') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"ResourceNotFound","detail":"no such path"}');
        return;
      }
      if (options.behaviour !== 'mix') return behave(options.behaviour, req, res);
      // One quick answer in six: between hangs, the target answers now and then.
      const turn = received % (MIX.length + 1);
      return behave(MIX[turn] ?? 'error', req, res);
    }
    switch (path) {
      case '/v1/products/':
        return; // never answers
      case '/v1/subscriptions/':
        req.socket.destroy();
        return;
      case '/v1/files/':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"items": [{"id": \u0000 garbage');
        return;
      case '/v1/refunds/':
        return drip(res);
      case '/v1/webhooks/endpoints':
        res.writeHead(503, { 'content-type': 'text/html' }).end('<html><body>Service Unavailable</body></html>');
        return;
      default:
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"ResourceNotFound","detail":"no such path"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: (path?: string) => (path === undefined ? received : (byPath.get(path) ?? 0)),
    async close() {
      for (const timer of timers) clearInterval(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
