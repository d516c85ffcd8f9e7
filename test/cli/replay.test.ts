// `conformance replay`: a report's failures still fail against the faulty server and are fixed
// against the clean one, with credentials from the environment and fixtures from the same seed.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { replayReport } from '../../cli/replay.js';
import { runConformance } from '../../cli/run.js';
import { HarnessError } from '../../core/errors.js';
import { startReferenceServer, type RunningReference } from '../../server/index.js';
import { startChaosTarget } from './chaos-target.js';

const SEED = 7;
const sink = () => new Writable({ write: (_c, _e, done) => done() });
const running: RunningReference[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

/** The report.json of a run with `fault` on, made once per fault and checks: the tests only read it. */
const reports = new Map<string, Promise<string>>();
function reportWithFault(fault: string, checks?: string[]): Promise<string> {
  const key = `${fault} ${checks?.join(',') ?? ''}`;
  let report = reports.get(key);
  if (!report) reports.set(key, (report = runWithFault(fault, checks)));
  return report;
}

async function runWithFault(fault: string, checks?: string[]): Promise<string> {
  const outputDir = mkdtempSync(path.join(tmpdir(), 'cnf-replay-'));
  const outcome = await runConformance({ seed: SEED, runs: 10, faults: [fault], ...(checks ? { checks } : { suites: ['exchange', 'pagination'] }), reporters: ['json'], outputDir, out: sink() });
  expect(outcome.exitCode).toBe(1);
  return path.join(outputDir, 'report.json');
}

async function serve(faults: string[], seed = SEED): Promise<{ url: string; env: NodeJS.ProcessEnv; fixtures: Record<string, string> }> {
  const reference = await startReferenceServer({ seed, port: 0, faults, rateLimit: false });
  running.push(reference);
  const env = Object.fromEntries(Object.entries(reference.credentials).map(([role, token]) => [`CONFORMANCE_${role.toUpperCase()}_TOKEN`, token]));
  return { url: reference.url, env, fixtures: reference.fixtures };
}

/** replayReport with pacing off (rate 0): the references served here have no rate limit, and pacing is not this file's subject. */
const replay = (options: Parameters<typeof replayReport>[0]) => replayReport({ rate: 0, ...options });

const capture = () => {
  const chunks: string[] = [];
  return { stream: new Writable({ write: (chunk, _e, done) => (chunks.push(String(chunk)), done()) }), text: () => chunks.join('') };
};

describe('replayReport', () => {
  test('failures still fail on the faulty server and are fixed on the clean one', async () => {
    const report = await reportWithFault('limit_unbounded');
    const faulty = await serve(['limit_unbounded']);
    const again = await replay({ report, target: faulty.url, env: faulty.env, out: sink() });
    expect(again.exitCode).toBe(1);
    expect(again.replayed.some((r) => r.checkId === 'pagination_limit_respected' && r.verdict === 'still_failing' && r.stillFailing)).toBe(true);

    const clean = await serve([]);
    const fixed = await replay({ report, target: clean.url, env: clean.env, out: sink() });
    expect(fixed.replayed.length).toBe(again.replayed.length);
    expect(fixed.replayed.filter((r) => r.stillFailing)).toEqual([]);
    expect(fixed.replayed.every((r) => r.verdict === 'fixed')).toBe(true);
    expect(fixed.exitCode).toBe(0);

    // A target that now answers 500: not fixed, failing differently.
    const erring = createServer((_req, res) => res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"InternalServerError","detail":"boom"}'));
    await new Promise<void>((resolve) => erring.listen(0, '127.0.0.1', resolve));
    const differently = await replay({ report, target: `http://127.0.0.1:${(erring.address() as AddressInfo).port}`, env: faulty.env, out: sink() }).finally(() => erring.close());
    const limit = differently.replayed.filter((r) => r.checkId === 'pagination_limit_respected');
    expect(limit.length).toBeGreaterThan(0);
    for (const r of limit) expect(r).toMatchObject({ verdict: 'failing_differently', stillFailing: true, findings: [expect.objectContaining({ kind: 'server_error' })] });
    expect(differently.exitCode).toBe(1);

    // No tokens: the replay cannot ask the question, so it says so, names the variable, never "fixed", and exits 2.
    const out = capture();
    const blind = await replay({ report, target: faulty.url, env: {}, out: out.stream });
    expect(blind.replayed.length).toBe(again.replayed.length);
    expect(blind.replayed.filter((r) => r.checkId === 'pagination_limit_respected').length).toBeGreaterThan(0);
    for (const r of blind.replayed) expect(r).toMatchObject({ verdict: 'not_replayable', reason: expect.stringMatching(/^missing role admin: export CONFORMANCE_ADMIN_TOKEN=…/) });
    expect(out.text()).toContain('? not replayable    pagination_limit_respected on ');
    expect(out.text()).not.toContain('fixed  ');
    expect(blind.exitCode).toBe(2);
  }, 120_000);

  test('tenant isolation against another seed: the ids are gone, so not replayable; with that seed\'s fixtures in --config it still fails', async () => {
    const report = await reportWithFault('tenant_leak', ['tenant_isolation']);
    const other = await serve(['tenant_leak'], SEED + 1);
    const all = await replay({ report, target: other.url, env: other.env, out: sink() });
    // A write's case wrote on a fixture the run made for it: never re-sent, whatever the target.
    const writes = all.replayed.filter((r) => ['orders:update', 'orders:generate_invoice', 'products:update_benefits', 'customers:delete_external'].includes(r.operationId));
    expect(writes.length).toBeGreaterThan(0);
    for (const r of writes) expect(r).toMatchObject({ verdict: 'not_replayable', reason: expect.stringContaining('a fixture the run made for it') });
    const gone = { ...all, replayed: all.replayed.filter((r) => !writes.includes(r)) };
    expect(gone.replayed.length).toBeGreaterThan(0);
    for (const r of gone.replayed) expect(r).toMatchObject({ verdict: 'not_replayable', reason: expect.stringContaining('the resource is gone') });
    expect(all.exitCode).toBe(2);

    const dir = mkdtempSync(path.join(tmpdir(), 'cnf-replay-config-'));
    const config = path.join(dir, 'conformance.config.json');
    const { oauth_client_secret: _secret, ...fixtures } = other.fixtures;
    writeFileSync(config, JSON.stringify({ fixtures }));
    const again = await replay({ report, target: other.url, env: other.env, config, out: sink() });
    expect(again.replayed.filter((r) => !writes.some((w) => w.caseId === r.caseId)).map((r) => r.verdict)).toEqual(gone.replayed.map(() => 'still_failing'));
    expect(again.exitCode).toBe(1);

    // The same seed without the fault: the second organization gets a 404 and the owner a 200, so it is fixed.
    const clean = await serve([]);
    const fixed = await replay({ report, target: clean.url, env: clean.env, out: sink() });
    expect(fixed.replayed.filter((r) => !writes.some((w) => w.caseId === r.caseId)).map((r) => r.verdict)).toEqual(gone.replayed.map(() => 'fixed'));
    // The writes' failures cannot be judged by a replay, so the replay does not call the run fixed.
    expect(fixed.exitCode).toBe(2);
  }, 120_000);

  test('walk failures are walked again', async () => {
    const report = await reportWithFault('pages_overlap');
    const clean = await serve([]);
    const fixed = await replay({ report, target: clean.url, env: clean.env, out: sink() });
    expect(fixed.replayed.some((r) => r.checkId === 'pages_disjoint_and_complete')).toBe(true);
    expect(fixed.exitCode).toBe(0);
  }, 120_000);

  test('a report whose embedded target is gone asks for --target', async () => {
    const report = await reportWithFault('limit_unbounded');
    await expect(replayReport({ report, out: sink() })).rejects.toThrow(/pass --target URL/);
    await expect(replayReport({ report: '/nonexistent/report.json', out: sink() })).rejects.toBeInstanceOf(HarnessError);
  }, 120_000);

  test('a stateful scenario failure is named, not replayed', async () => {
    const outputDir = mkdtempSync(path.join(tmpdir(), 'cnf-replay-'));
    const run = await runConformance({ seed: SEED, runs: 5, faults: ['event_skipped'], checks: ['order_paid_transition'], reporters: ['json'], outputDir, out: sink() });
    expect(run.exitCode).toBe(1);
    const clean = await serve([]);
    const lines: string[] = [];
    const out = new Writable({ write: (chunk, _e, done) => { lines.push(String(chunk)); done(); } });
    const outcome = await replay({ report: path.join(outputDir, 'report.json'), target: clean.url, env: clean.env, out });
    expect(outcome.replayed).toEqual([]);
    expect(lines.join('')).toContain(`not replayed     order_paid_transition on webhooks:order_paid: a stateful scenario; run \`npx conformance run --target ${clean.url} --seed ${SEED} --checks order_paid_transition --operations webhooks:order_paid\` --adapter FILE (or reference for a served reference)`);
    expect(outcome.exitCode).toBe(0);
  }, 120_000);
});

describe('replayReport against a target that stops answering', () => {
  test('declares it unresponsive after --unresponsive-after requests without an answer and sends none of the failures left', async () => {
    const report = await reportWithFault('limit_unbounded');
    const faulty = await serve([]);
    const chaos = await startChaosTarget({ behaviour: 'hang' });
    const out = capture();
    const outcome = await replayReport({ report, target: chaos.url, env: faulty.env, timeoutMs: 300, unresponsiveAfter: 2, out: out.stream }).finally(() => chaos.close());
    const sent = outcome.replayed.filter((r) => r.verdict !== 'not_replayable' || !/missing role|fixture the run made/.test(r.reason ?? ''));
    expect(sent.length).toBeGreaterThan(2);
    // The reachability probe, then exactly two requests that got no answer; every later one failed without being sent.
    expect(chaos.requests() - chaos.requests('/')).toBe(2);
    expect(outcome.replayed.some((r) => r.verdict === 'fixed')).toBe(false);
    expect(outcome.exitCode).not.toBe(0);
    expect(out.text()).toContain('the target was declared unresponsive');
  });
});
