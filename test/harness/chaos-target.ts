// A misbehaving target for the harness's own tests: each list path fails in one way. It listens
// on 127.0.0.1 on a free port and is closed, with every open connection, by the test.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How each path misbehaves. */
export const CHAOS = {
  '/v1/products/': 'hangs: never answers',
  '/v1/subscriptions/': 'resets the connection',
  '/v1/files/': 'answers 200 with garbage that claims to be JSON',
  '/v1/refunds/': 'sends headers, then one body byte every 200 ms, forever',
  '/v1/webhooks/endpoints': 'answers 503 with an HTML page',
} as const;

/** A running chaos target. */
export interface ChaosTarget {
  url: string;
  close(): Promise<void>;
}

/** Starts the chaos target on 127.0.0.1 and a free port. */
export async function startChaosTarget(): Promise<ChaosTarget> {
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    switch (path) {
      case '/v1/products/':
        return; // never answers
      case '/v1/subscriptions/':
        req.socket.destroy();
        return;
      case '/v1/files/':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"items": [{"id": \u0000 garbage');
        return;
      case '/v1/refunds/': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => res.write(' '), 200);
        timers.add(timer);
        res.on('close', () => clearInterval(timer));
        return;
      }
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
    async close() {
      for (const timer of timers) clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
