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
 * Marks an answer that refuses a request whose body is not (fully) read: `Connection: close`, and
 * once the answer is written, the connection reads and discards what the client still sends, up
 * to {@link LINGER_BYTES}, then stops reading, and is destroyed {@link LINGER_MS} after the answer
 * unless the client closed it first. Closing only the sending side first lets fetch and undici
 * read the answer instead of failing with EPIPE or ECONNRESET. Past the byte limit the connection
 * stops reading rather than being destroyed at once: what a client sent before it read the answer
 * can be several MiB already in the socket buffers, read in a millisecond, and a connection
 * destroyed with unread bytes is reset, which takes from a client still busy sending the answer
 * it had not read yet (Go's HTTP server waits 500 ms after its half-close for the same reason).
 * @param response the answer's raw response; nothing is done when it is undefined or already closed
 */
export function closeAfterRefusal(request: IncomingMessage, response: ServerResponse | undefined): void {
  if (!response || response.writableEnded) return;
  if (!response.headersSent) response.setHeader('connection', 'close');
  const socket = request.socket as IncomingMessage['socket'] | undefined;
  // light-my-request's injected requests have no real socket.
  if (!socket || typeof socket.destroy !== 'function') return;
  response.once('finish', () => {
    if (request.complete || socket.destroyed) return;
    const start = socket.bytesRead;
    const check = setInterval(() => {
      if (socket.bytesRead - start <= LINGER_BYTES) return;
      socket.pause();
      clearInterval(check);
    }, 20);
    const cut = setTimeout(() => socket.destroy(), LINGER_MS);
    check.unref();
    cut.unref();
    socket.once('close', () => {
      clearInterval(check);
      clearTimeout(cut);
    });
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
