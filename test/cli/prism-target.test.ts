// A Prism mock of our own document is a fair target for the response shape checks: a run of them
// against it completes with no failure (docs/performance.md and docs/design.md: zero failures on a Prism mock of our own document).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runConformance, type RunOutcome } from '../../cli/run.js';
import { specPath } from '../../core/spec/load.js';
import { startPrism, type PrismMock } from '../support/prism.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SHAPE_CHECKS = ['not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance'];
const sink = () => new Writable({ write: (_c, _e, done) => done() });

describe('a Prism mock of spec/openapi.yaml', () => {
  let prism: PrismMock;
  let outcome: RunOutcome;
  beforeAll(async () => {
    prism = await startPrism(specPath());
    const { url } = prism;
    const dir = mkdtempSync(path.join(tmpdir(), 'cnf-prism-'));
    const config = path.join(dir, 'conformance.config.json');
    const id = '6a1c1b54-0a5c-4a43-9d5e-4e3f0c1d2a11';
    writeFileSync(config, JSON.stringify({
      roles: { admin: { tokenEnv: 'PRISM_TOKEN' }, customer_session: { tokenEnv: 'PRISM_TOKEN' } },
      fixtures: { order_id: id, customer_id: id, product_id: id, customer_external_id: 'cus_1' },
    }));
    // Pacing off (rate 0): Prism has no rate limit to stay under.
    outcome = await runConformance({ target: url, config, checks: SHAPE_CHECKS, seed: 8, runs: 15, rate: 0, reporters: [], out: sink(), env: { PRISM_TOKEN: 'prism-demo' } });
  }, 120_000);
  afterAll(async () => {
    await prism?.stop();
  });

  test('the shape checks find nothing wrong', () => {
    expect(outcome.results.errors).toEqual([]);
    expect(outcome.results.cells.filter((c) => c.status === 'failed').map((c) => `${c.operationId} ${c.checkId}: ${c.failures[0]?.message}`)).toEqual([]);
    expect(outcome.exitCode).toBe(0);
  });

  test('they ran on every operation that has safe valid requests', () => {
    const ran = new Set(outcome.results.cells.filter((c) => c.status === 'passed' && c.checkId === 'response_schema_conformance').map((c) => c.operationId));
    expect(ran.size).toBeGreaterThanOrEqual(10);
  });
});
