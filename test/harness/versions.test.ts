// The two API versions are told apart: each reference passes its own document, and the 2026-04
// reference fails the 2026-10 document's product shape (is_deletable is required there).
import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { runConformance } from '../../harness/run.js';
import { specPath } from '../../spec/load.js';

const sink = () => new Writable({ write: (_c, _e, done) => done() });
const base = { seed: 4, runs: 10, suites: ['exchange'], operations: ['products:list', 'subscriptions:list'], reporters: [], out: sink() };

describe('API versions', () => {
  test.each(['2026-10', '2026-04'] as const)('the %s reference conforms to its own document', async (version) => {
    const outcome = await runConformance({ ...base, apiVersion: version });
    expect(outcome.results.cells.filter((c) => c.status === 'failed')).toEqual([]);
    expect(outcome.exitCode).toBe(0);
  }, 60_000);

  test('the 2026-04 reference fails the 2026-10 document for lacking is_deletable', async () => {
    const outcome = await runConformance({ ...base, apiVersion: '2026-04', spec: specPath('2026-10') });
    const failure = outcome.results.cells.find((c) => c.operationId === 'products:list' && c.checkId === 'response_schema_conformance')?.failures[0];
    expect(failure?.kind).toBe('schema_violation');
    expect(failure?.message).toContain("must have required property 'is_deletable'");
    expect(outcome.exitCode).toBe(1);
  }, 60_000);
});
