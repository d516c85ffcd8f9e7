/**
 * Writing a {@link Reply} with Fastify: the one place where replies meet the HTTP layer.
 * @see docs/design.md (Reference server)
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FaultSet } from './faults.js';
import type { Reply } from './replies.js';

/**
 * Writes a reply: a JSON body (as text/plain when `asPlainText`, the `wrong_content_type` fault),
 * a Buffer body as is (its content type in `answer.headers`), or no body.
 */
export function send(reply: FastifyReply, answer: Reply, asPlainText = false): FastifyReply {
  reply.status(answer.status);
  if (answer.headers) reply.headers(answer.headers);
  if (answer.body === undefined) return reply.send();
  if (Buffer.isBuffer(answer.body)) return reply.send(answer.body);
  if (asPlainText) return reply.type('text/plain; charset=utf-8').send(JSON.stringify(answer.body));
  return reply.type('application/json; charset=utf-8').send(answer.body);
}

/**
 * Installs the faults that break standard response headers, on every reply of `app`:
 * `date_header_malformed` writes Date as an ISO 8601 timestamp rather than the IMF-fixdate that
 * RFC 9110 section 6.6.1 requires (Node then adds no Date of its own). Adds no hook when none is on.
 */
export function registerHeaderFaults(app: FastifyInstance, faults: FaultSet): void {
  if (!faults.has('date_header_malformed')) return;
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('date', new Date().toISOString());
    return payload;
  });
}
