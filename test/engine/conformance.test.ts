import { describe, expect, test } from 'vitest';
import { CHECKS } from '../../checks/index.js';
import { conformanceStatement, factsOf, failsRun, REPORT_ORDER } from '../../engine/conformance.js';
import { exitCodeFor } from '../../engine/results.js';
import { MODEL_FAMILIES } from '../../engine/stateful/registry.js';
import { SCENARIOS } from '../../engine/stateful/registry.js';
import type { CellMeta } from '../../core/types.js';

const cell = (checkId: string, status: CellMeta['status']): CellMeta => ({ operationId: 'products:list', checkId, status, cases: 1, failures: [] });
const SHOULD = CHECKS.find((c) => c.level === 'should')!.id;
const MUST = 'status_code_conformance';

describe('conformance statement', () => {
  test('every check, scenario and model family has a class and a level, in report order', () => {
    expect(REPORT_ORDER).toEqual([...CHECKS.map((c) => c.id), ...SCENARIOS.map((s) => s.id), ...MODEL_FAMILIES.map((f) => f.checkId)]);
    for (const id of REPORT_ORDER) expect(factsOf(id).level).toMatch(/^(must|should)$/);
    expect(factsOf('webhook_signed').conformanceClass).toBe('webhooks');
    expect(factsOf('model_orders').conformanceClass).toBe('state');
  });

  test.each<[string, CellMeta[], { conformant: boolean; core: string; mustFailed: number; shouldFailed: number }]>([
    ['a passed must-level cell: conformant', [cell(MUST, 'passed')], { conformant: true, core: 'conformant', mustFailed: 0, shouldFailed: 0 }],
    ['a failed must-level cell: not conformant', [cell(MUST, 'failed'), cell(MUST, 'passed')], { conformant: false, core: 'not conformant', mustFailed: 1, shouldFailed: 0 }],
    ['a failed should-level cell: still conformant, counted apart', [cell(SHOULD, 'failed')], { conformant: true, core: 'conformant', mustFailed: 0, shouldFailed: 1 }],
    ['skipped and not-applicable cells show nothing', [cell(MUST, 'skipped'), cell(MUST, 'not_applicable')], { conformant: true, core: 'not shown', mustFailed: 0, shouldFailed: 0 }],
  ])('%s', (_name, cells, want) => {
    const statement = conformanceStatement(cells);
    const core = statement.classes.find((c) => c.conformanceClass === 'core')!;
    expect({ conformant: statement.conformant, core: core.verdict, mustFailed: core.mustFailed, shouldFailed: core.shouldFailed }).toEqual(want);
    expect(statement.classes.filter((c) => c.conformanceClass !== 'core').every((c) => c.verdict === 'not shown')).toBe(true);
  });

  test('--fail-on must lets a should-level failure pass the exit code; should (the default) does not', () => {
    const results = { cells: [cell(SHOULD, 'failed'), cell(MUST, 'passed')], errors: [] };
    expect(exitCodeFor(results)).toBe(1);
    expect(exitCodeFor(results, undefined, 'must')).toBe(0);
    expect(exitCodeFor({ cells: [cell(MUST, 'failed')], errors: [] }, undefined, 'must')).toBe(1);
    expect(failsRun(cell(MUST, 'passed'), 'should')).toBe(false);
  });
});
