/**
 * Writing a {@link Reply} with Fastify: the one place where replies meet the HTTP layer.
 * @see shared/design.md, Reference server
 */
import type { FastifyReply } from 'fastify';
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
