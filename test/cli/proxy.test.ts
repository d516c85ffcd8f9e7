// `conformance proxy`: traffic forwarded untouched and judged; `--strict` answers 502 naming the
// findings of a must-level failure; a target that does not answer gets the client a 502 and the
// report names it (exit 2); SIGTERM writes the reports of what passed through; the command's
// V8 helper threads run at the judging threads' nice value; a browser's own requests through it
// are not API traffic, listed and never failed.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { runProxy } from '../../cli/proxy.js';
import { API_VERSIONS, loadSpec, specPath } from '../../core/spec/load.js';
import { JudgePool } from '../../engine/observed/judge-pool.js';
import { startProxy } from '../../engine/observed/proxy.js';
import { referencePair } from '../support/reference-pair.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'conformance-proxy-cli-'));
const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const references = referencePair(['timestamps_not_utc']);

describe('conformance proxy', () => {
  test('forwards status, headers and body untouched, and judges the exchange', async () => {
    const command = await runProxy({ target: references.clean.url, reporters: [], env: {} });
    const path = `/v1/products/${references.clean.fixtures.product_id}`;
    const headers = { authorization: `Bearer ${references.clean.tokens.admin}`, 'polar-version': '2026-10' };
    const direct = await fetch(`${references.clean.url}${path}`, { headers });
    const proxied = await fetch(`${command.proxy.url}${path}`, { headers });
    expect(proxied.status).toBe(direct.status);
    expect(proxied.headers.get('content-type')).toBe(direct.headers.get('content-type'));
    expect(await proxied.text()).toBe(await direct.text());
    const { exitCode, results } = await command.stop();
    expect(exitCode).toBe(0);
    expect(results.cells.filter((c) => c.operationId === 'products:get' && c.status === 'passed').map((c) => c.checkId)).toContain('response_schema_conformance');
  });

  test('--strict: an answer that fails a must-level check becomes 502 naming the findings; a conformant one passes', async () => {
    const command = await runProxy({ target: references.faulty.url, strict: true, reporters: [], env: {} });
    const headers = { authorization: `Bearer ${references.faulty.tokens.admin}`, 'polar-version': '2026-10' };
    const failing = await fetch(`${command.proxy.url}/v1/products/?limit=2`, { headers });
    expect(failing.status).toBe(502);
    const body = (await failing.json()) as { error: string; findings: { checkId: string; kind: string }[] };
    expect(body.error).toBe('ConformanceFailure');
    expect(body.findings.map((f) => f.checkId)).toContain('timestamps_utc');
    const unauthorized = await fetch(`${command.proxy.url}/v1/products/?limit=2`, { headers: { 'polar-version': '2026-10' } });
    expect(unauthorized.status).toBe(401);
    const { exitCode } = await command.stop();
    expect(exitCode).toBe(1);
  });

  test('a target that does not answer: the client gets 502, the report names the target, exit 2', async () => {
    const port = await closedPort();
    const command = await runProxy({ target: `http://127.0.0.1:${port}`, reporters: [], env: {} });
    const answer = await fetch(`${command.proxy.url}/v1/products/`);
    expect(answer.status).toBe(502);
    expect(((await answer.json()) as { detail: string }).detail).toMatch(new RegExp(`the target http://127\\.0\\.0\\.1:${port} did not answer: ECONNREFUSED`));
    const { exitCode, results } = await command.stop();
    expect(exitCode).toBe(2);
    expect(results.errors).toEqual([expect.objectContaining({ code: 'CNF_ERR_TARGET_UNREACHABLE', message: expect.stringContaining(`http://127.0.0.1:${port} did not answer (ECONNREFUSED`) })]);
  });

  test('a browser\'s own requests through it (its page, its icon) are not API traffic, on any judging thread; its calls are judged, an unknown one undocumented', async () => {
    const command = await runProxy({ target: references.clean.url, judgeThreads: 2, reporters: [], env: {} });
    const call = { authorization: `Bearer ${references.clean.tokens.admin}`, accept: 'application/json', 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'same-origin' };
    const sent = [
      await fetch(`${command.proxy.url}/`, { headers: { 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate', accept: 'text/html,application/xhtml+xml' } }),
      await fetch(`${command.proxy.url}/v1/products/?limit=2`, { headers: call }),
      await fetch(`${command.proxy.url}/favicon.ico`, { headers: { 'sec-fetch-dest': 'image', 'sec-fetch-mode': 'no-cors' } }),
      await fetch(`${command.proxy.url}/v1/unknown`, { headers: call }),
    ];
    for (const answer of sent) await answer.arrayBuffer();
    expect(sent.map((answer) => answer.status)).toEqual([404, 200, 404, 404]);
    const { exitCode, results } = await command.stop();
    expect(exitCode).toBe(1);
    expect(results.cells.filter((c) => c.status === 'failed').map((c) => [c.operationId, c.failures[0]?.kind])).toEqual([['GET /v1/unknown', 'undocumented_operation']]);
    expect(results.cells.find((c) => c.operationId === 'products:list' && c.checkId === 'response_schema_conformance')?.status).toBe('passed');
    expect(results.notApiTraffic).toEqual({
      count: 2,
      byReason: { browser_resource: 2 },
      listed: [
        { exchange: 1, method: 'GET', url: `${references.clean.url}/`, reason: 'browser_resource', why: "a browser's document request (Sec-Fetch-Dest: document)" },
        { exchange: 3, method: 'GET', url: `${references.clean.url}/favicon.ico`, reason: 'browser_resource', why: "a browser's image request (Sec-Fetch-Dest: image)" },
      ],
    });
  });

  test('--judge-threads: the pool it starts; more than one with --record, or none, is CNF_ERR_CONFIG_INVALID', async () => {
    const command = await runProxy({ target: references.clean.url, judgeThreads: 3, reporters: [], env: {} });
    try {
      expect(command.judgeThreads).toBe(3);
      const answer = await fetch(`${command.proxy.url}/v1/products/?limit=2`, { headers: { authorization: `Bearer ${references.clean.tokens.admin}` } });
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
    } finally {
      const { results } = await command.stop();
      expect(results.cells.find((c) => c.operationId === 'products:list' && c.checkId === 'response_schema_conformance')?.status).toBe('passed');
    }
    await expect(runProxy({ target: references.clean.url, judgeThreads: 2, record: path.join(tmpdir(), 'never.har'), reporters: [], env: {}, out: sink() })).rejects.toMatchObject({ code: 'CNF_ERR_CONFIG_INVALID' });
    await expect(runProxy({ target: references.clean.url, judgeThreads: 0, reporters: [], env: {}, out: sink() })).rejects.toMatchObject({ code: 'CNF_ERR_CONFIG_INVALID' });
  });

  test('past its backlog the proxy holds new requests until judging catches up, and every exchange is judged', async () => {
    const specs = await Promise.all(API_VERSIONS.map((v) => loadSpec(specPath(v))));
    const pool = await JudgePool.start({ specs, threads: 2 });
    const proxy = await startProxy({ target: references.clean.url, judge: pool, maxBacklog: 1 });
    try {
      const headers = { authorization: `Bearer ${references.clean.tokens.admin}`, 'polar-version': '2026-10' };
      const statuses = await Promise.all(Array.from({ length: 30 }, async (_, i) => {
        const answer = await fetch(`${proxy.url}/v1/products/?limit=${(i % 5) + 1}`, { headers });
        await answer.arrayBuffer();
        return answer.status;
      }));
      expect(statuses).toEqual(Array.from({ length: 30 }, () => 200));
    } finally {
      await proxy.close();
    }
    const results = await pool.results();
    await pool.close();
    expect(results.cells.find((c) => c.operationId === 'products:list' && c.checkId === 'response_schema_conformance')).toMatchObject({ status: 'passed', cases: 30 });
  });

  test('bad --target: CNF_ERR_CONFIG_INVALID', async () => {
    await expect(runProxy({ target: 'ftp://example.com', reporters: [], env: {}, out: sink() })).rejects.toMatchObject({ code: 'CNF_ERR_CONFIG_INVALID' });
  });

  test('the command: SIGTERM writes the reports of what passed through and exits 1 after a finding', async () => {
    const outputDir = path.join(dir, 'sigterm');
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CONFORMANCE_')));
    const child = spawn(process.execPath, ['bin/conformance.js', 'proxy', '--target', references.faulty.url, '--port', '0', '--reporter', 'json,junit', '--output-dir', outputDir], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const found = /conformance proxy: (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (found) resolve(found[1]!);
      });
      child.once('exit', () => reject(new Error(`the proxy exited: ${stderr}`)));
    });
    if (process.platform === 'linux') {
      // V8's helper threads yield to forwarding as the judging threads do; the forwarding thread keeps its priority.
      const threads = readdirSync(`/proc/${child.pid}/task`).map((tid) => {
        const stat = readFileSync(`/proc/${child.pid}/task/${tid}/stat`, 'utf8');
        return { tid: Number(tid), comm: readFileSync(`/proc/${child.pid}/task/${tid}/comm`, 'utf8').trim(), nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19 - 3]) };
      });
      const helpers = threads.filter((t) => t.comm === 'V8Worker');
      expect(helpers.length).toBeGreaterThan(0);
      expect(helpers.map((t) => t.nice)).toEqual(helpers.map(() => 19));
      expect(threads.find((t) => t.tid === child.pid)?.nice).toBe(0);
    }
    const answer = await fetch(`${url}/v1/refunds/?limit=3`, { headers: { authorization: `Bearer ${references.faulty.tokens.admin}`, 'polar-version': '2026-10' } });
    expect(answer.status).toBe(200);
    await answer.text();
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', (exitCode) => resolve(exitCode));
      child.kill('SIGTERM');
    });
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(existsSync(path.join(outputDir, 'junit.xml'))).toBe(true);
    const report = JSON.parse(readFileSync(path.join(outputDir, 'report.json'), 'utf8')) as { cells: { operationId: string; checkId: string; status: string }[] };
    expect(report.cells.find((c) => c.operationId === 'refunds:list' && c.checkId === 'timestamps_utc')?.status).toBe('failed');
    expect(report.cells.find((c) => c.operationId === 'orders:get' && c.checkId === 'timestamps_utc')?.status).toBe('skipped');
  }, 60_000);
});
