/**
 * What a client can make the reference server hold on a connection: a request body it will refuse
 * (answered before the body is read, then the connection closed), a body beyond its cap (read
 * only up to the cap), and a connection that stopped reading (cut after an inactivity timeout,
 * set in app.ts).
 * @see RFC 9110 section 15.5.14 (413 Content Too Large: the server may close the connection);
 *   RFC 9112 section 9.6 (tear-down: a server closes its sending side first and keeps reading for
 *   a while, so that the client sees the answer rather than a reset)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

/** Longest a refused request's connection is kept open after the answer (reading and discarding what the client sends, up to {@link LINGER_BYTES}), in milliseconds. */
export const LINGER_MS = 2000;
/** Most bytes a refused request's connection reads (and discards) after the answer; past them it stops reading until it is closed. */
export const LINGER_BYTES = 1024 * 1024;
/** Default inactivity timeout of a connection, in milliseconds: longer than the longest wait the server itself makes (a webhook settle of 60 s). */
export const DEFAULT_IDLE_TIMEOUT_MS = 90_000;

/**
 * Marks an answer that refuses a request whose body is not (fully) read: `Connection: close`, and a
 * lingering close once the answer is written. Node's server ends a `Connection: close` answer with
 * `socket.destroySoon()`, which destroys the connection as soon as the answer is flushed; with the
 * refused body still arriving, that resets it, and a reset takes the unread answer from a client
 * still busy sending (the client's write fails with EPIPE, its read with ECONNRESET). This
 * connection instead closes its sending side only (the answer, then a FIN), reads and discards what
 * the client still sends up to {@link LINGER_BYTES}, then stops reading, and is destroyed
 * {@link LINGER_MS} after the answer unless the client closed it first. Past the byte limit it
 * stops reading rather than being destroyed at once: what a client sent before it read the answer
 * can be several MiB already in the socket buffers (Go's HTTP server waits 500 ms after its
 * half-close for the same reason).
 * @param response the answer's raw response; nothing is done when it is undefined or already closed
 */
export function closeAfterRefusal(request: IncomingMessage, response: ServerResponse | undefined): void {
  if (!response || response.writableEnded) return;
  if (!response.headersSent) response.setHeader('connection', 'close');
  const socket = request.socket as IncomingMessage['socket'] | undefined;
  // light-my-request's injected requests have no real socket.
  if (!socket || typeof socket.destroy !== 'function') return;
  // Node's server calls destroySoon() once a `Connection: close` answer is written (node:_http_server, resOnFinish).
  socket.destroySoon = () => linger(socket);
}

/** Half-closes `socket` and keeps it reading (and dropping) up to LINGER_BYTES, then paused, until the client closes it or LINGER_MS pass. */
function linger(socket: NonNullable<IncomingMessage['socket']>): void {
  if (socket.destroyed) return;
  socket.end();
  const start = socket.bytesRead;
  const read = (): void => {
    if (socket.bytesRead - start <= LINGER_BYTES) return;
    socket.pause();
    socket.off('data', read);
  };
  socket.on('data', read);
  const cut = setTimeout(() => socket.destroy(), LINGER_MS);
  cut.unref();
  socket.once('close', () => {
    socket.off('data', read);
    clearTimeout(cut);
  });
}

/** A body longer than its cap: status 413 for the error handler, which answers in the API's format. */
export class BodyTooLarge extends Error {
  readonly statusCode = 413;
  readonly code = 'BODY_TOO_LARGE';
  /** The cap, in bytes. */
  readonly limit: number;
  constructor(limit: number) {
    super(`The request body is larger than ${limit} bytes.`);
    this.limit = limit;
  }
}

/**
 * Reads a request body into one Buffer, stopping (and no longer buffering) as soon as it passes
 * `cap` bytes.
 * @param cap most bytes accepted
 * @param done called once: with the body, or with {@link BodyTooLarge} (the rest is not read), or with the stream's error
 */
export function readCapped(payload: Readable, cap: number, done: (error: Error | null, body?: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let length = 0;
  let finished = false;
  const finish = (error: Error | null, body?: Buffer) => {
    if (finished) return;
    finished = true;
    payload.off('data', onData);
    payload.off('end', onEnd);
    payload.off('error', onError);
    done(error, body);
  };
  const onData = (chunk: Buffer) => {
    length += chunk.length;
    if (length > cap) {
      chunks.length = 0;
      payload.pause();
      finish(new BodyTooLarge(cap));
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = () => finish(null, Buffer.concat(chunks, length));
  const onError = (error: Error) => finish(error);
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
}
