// The run-level breaker: when it declares a target unresponsive, how the state crosses processes
// (two breakers on one directory stand for two vitest workers), and how the client obeys it.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createRunBreaker, isUnresponsive, POLL_MS, UNRESPONSIVE_CODE, unresponsiveReason, type RunBreaker } from '../../core/breaker.js';
import { createClient } from '../../engine/client.js';
import type { Operation } from '../../core/spec/load.js';
import type { TestCase } from '../../core/types.js';

describe('isUnresponsive', () => {
  test.each([
    ['no outcome yet', '', 5, undefined],
    ['four no-answers are not five', 'tttt', 5, undefined],
    ['five timeouts in a row', 'ttttt', 5, { outcomes: 'ttttt', consecutive: true }],
    ['timeouts and resets mix', 'otctc', 4, { outcomes: 'tctc', consecutive: true }],
    ['an answer breaks the row', 'ttoctt', 5, undefined],
    ['0 never declares it', 'tttttttttttttttttttt', 0, undefined],
    // 20 outcomes, 4 answered: no answer to 16 of 20.
    ['answers to a fifth of the last 20', 'ottttottttottttotttt', 5, { outcomes: 'ottttottttottttotttt', consecutive: false }],
    ['answers to a quarter of the last 20', 'ottttottttottttottto', 5, undefined],
  ])('%s', (_name, last, after, want) => {
    expect(isUnresponsive(last, after)).toEqual(want);
  });

  test('the reason names the requests and what became of them', () => {
    expect(unresponsiveReason({ outcomes: 'ttc', consecutive: true }, 10_000)).toBe(
      "the target gave no answer to 3 consecutive requests (2 timeouts of 10000 ms, 1 connection failure (reset, refused or not HTTP)): declared unresponsive, and the rest of the run's requests were not sent",
    );
    expect(unresponsiveReason({ outcomes: 'otttt', consecutive: false })).toMatch(/no answer to 4 of the last 5 requests \(4 timeouts\)/);
  });
});

describe('a breaker shared through a run directory', () => {
  let dir: string;
  const open: RunBreaker[] = [];
  const breaker = (after: number) => {
    const b = createRunBreaker({ dir, after, timeoutMs: 100 });
    open.push(b);
    return b;
  };
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'breaker-'));
  });
  afterEach(() => {
    for (const b of open.splice(0)) b.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('outcomes of two processes count as one sequence, and the trip reaches the other', async () => {
    const [a, b] = [breaker(3), breaker(3)];
    a.record('timeout');
    b.record('no_answer');
    expect(a.state().kind).toBe('closed');
    a.record('timeout');
    expect(a.state()).toEqual({ kind: 'unresponsive', reason: expect.stringMatching(/no answer to 3 consecutive requests \(2 timeouts of 100 ms, 1 connection failure/) });
    expect(a.signal.aborted).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 3));
    expect(b.state()).toEqual(a.state());
    expect(b.signal.aborted).toBe(true);
    expect(b.unresponsiveReason()).toBe((a.state() as { reason: string }).reason);
  });

  test('an answer in another process breaks the row', () => {
    const [a, b] = [breaker(3), breaker(3)];
    a.record('timeout');
    a.record('timeout');
    b.record('answered');
    a.record('timeout');
    expect(a.state().kind).toBe('closed');
    expect(b.unresponsiveReason()).toBeUndefined();
  });

  test('an interruption reaches every process and outranks a trip', async () => {
    const [a, b] = [breaker(1), breaker(1)];
    a.record('timeout');
    expect(a.state().kind).toBe('unresponsive');
    b.interrupt('SIGTERM');
    expect(b.state()).toEqual({ kind: 'interrupted', signal: 'SIGTERM' });
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 3));
    expect(a.state()).toEqual({ kind: 'interrupted', signal: 'SIGTERM' });
  });
});

describe('the client and the breaker', () => {
  let server: Server;
  let url: string;
  let received = 0;
  beforeAll(async () => {
    // /hang never answers; every other path answers 200 at once.
    server = createServer((req, res) => {
      received++;
      if (req.url?.startsWith('/hang')) return;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const target = () => ({ baseUrl: url, kind: 'remote' as const, roles: {}, fixtures: {}, requestsPerSecond: null, timeoutMs: 200, readOnly: true });
  const op = (p: string) => ({ method: 'GET', path: p, operationId: p, parameters: [] }) as unknown as Operation;
  const testCase = (id: string): TestCase => ({ id, operationId: id, pathParams: {}, query: {}, headers: {}, role: null });

  test('after N requests without an answer, across operations, the next is not sent and fails at once', async () => {
    const breaker = createRunBreaker({ after: 3, timeoutMs: 200 });
    const client = createClient(target(), { breaker });
    try {
      // Three operations, so that the per-operation breaker (two timeouts) is not what stops them.
      for (const p of ['/hang/a', '/hang/b', '/hang/c']) expect((await client.send(op(p), testCase(p))).transportError?.code).toBe('CNF_TIMEOUT');
      const before = received;
      const refused = await client.send(op('/ok'), testCase('ok'));
      expect(refused.transportError?.code).toBe(UNRESPONSIVE_CODE);
      expect(refused.transportError?.message).toMatch(/^not sent: the target gave no answer to 3 consecutive requests/);
      expect(refused.response).toBeUndefined();
      expect(received).toBe(before);
    } finally {
      await client.close();
    }
  });

  test('a request in flight when the breaker trips is cut with the reason', async () => {
    const breaker = createRunBreaker({ after: 1 });
    const client = createClient({ ...target(), timeoutMs: 5_000 }, { breaker });
    try {
      const pending = client.send(op('/hang/x'), testCase('x'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      breaker.record('no_answer');
      const exchange = await pending;
      expect(exchange.transportError?.code).toBe(UNRESPONSIVE_CODE);
      expect(exchange.transportError?.message).toMatch(/^cut: the target gave no answer/);
    } finally {
      await client.close();
    }
  });

  test('answers keep it closed', async () => {
    const breaker = createRunBreaker({ after: 2, timeoutMs: 200 });
    const client = createClient(target(), { breaker });
    try {
      for (let i = 0; i < 3; i++) {
        await client.send(op(`/hang/${i}`), testCase(`h${i}`));
        expect((await client.send(op('/ok'), testCase(`ok${i}`))).response?.status).toBe(200);
      }
      expect(breaker.state().kind).toBe('closed');
    } finally {
      await client.close();
    }
  });

  test('once the run is interrupted, sending rejects with CNF_ERR_INTERRUPTED and sends nothing', async () => {
    const breaker = createRunBreaker({ after: 5 });
    const client = createClient(target(), { breaker });
    try {
      breaker.interrupt('SIGINT');
      const before = received;
      await expect(client.send(op('/ok'), testCase('ok'))).rejects.toMatchObject({ code: 'CNF_ERR_INTERRUPTED' });
      expect(received).toBe(before);
    } finally {
      await client.close();
    }
  });
});
