// The stateful registry agrees with spec/rules.yaml, the bundled document, the suites that run it
// and the other check ids: every scenario cites rules that exist and list it, names an operation of
// the document, and is defined in the file its `suite` names; every model-based family cites rules
// that exist, names an operation of the document, and has its suite and commands.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { CHECK_IDS } from '../../../checks/index.js';
import { FAMILIES } from '../../../engine/stateful/families.js';
import { MODEL_CHECK_IDS, MODEL_FAMILIES, SCENARIOS, SCENARIO_IDS, selectFamilies, selectScenarios } from '../../../engine/stateful/registry.js';
import { documentOperationIds } from '../../../engine/stateful/scenario.js';
import { FAULTS } from '../../../server/faults.js';
import { loadSpec } from '../../../core/spec/load.js';
import { loadRules } from '../../../core/spec/rules.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const rules = await loadRules();
const spec = await loadSpec();
const enforcers = new Map(rules.flatMap((rule) => ('enforced_by' in rule ? [[rule.id, rule.enforced_by] as const] : [])));
const ruleIds = new Set(rules.map((r) => r.id));
const operations = new Set(spec.operations.map((o) => o.operationId));

describe('the stateful scenarios', () => {
  test('ids are unique, snake_case, and not check ids', () => {
    expect(new Set(SCENARIO_IDS).size).toBe(SCENARIO_IDS.length);
    for (const id of SCENARIO_IDS) expect(id).toMatch(/^[a-z][a-z0-9_]*$/);
    expect(SCENARIO_IDS.filter((id) => CHECK_IDS.includes(id))).toEqual([]);
  });

  test.each(SCENARIOS.map((s) => [s.id, s] as const))('%s cites rules that exist, and each rule it enforces lists it', (_id, scenario) => {
    expect(rules.map((r) => r.id)).toContain(scenario.rule);
    if (scenario.enforces.length > 0) expect(scenario.enforces[0]).toBe(scenario.rule);
    for (const rule of scenario.enforces) expect(enforcers.get(rule), rule).toContain(scenario.id);
  });

  test('every rule that names a scenario in enforced_by is among its enforces', () => {
    for (const [rule, by] of enforcers) {
      for (const id of by.filter((b) => SCENARIO_IDS.includes(b))) expect(SCENARIOS.find((s) => s.id === id)!.enforces, `${rule} -> ${id}`).toContain(rule);
    }
  });

  test('every scenario names an operation of the bundled document (its paths or webhooks)', () => {
    const known = documentOperationIds(spec);
    expect(SCENARIOS.filter((s) => !known.has(s.operationId)).map((s) => s.id)).toEqual([]);
  });

  test('every scenario is defined in the file its suite names, and every file defines only registered ones', () => {
    for (const suite of new Set(SCENARIOS.map((s) => s.suite))) {
      const source = readFileSync(path.join(ROOT, 'suites/stateful', `${suite}.suite.ts`), 'utf8');
      const defined = [...source.matchAll(/defineScenario\(suite, '([a-z0-9_]+)'/g)].map((m) => m[1]);
      expect(defined.sort(), suite).toEqual(SCENARIOS.filter((s) => s.suite === suite).map((s) => s.id).sort());
    }
  });

  test('faults a scenario catches name it as their detector', () => {
    const byScenario = FAULTS.filter((f) => SCENARIO_IDS.includes(f.detectedBy));
    expect(byScenario.map((f) => f.id).sort()).toEqual(['benefits_foreign_accepted', 'cancel_at_period_end_ignored', 'event_skipped', 'introspect_unknown_active', 'invitation_token_reusable', 'invoice_generated_implicitly', 'no_cascade_on_delete', 'oauth_code_reusable', 'order_paid_before_created', 'portal_isolation_broken', 'refund_event_skipped', 'renewal_period_unchanged', 'renewal_without_order', 'upload_checksum_ignored', 'webhook_decoded_key', 'webhook_disabled_delivered', 'webhook_test_clock_timestamp', 'webhook_unsigned', 'webhook_wrong_signature']);
  });

  test.each<[string, string[] | undefined, string[] | undefined, number]>([
    ['everything by default', undefined, undefined, SCENARIOS.length],
    ['by scenario id among check ids', ['pagination_defaults', 'seat_claim_single_use'], undefined, 1],
    ['none when only check ids are named', ['pagination_defaults'], undefined, 0],
    ['by operation', undefined, ['oauth2:token'], SCENARIOS.filter((s) => s.operationId === 'oauth2:token').length],
  ])('selectScenarios: %s', (_name, checks, operations, count) => {
    expect(selectScenarios(checks, operations)).toHaveLength(count);
  });
});

describe('the model-based families', () => {
  test('check ids are model_<id in snake_case>, unique, and no check or scenario id', () => {
    for (const family of MODEL_FAMILIES) expect(family.checkId).toBe(`model_${family.id.replace(/-/g, '_')}`);
    expect(new Set(MODEL_CHECK_IDS).size).toBe(MODEL_FAMILIES.length);
    expect(MODEL_CHECK_IDS.filter((id) => CHECK_IDS.includes(id) || SCENARIO_IDS.includes(id))).toEqual([]);
  });

  test.each(MODEL_FAMILIES.map((f) => [f.id, f] as const))('%s cites rules that exist, names an operation of the document, and has its suite and commands', (id, family) => {
    for (const rule of [family.rule, ...family.enforces]) expect(ruleIds, rule).toContain(rule);
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
