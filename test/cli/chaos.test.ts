// Against a target that hangs, resets, answers garbage, drips its body or fails with 5xx, a run
// finishes, reports each as a failure of the target, and has no harness error. How long such a run
// takes at the default options is measured by bench/unresponsive-target.ts, not here.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { UNRESPONSIVE_CODE } from '../../core/breaker.js';
import { runConformance, type RunOutcome } from '../../cli/run.js';
import { BEHAVIOURS, startChaosTarget, type Behaviour, type ChaosTarget } from './chaos-target.js';

const OPERATIONS = ['products:list', 'subscriptions:list', 'files:list', 'refunds:list', 'webhooks:list_endpoints'];
const ENV = { CONFORMANCE_ADMIN_TOKEN: 'chaos-admin', CONFORMANCE_NO_SCOPE_TOKEN: 'chaos-no-scope' };
const sink = () => new Writable({ write: (_c, _e, done) => done() });
/** A line of a JavaScript stack trace (`    at fn (file.ts:1:2)`). */
const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;

describe('a chaos target, each path failing its own way (the run-level breaker off)', () => {
  let chaos: ChaosTarget;
  let outcome: RunOutcome;

  beforeAll(async () => {
    chaos = await startChaosTarget();
    outcome = await runConformance({
      target: chaos.url,
      operations: OPERATIONS,
      seed: 5,
      runs: 10,
      timeoutMs: 400,
      // Pacing off (rate 0): the chaos target has no rate limit, and the waits here are its own.
      rate: 0,
      // Three of the five operations give no answer: with the breaker on, the whole target would be
      // declared unresponsive, and this test is about how each kind of no answer is reported.
      unresponsiveAfter: 0,
      reporters: [],
      out: sink(),
      env: ENV,
    });
  }, 120_000);
  afterAll(() => chaos?.close());

  const failed = (operationId: string, checkId: string) =>
    outcome.results.cells.find((c) => c.operationId === operationId && c.checkId === checkId && c.status === 'failed');

  test('the run finishes, fails the target, and the harness itself has no error', () => {
    expect(outcome.results.errors).toEqual([]);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.unresponsive).toBeUndefined();
  });

  test.each([
    ['products:list', 'hangs', ['CNF_TIMEOUT', 'CNF_CIRCUIT_OPEN']],
    ['subscriptions:list', 'resets', ['UND_ERR_SOCKET', 'ECONNRESET']],
    ['refunds:list', 'drips its body', ['CNF_TIMEOUT', 'CNF_CIRCUIT_OPEN', 'UND_ERR_BODY_TIMEOUT']],
  ] as const)('%s (%s) is reported as no response', (operationId, _how, codes) => {
    const cell = failed(operationId, 'not_a_server_error');
    expect(cell?.failures[0]?.kind).toBe('no_response');
    expect(codes).toContain((cell?.failures[0]?.actual as { code: string }).code);
  });

  test('a 503 is a server error', () => {
    expect(failed('webhooks:list_endpoints', 'not_a_server_error')?.failures[0]?.kind).toBe('server_error');
  });

  test('garbage is a body that is not JSON', () => {
    expect(failed('files:list', 'not_a_server_error')).toBeUndefined();
    expect(failed('files:list', 'response_schema_conformance')?.failures[0]?.kind).toBe('malformed_json');
  });
});

const UNRESPONSIVE_AFTER = 5;

// Each behaviour for every request after the probe: the run-level breaker declares the target
// unresponsive, the rest of the run sends nothing, and the reports are written.
describe.each(Object.keys(BEHAVIOURS) as Behaviour[])('a target that answers the probe, then: %s', (behaviour) => {
  let chaos: ChaosTarget;
  let outcome: RunOutcome;
  let outputDir: string;
  let console = '';
  let sentAfterRun: number;

  beforeAll(async () => {
    chaos = await startChaosTarget({ behaviour, slowMs: 1_500 });
    outputDir = mkdtempSync(path.join(os.tmpdir(), 'chaos-report-'));
    outcome = await runConformance({
      target: chaos.url,
      operations: OPERATIONS,
      seed: 7,
      runs: 5,
      timeoutMs: 300,
      // Unpaced (rate 0), as the first run: the cells' requests go out side by side, up to the
      // client's 16 connections, which the bound on what is sent after the trip allows for.
      rate: 0,
      unresponsiveAfter: UNRESPONSIVE_AFTER,
      reporters: ['console', 'junit', 'json'],
      outputDir,
      color: false,
      out: new Writable({ write: (chunk, _e, done) => ((console += String(chunk)), done()) }),
      env: ENV,
    });
    sentAfterRun = chaos.requests();
  }, 120_000);
  afterAll(async () => {
    await chaos?.close();
    if (outputDir) rmSync(outputDir, { recursive: true, force: true });
  });

  test('exit 1, with no harness error', () => {
    expect(outcome.results.errors).toEqual([]);
    expect(outcome.exitCode).toBe(1);
  });

  test('the target is declared unresponsive, and the remaining cases are failed with that reason', () => {
    const refused = outcome.results.cells.flatMap((c) => c.failures).filter((f) => (f.actual as { code?: string } | undefined)?.code === UNRESPONSIVE_CODE);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.message).toMatch(/declared unresponsive/);
    expect(outcome.unresponsive).toMatch(/^the target gave no answer to \d+ (consecutive requests|of the last 20 requests)/);
    expect(outcome.results.cells.some((c) => c.status === 'failed')).toBe(true);
  });

  test('after the trip nothing more is sent: the probe, the requests that tripped it (at most 4 x 5) and those in flight', () => {
    // 16 is the client's connection pool: the most requests one worker can have in flight.
    expect(sentAfterRun).toBeLessThanOrEqual(1 + 4 * UNRESPONSIVE_AFTER + 16);
  });

  test('the JUnit and JSON reports are written, with the failed cells', () => {
    const junit = readFileSync(path.join(outputDir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<failure/);
    expect(junit).toContain(UNRESPONSIVE_CODE);
    expect(existsSync(path.join(outputDir, 'report.json'))).toBe(true);
    const report = JSON.parse(readFileSync(path.join(outputDir, 'report.json'), 'utf8')) as { cells: unknown[] };
    expect(report.cells.length).toBe(outcome.results.cells.length);
  });

  test('the console shows no stack trace', () => {
    expect(console).toContain('failed');
    expect(console).not.toMatch(STACK_LINE);
  });
});
