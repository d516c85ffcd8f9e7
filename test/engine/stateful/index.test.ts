// The family registry agrees with the rules, the document, the suites and the other check ids.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { CHECK_IDS } from '../../../checks/index.js';
import { SCENARIO_IDS } from '../../../engine/stateful/scenarios.js';
import { FAMILIES } from '../../../engine/stateful/families.js';
import { MODEL_CHECK_IDS, MODEL_FAMILIES, selectFamilies } from '../../../engine/stateful/index.js';
import { loadSpec } from '../../../core/spec/load.js';
import { loadRules } from '../../../core/spec/rules.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const rules = new Set((await loadRules()).map((r) => r.id));
const operations = new Set((await loadSpec()).operations.map((o) => o.operationId));

describe('the model-based families', () => {
  test('check ids are model_<id in snake_case>, unique, and no check or scenario id', () => {
    for (const family of MODEL_FAMILIES) expect(family.checkId).toBe(`model_${family.id.replace(/-/g, '_')}`);
    expect(new Set(MODEL_CHECK_IDS).size).toBe(MODEL_FAMILIES.length);
    expect(MODEL_CHECK_IDS.filter((id) => CHECK_IDS.includes(id) || SCENARIO_IDS.includes(id))).toEqual([]);
  });

  test.each(MODEL_FAMILIES.map((f) => [f.id, f] as const))('%s cites rules that exist, names an operation of the document, and has its suite and commands', (id, family) => {
    for (const rule of [family.rule, ...family.enforces]) expect(rules, rule).toContain(rule);
    expect(family.enforces).toContain(family.rule);
    expect(operations).toContain(family.operationId);
    expect(existsSync(path.join(ROOT, 'suites/model', `${id}.suite.ts`))).toBe(true);
    expect(FAMILIES[id]).toMatchObject({ id, checkId: family.checkId });
  });

  test.each<[string, string[] | undefined, string[] | undefined, string[]]>([
    ['all by default', undefined, undefined, MODEL_FAMILIES.map((f) => f.id)],
    ['by check id among others', ['pagination_defaults', 'model_seats'], undefined, ['seats']],
    ['none when no model check is named', ['seat_claim_single_use'], undefined, []],
    ['by operation', undefined, ['files:create'], ['files']],
  ])('selectFamilies: %s', (_name, checks, ops, ids) => {
    expect(selectFamilies(checks, ops).map((f) => f.id)).toEqual(ids);
  });
});
