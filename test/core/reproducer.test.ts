// Runnable reproducers: after an embedded run, the curl points at the printed `conformance serve`
// with the token exports that make it work, and the replay line reruns the cell.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { curlSteps } from '../../core/curl.js';
import { replayCommand, reproducerScript, runnableReproducer, serveCommand, type ReproductionInfo } from '../../core/reproducer.js';
import { runConformance, type RunOutcome } from '../../cli/run.js';
import type { Failure, HttpRequest } from '../../core/types.js';
import { startReferenceServer, type RunningReference } from '../../server/index.js';

const sink = () => new Writable({ write: (_c, _e, done) => done() });
const embedded: ReproductionInfo = {
  kind: 'embedded',
  runBaseUrl: 'http://127.0.0.1:40601',
  seed: 5,
  faults: ['limit_unbounded', 'tenant_leak'],
  tokens: { CONFORMANCE_ADMIN_TOKEN: 'oat_demo_admin', CONFORMANCE_READER_TOKEN: 'oat_demo_reader' },
  pathChecks: ['model_seats'],
};
const failure = (reproduce: Failure['reproduce'], checkId = 'pagination_limit_respected'): Pick<Failure, 'checkId' | 'operationId' | 'reproduce'> => ({ checkId, operationId: 'products:list', reproduce });

describe('runnableReproducer', () => {
  test('an embedded failure points at the serve command, with the exports its curl uses', () => {
    const curl = `curl -sS -i -H "authorization: Bearer \${CONFORMANCE_ADMIN_TOKEN}" 'http://127.0.0.1:40601/v1/products/?limit=101'`;
    const got = runnableReproducer(failure({ curl, seed: 5, path: '2' }), embedded);
    expect(got).toEqual({
      curl: `curl -sS -i -H "authorization: Bearer \${CONFORMANCE_ADMIN_TOKEN}" 'http://127.0.0.1:4010/v1/products/?limit=101'`,
      seed: 5,
      path: '2',
      serve: 'npx conformance serve --seed 5 --port 4010 --fault limit_unbounded --fault tenant_leak',
      exports: ['export CONFORMANCE_ADMIN_TOKEN=oat_demo_admin'],
      replay: 'npx conformance run --fault limit_unbounded --fault tenant_leak --seed 5 --checks pagination_limit_respected --operations products:list',
    });
  });

  test('steps are repointed too; a variable no token backs (a sequence secret) gets no export', () => {
    const steps = [`curl -X POST 'http://127.0.0.1:40601/v1/a' -H "authorization: Bearer \${CONFORMANCE_READER_TOKEN}"`, `curl 'http://127.0.0.1:40601/v1/b' -H "x: \${INVITATION_TOKEN}"`];
    const got = runnableReproducer(failure({ curl: steps[1]!, seed: 5, path: '1:0', steps }, 'model_seats'), embedded);
    expect(got.steps).toEqual([`curl -X POST 'http://127.0.0.1:4010/v1/a' -H "authorization: Bearer \${CONFORMANCE_READER_TOKEN}"`, `curl 'http://127.0.0.1:4010/v1/b' -H "x: \${INVITATION_TOKEN}"`]);
    expect(got.exports).toEqual(['export CONFORMANCE_READER_TOKEN=oat_demo_reader']);
    expect(got.replay).toBe('npx conformance run --fault limit_unbounded --fault tenant_leak --seed 5 --checks model_seats --path 1:0');
  });

  test('a remote failure keeps its curl and gets a replay line with --target and --config, never --fault', () => {
    const info: ReproductionInfo = { kind: 'remote', runBaseUrl: 'https://sandbox.example.com', seed: 9, config: 'my config.json', faults: ['x'] };
    const curl = "curl 'https://sandbox.example.com/v1/products/'";
    expect(runnableReproducer(failure({ curl, seed: 9, path: '3' }), info)).toEqual({
      curl,
      seed: 9,
      path: '3',
      replay: "npx conformance run --target https://sandbox.example.com --config 'my config.json' --seed 9 --checks pagination_limit_respected --operations products:list",
    });
  });

  test('serve and replay carry the version', () => {
    expect(serveCommand({ ...embedded, faults: [], apiVersion: '2026-04' })).toBe('npx conformance serve --seed 5 --port 4010 --api-version 2026-04');
    expect(replayCommand(failure({ curl: '', seed: 5 }), { ...embedded, faults: [], apiVersion: '2026-04' })).toBe('npx conformance run --api-version 2026-04 --seed 5 --checks pagination_limit_respected --operations products:list');
  });
});

