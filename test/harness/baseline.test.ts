// Baselines: validation of the file, matching, and a run whose only failure is accepted exits 0.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { acceptedBy, readBaseline } from '../../harness/baseline.js';
import { runConformance } from '../../harness/run.js';

const dir = mkdtempSync(path.join(tmpdir(), 'cnf-baseline-'));
const file = (name: string, content: unknown) => {
  const at = path.join(dir, name);
  writeFileSync(at, typeof content === 'string' ? content : JSON.stringify(content));
  return at;
};
const sink = () => new Writable({ write: (_c, _e, done) => done() });

describe('readBaseline', () => {
  test.each([
    ['not JSON', '{', /cannot read baseline/],
    ['no accepted array', { entries: [] }, /must be \{"accepted"/],
    ['entry without checkId', { accepted: [{ reason: 'x' }] }, /entry 0: "checkId" is required/],
    ['entry without reason', { accepted: [{ checkId: 'x' }] }, /entry 0: "reason" is required/],
    ['blank reason', { accepted: [{ checkId: 'x', reason: '  ' }] }, /"reason" is required/],
    ['kind not a string', { accepted: [{ checkId: 'x', reason: 'y', kind: 3 }] }, /"kind" must be a string/],
  ] as const)('%s is refused', async (name, content, message) => {
    await expect(readBaseline(file(`${name}.json`, content))).rejects.toThrow(message);
  });

  test('entries match by check, then operation and kind when given', async () => {
    const entries = await readBaseline(file('ok.json', { accepted: [{ checkId: 'a', reason: 'r1' }, { checkId: 'b', operationId: 'op', kind: 'k', reason: 'r2' }] }));
    expect(acceptedBy({ checkId: 'a', operationId: 'any', kind: 'any' }, entries)?.reason).toBe('r1');
    expect(acceptedBy({ checkId: 'b', operationId: 'op', kind: 'k' }, entries)?.reason).toBe('r2');
    expect(acceptedBy({ checkId: 'b', operationId: 'op', kind: 'other' }, entries)).toBeUndefined();
    expect(acceptedBy({ checkId: 'c', operationId: 'op', kind: 'k' }, entries)).toBeUndefined();
  });
});

describe('a run with a baseline', () => {
  test('an accepted failure is reported, not failing', async () => {
    const baseline = file('limit.json', { accepted: [{ checkId: 'pagination_limit_respected', reason: 'TICKET-1: clamping ships next sprint' }] });
    const outcome = await runConformance({ seed: 3, runs: 10, faults: ['limit_unbounded'], suites: ['exchange'], baseline, reporters: [], out: sink() });
    const cells = outcome.results.cells.filter((c) => c.checkId === 'pagination_limit_respected' && c.status !== 'skipped' && c.status !== 'not_applicable');
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.every((c) => c.status === 'passed' && c.failures.length === 0)).toBe(true);
    expect(cells.flatMap((c) => c.accepted ?? []).map((f) => f.acceptedBecause)).toContain('TICKET-1: clamping ships next sprint');
    expect(outcome.exitCode).toBe(0);
  }, 120_000);
});
