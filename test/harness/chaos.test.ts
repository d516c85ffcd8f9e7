// Against a target that hangs, resets, answers garbage, drips its body or fails with 5xx, a run
// finishes in bounded time, reports each as a failure of the target, and has no harness error.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runConformance, type RunOutcome } from '../../harness/run.js';
import { startChaosTarget, type ChaosTarget } from './chaos-target.js';

const OPERATIONS = ['products:list', 'subscriptions:list', 'files:list', 'refunds:list', 'webhooks:list_endpoints'];
const sink = () => new Writable({ write: (_c, _e, done) => done() });

describe('a chaos target', () => {
  let chaos: ChaosTarget;
  let outcome: RunOutcome;
  let seconds: number;

  beforeAll(async () => {
    chaos = await startChaosTarget();
    const started = performance.now();
    outcome = await runConformance({
      target: chaos.url,
      operations: OPERATIONS,
      seed: 5,
      runs: 10,
      timeoutMs: 400,
      reporters: [],
      out: sink(),
      env: { CONFORMANCE_ADMIN_TOKEN: 'chaos-admin', CONFORMANCE_NO_SCOPE_TOKEN: 'chaos-no-scope' },
    });
    seconds = (performance.now() - started) / 1000;
  }, 120_000);
  afterAll(() => chaos?.close());

  const failed = (operationId: string, checkId: string) =>
    outcome.results.cells.find((c) => c.operationId === operationId && c.checkId === checkId && c.status === 'failed');

  test('the run finishes, fails the target, and the harness itself has no error', () => {
    expect(outcome.results.errors).toEqual([]);
    expect(outcome.exitCode).toBe(1);
    expect(seconds).toBeLessThan(90);
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