describe('an embedded run with a fault', () => {
  const SEED = 20261122;
  let outcome: RunOutcome;
  let reference: RunningReference;
  beforeAll(async () => {
    outcome = await runConformance({ seed: SEED, runs: 5, faults: ['limit_unbounded'], checks: ['pagination_limit_respected'], operations: ['products:list'], reporters: [], out: sink() });
    // What `conformance serve --seed S --fault F` starts, on a free port instead of 4010.
    reference = await startReferenceServer({ host: '127.0.0.1', port: 0, seed: SEED, faults: ['limit_unbounded'], rateLimit: false });
  }, 60_000);
  afterAll(() => reference?.close());

  const first = () => outcome.results.cells.flatMap((c) => c.failures)[0]!;

  // Asynchronously: the reference answers from this process.
  const sh = async (script: string) => (await promisify(execFile)('sh', ['-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH }, maxBuffer: 64 * 1024 * 1024 })).stdout;

  test('prints the serve command, and its exports make the curl show the failure again', async () => {
    expect(outcome.exitCode).toBe(1);
    const { reproduce } = first();
    expect(reproduce.serve).toBe(`npx conformance serve --seed ${SEED} --port 4010 --api-version 2026-10 --fault limit_unbounded`);
    expect(reproduce.exports).toEqual([expect.stringMatching(/^export CONFORMANCE_ADMIN_TOKEN=\S+$/)]);
    expect(reproduce.curl).toContain('http://127.0.0.1:4010/');
    const script = [...reproduce.exports!, reproduce.curl.replace('http://127.0.0.1:4010', reference.url).replace('curl -sS -i', 'curl -sS -o /dev/null -w "%{http_code}"')].join('\n');
    expect(await sh(script)).toBe('200');
    const body = await sh([...reproduce.exports!, reproduce.curl.replace('http://127.0.0.1:4010', reference.url).replace('curl -sS -i', 'curl -sS')].join('\n'));
    // limit_unbounded: more than the maximum of 100 items on one page.
    expect((JSON.parse(body) as { items: unknown[] }).items.length).toBeGreaterThan(100);
  });

  test('the replay line reruns the cell and fails it with the same kind', async () => {
    const { reproduce, kind } = first();
    expect(reproduce.replay).toBe(`npx conformance run --fault limit_unbounded --seed ${SEED} --checks pagination_limit_respected --operations products:list`);
    const again = await runConformance({ seed: SEED, runs: 5, faults: ['limit_unbounded'], checks: ['pagination_limit_respected'], operations: ['products:list'], reporters: [], out: sink() });
    expect(again.results.cells.flatMap((c) => c.failures).map((f) => f.kind)).toContain(kind);
  }, 60_000);
});

describe('reproducerScript', () => {
  test('numbers the steps after the serve hint and the exports, and ends with the replay line', () => {
    const script = reproducerScript({
      checkId: 'seat_claim_single_use',
      operationId: 'customer_seats:claim',
      title: 'Seat claimed twice',
      reproduce: { curl: 'curl b', seed: 1, steps: ['curl a', 'curl b'], serve: 'npx conformance serve --seed 1 --port 4010', exports: ['export A=1'], replay: 'npx conformance run --seed 1 --checks seat_claim_single_use' },
    });
    expect(script).toBe(
      [
        '#!/bin/sh',
        '# seat_claim_single_use on customer_seats:claim: Seat claimed twice',
        'set -e',
        '# first, in another terminal: npx conformance serve --seed 1 --port 4010',
        'export A=1',
        '# 1/2',
        'curl a',
        '# 2/2',
        'curl b',
        '# the whole cell again: npx conformance run --seed 1 --checks seat_claim_single_use',
        '',
      ].join('\n'),
    );
  });

  test('a single request is the one curl, unnumbered', () => {
    expect(reproducerScript({ checkId: 'c', operationId: 'o', title: 't', reproduce: { curl: 'curl x', seed: 1 } })).toBe('#!/bin/sh\n# c on o: t\nset -e\ncurl x\n');
  });
});

describe('curlSteps', () => {
  test('one curl per request, in order, secrets hidden', () => {
    const requests: HttpRequest[] = [
      { method: 'POST', url: 'http://h/v1/a', headers: { authorization: 'Bearer s3cret' }, body: '{}' },
      { method: 'GET', url: 'http://h/v1/b', headers: {} },
    ];
    expect(curlSteps(requests, [{ value: 's3cret', env: 'TOKEN' }])).toEqual([
      `curl -sS -i -X POST -H "authorization: Bearer \${TOKEN}" --data-raw '{}' 'http://h/v1/a'`,
      "curl -sS -i 'http://h/v1/b'",
    ]);
  });
});
