/**
 * The ceiling of the throughput comparison: a plain `node:http` server that answers every request
 * with the same bytes, read once from a file, and does nothing else (no routing, no auth, no JSON).
 * Whatever it cannot exceed on this machine, for an answer of that size, no Node server can; the
 * bench shows the reference's requests per second as a share of it.
 *
 * Usage: `node bench/ceiling-server.ts PORT BODY_FILE` (Node strips the types; it imports nothing
 * of the project). Listens on 127.0.0.1 only; stops on SIGTERM.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [port, bodyFile] = process.argv.slice(2);
if (port === undefined || bodyFile === undefined) {
  process.stderr.write('usage: node bench/ceiling-server.ts PORT BODY_FILE\n');
  process.exit(2);
}
const body = readFileSync(bodyFile);
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };
const server = http.createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
