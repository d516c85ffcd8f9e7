/**
 * The ceiling of the throughput comparison: a plain `node:http` server that answers with bytes
 * read once from files and does nothing else (no routing, no auth, no JSON). Whatever it cannot
 * exceed on this machine, for answers of that size, no Node server can; the bench shows the
 * reference's requests per second as a share of it.
 *
 * Two modes:
 * - `node bench/ceiling-server.ts PORT BODY_FILE`: every request gets the same body (200, JSON);
 * - `node bench/ceiling-server.ts PORT --sequence INDEX_FILE BODY_FILE`: the answers of a sequence
 *   of requests (bench/mixed.ts `ceilingIndex`): INDEX_FILE is a JSON array of
 *   `{key: "METHOD PATH", status, headers, offset, length}` in the sequence's order, BODY_FILE their
 *   bytes end to end. A request gets the next answer recorded for its method and path (round and
 *   round when asked more often than recorded), with the headers recorded (content-type,
 *   content-encoding, vary) and its content-length; an unknown one gets 404.
 *
 * Node strips the types; it imports nothing of the project. Listens on 127.0.0.1 only; stops on SIGTERM.
 * @see docs/performance.md (The mixed rows against their ceiling)
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const args = process.argv.slice(2);
const port = args[0];
const sequence = args[1] === '--sequence';
const [indexFile, bodyFile] = sequence ? [args[2], args[3]] : [undefined, args[1]];
if (port === undefined || bodyFile === undefined || (sequence && indexFile === undefined)) {
  process.stderr.write('usage: node bench/ceiling-server.ts PORT BODY_FILE | PORT --sequence INDEX_FILE BODY_FILE\n');
  process.exit(2);
}
const bytes = readFileSync(bodyFile);
let server: http.Server;
if (!sequence) {
  const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(bytes.length) };
  server = http.createServer((_request, response) => {
    response.writeHead(200, headers);
    response.end(bytes);
  });
} else {
  const index = JSON.parse(readFileSync(indexFile!, 'utf8')) as { key: string; status: number; headers: Record<string, string>; offset: number; length: number }[];
  const answers = new Map<string, Answer[]>();
  for (const entry of index) {
    const body = bytes.subarray(entry.offset, entry.offset + entry.length);
    const list = answers.get(entry.key) ?? [];
    list.push({ status: entry.status, headers: { ...entry.headers, 'content-length': String(body.length) }, body });
    answers.set(entry.key, list);
  }
  const next = new Map<string, number>();
  server = http.createServer((request, response) => {
    const key = `${request.method} ${request.url}`;
    const list = answers.get(key);
    if (!list) {
      response.writeHead(404, { 'content-length': '0' });
      response.end();
      return;
    }
    const at = next.get(key) ?? 0;
    next.set(key, (at + 1) % list.length);
    const answer = list[at]!;
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  });
}
server.keepAliveTimeout = 60_000;
server.listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
