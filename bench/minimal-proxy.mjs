// The least a proxy can do, the ceiling of the proxy's latency rows (bench/proxy.ts): node:http in,
// undici out to the target with the conformance proxy's pool size, the answer's bytes written back
// as they come; nothing judged, nothing kept. Usage: node bench/minimal-proxy.mjs TARGET PORT
//
// With HOLD_EVERY and HOLD_MS (node bench/minimal-proxy.mjs TARGET PORT 67 7) it holds one answer
// in HOLD_EVERY for HOLD_MS milliseconds before writing it: a proxy with a known tail, which the
// paced rows must measure as missing the p99 bar (their calibration).
import { createServer } from 'node:http';
import { Agent, request } from 'undici';

const [target, port, holdEvery, holdMs] = process.argv.slice(2);
const agent = new Agent({ connections: 128, pipelining: 1 });
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host']);
let answered = 0;
const server = createServer(async (req, res) => {
  try {
    const headers = {};
    for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
    const answer = await request(`${target}${req.url}`, { method: req.method, headers, dispatcher: agent });
    if (holdEvery && ++answered % Number(holdEvery) === 0) await new Promise((resolve) => setTimeout(resolve, Number(holdMs)));
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
