// Baselines: validation of the file, matching, and a run whose only failure is accepted exits 0.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { acceptedBy, readBaseline } from '../../engine/baseline.js';
import { runConformance } from '../../cli/run.js';

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
    ['no accepted array', { entries: [] }, /^(?=[\s\S]*unknown key "entries" \(known: accepted\))(?=[\s\S]*"accepted" is required)/],
    ['entry without checkId', { accepted: [{ reason: 'x' }] }, /accepted\[0\]: "checkId" is required/],
    ['entry without reason', { accepted: [{ checkId: 'x' }] }, /accepted\[0\]: "reason" is required/],
    ['blank reason', { accepted: [{ checkId: 'x', reason: '  ' }] }, /accepted\[0\]\.reason "  " does not match/],
    ['kind not a string', { accepted: [{ checkId: 'x', reason: 'y', kind: 3 }] }, /accepted\[0\]\.kind must be string, not 3/],
    ['a misspelt key', { accepted: [{ checkId: 'x', reason: 'y', operationID: 'z' }] }, /accepted\[0\]: unknown key "operationID"; did you mean "operationId"\?/],
  ] as const)('%s is refused', async (name, content, message) => {
    await expect(readBaseline(file(`${name}.json`, content))).rejects.toMatchObject({ code: 'CNF_ERR_CONFIG_INVALID', message: expect.stringMatching(message) });
  });

  test('an unknown check id or operationId is refused with the nearest known one, every problem in one message', async () => {
    const at = file('unknown.json', {
      accepted: [
        { checkId: 'pagination_limit_respectd', reason: 'r' },
        { checkId: 'tenant_isolation', operationId: 'order:list', reason: 'r' },
        { checkId: 'nope', reason: 'r' },
        { checkId: 'tenant_isolation', reason: '' },
      ],
    });
    const known = { checkIds: ['pagination_limit_respected', 'tenant_isolation'], operationIds: ['orders:list'] };
    const error = (await readBaseline(at, known).catch((e: unknown) => e)) as Error;
    expect(error.message.split('\n')).toEqual([
      `baseline ${at} has 4 problems:`,
      '  - accepted[3].reason "" does not match \\S',
      '  - accepted[0].checkId: unknown check "pagination_limit_respectd"; did you mean "pagination_limit_respected"?',
      '  - accepted[1].operationId: the document has no operation "order:list"; did you mean "orders:list"?',
      '  - accepted[2].checkId: unknown check "nope"',
    ]);
    // Without the lists, only the schema is checked.
    await expect(readBaseline(file('ok-unchecked.json', { accepted: [{ checkId: 'nope', reason: 'r' }] }))).resolves.toEqual([{ checkId: 'nope', reason: 'r' }]);
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
