// The paced load generator of the proxy's rows (bench/paced-load.mjs, through bench/load.ts
// `alternatingPacedLoad`) answers for the bench's own kinds of routes, taking turns in one short
// block: the reference process (`conformance serve`), `conformance proxy` in front of it, and the
// minimal proxy (bench/minimal-proxy.mjs), each spawned as the bench spawns them.
// @see bench/proxy.ts
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alternatingPacedLoad } from '../../bench/load.js';
import { freePort, startServer, stopServer, type ServerProcess } from '../../bench/processes.js';
import { buildApp } from '../../server/app.js';

const PATH = '/v1/products/?limit=10';
const servers: ServerProcess[] = [];
let headers: Record<string, string>;

beforeAll(async () => {
  // The demo admin token of seed 1, which the reference process serves too (as bench/proxy.ts takes it).
  const seeded = await buildApp({ rateLimit: false, control: false });
  headers = { authorization: `Bearer ${seeded.credentials.admin}`, 'accept-encoding': 'gzip, deflate, br' };
  await seeded.app.close();
  const start = async (name: string, args: (port: number) => string[]) => {
    const port = await freePort();
    const server = await startServer(name, process.execPath, args(port), port, PATH, headers, 30_000);
    servers.push(server);
    return server;
  };
  const reference = await start('reference', (port) => ['bin/conformance.js', 'serve', '--port', String(port), '--rate-limit', 'off']);
  await start('proxy', (port) => ['bin/conformance.js', 'proxy', '--target', reference.url, '--port', String(port), '--reporter', '']);
  await start('minimal proxy', (port) => ['bench/minimal-proxy.mjs', reference.url, String(port)]);
});

afterAll(async () => {
  for (const server of servers) await stopServer(server);
});

describe('alternatingPacedLoad', () => {
  it('answers with every request of one block timed, per route: direct, through the proxy, through the minimal proxy', async () => {
    const rate = 200;
    const blockS = 0.5;
    const blocks = await alternatingPacedLoad(servers.map((s) => s.url), PATH, headers, { connections: 5, rate, sliceMs: 100, warmUpS: 0.2, blocks: 1, blockS });
    expect(blocks).toHaveLength(1);
    const [block] = blocks;
    expect(block!.failures).toEqual([0, 0, 0]);
    expect(block!.latencies.map((l) => l.length)).toEqual([rate * blockS, rate * blockS, rate * blockS]);
    for (const latencies of block!.latencies) for (const ms of latencies) expect(ms).toBeGreaterThan(0);
    expect(block!.rps).toBeGreaterThan(0);
  });

  it('counts every request of a route that cannot be reached as failed, and times the other route', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const [block] = await alternatingPacedLoad([servers[0]!.url, closed], PATH, headers, { connections: 2, rate: 100, sliceMs: 100, warmUpS: 0, blocks: 1, blockS: 0.2 });
    expect(block!.failures).toEqual([0, 20]);
    expect(block!.latencies.map((l) => l.length)).toEqual([20, 0]);
  });
});
