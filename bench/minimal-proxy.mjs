// The least a proxy can do, the ceiling of the proxy's latency rows (bench/proxy.ts): node:http in,
// undici out to the target with the conformance proxy's pool size, the answer's bytes written back
// as they come; nothing judged, nothing kept. Usage: node bench/minimal-proxy.mjs TARGET PORT
import { createServer } from 'node:http';
import { Agent, request } from 'undici';

const [target, port] = process.argv.slice(2);
const agent = new Agent({ connections: 128, pipelining: 1 });
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host']);
const server = createServer(async (req, res) => {
  try {
    const headers = {};
    for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
    const answer = await request(`${target}${req.url}`, { method: req.method, headers, dispatcher: agent });
    const back = {};
    for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name)) back[name] = value;
    res.writeHead(answer.statusCode, back);
    for await (const chunk of answer.body) res.write(chunk);
    res.end();
  } catch (error) {
    if (!res.headersSent) res.writeHead(502).end(String(error));
    else res.destroy();
  }
});
server.keepAliveTimeout = 10_000;
server.listen(Number(port), '127.0.0.1');
