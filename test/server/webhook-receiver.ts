/**
 * A webhook receiver for tests: a node:http server on 127.0.0.1 (a free port) that records every
 * request and answers with the statuses it is told, in turn (200 once they run out).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  body: string;
  /** The status it was answered with. */
  answeredWith: number;
}

/** A listening receiver. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT/hook`. */
  url: string;
  /** Every request so far, in arrival order. */
  received: ReceivedWebhook[];
  /** Statuses to answer the next requests with, in turn. */
  answers: number[];
  /** Stops listening. */
  close(): Promise<void>;
}

/**
 * Starts a receiver.
 * @param answers statuses of the first requests, in turn (then 200)
 * @param judge when given, decides each request's status as it arrives (a verifier's verdict), instead of `answers`
 */
export async function startWebhookReceiver(answers: number[] = [], judge?: (request: Omit<ReceivedWebhook, 'answeredWith'>) => number | Promise<number>): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const receiver = { received, answers: [...answers] } as WebhookReceiver;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const arrived = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      const status = judge ? await judge(arrived) : (receiver.answers.shift() ?? 200);
      received.push({ ...arrived, answeredWith: status });
      response.writeHead(status, { 'content-type': 'text/plain', connection: 'close' }).end(status < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://127.0.0.1:${port}/hook`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
