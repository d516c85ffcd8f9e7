// rules.yaml: well-formed entries with unique ids, each enforced by a check or suite that exists,
// pending an issue, or untestable; and every rule a check cites is in it.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { CHECKS, CHECK_IDS } from '../../../checks/index.js';
import { SCENARIO_IDS } from '../../../engine/stateful/registry.js';
import { API_DESCRIPTION_SECTIONS, DESIGN_SECTION_PREFIX, loadRules, ruleStatus, unknownEnforcers } from '../../../core/spec/rules.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SUITE_NAMES = readdirSync(path.join(ROOT, 'suites'))
  .filter((f) => f.endsWith('.suite.ts'))
  .map((f) => f.slice(0, -'.suite.ts'.length));
/** Rule ids cited by checks, from the registry and from the source (a check not yet registered counts too). */
const CITED = new Set([
  ...CHECKS.map((c) => c.rule),
  ...readdirSync(path.join(ROOT, 'checks'))
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => [...readFileSync(path.join(ROOT, 'checks', f), 'utf8').matchAll(/^\s*rule: '([^']+)'/gm)].map((m) => m[1]!)),
]);

const rules = await loadRules();
const ids = new Set(rules.map((r) => r.id));

describe('spec/rules.yaml', () => {
  test('every entry is well-formed with a unique id (loadRules validates)', () => {
    expect(rules.length).toBeGreaterThan(0);
    expect(ids.size).toBe(rules.length);
  });

  test('every enforced_by names a check of checks/index.ts, a stateful scenario of engine/stateful/registry.ts or suite:<name> of suites/', () => {
    expect(unknownEnforcers(rules, [...CHECK_IDS, ...SCENARIO_IDS], SUITE_NAMES)).toEqual([]);
  });

  test('every rule a check cites exists, except openapi.* (sections of the OpenAPI specification)', () => {
    const missing = [...CITED].filter((id) => !id.startsWith('openapi.') && !ids.has(id));
    expect(missing).toEqual([]);
  });

  test('a rule a check cites is enforced by that check', () => {
    for (const check of CHECKS) {
      const rule = rules.find((r) => r.id === check.rule);
      if (!rule) continue;
      expect(ruleStatus(rule), rule.id).toBe('enforced');
      if ('enforced_by' in rule) expect(rule.enforced_by, rule.id).toContain(check.id);
    }
  });

  test('sections are headings of the API description', () => {
    const description = path.resolve(ROOT, '../shared/api-description.md');
    const headings = existsSync(description)
      ? [...readFileSync(description, 'utf8').matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]!.trim())
      : [...API_DESCRIPTION_SECTIONS];
    for (const section of API_DESCRIPTION_SECTIONS) expect(headings, section).toContain(section);
    for (const rule of rules) {
      if (!rule.section.startsWith(DESIGN_SECTION_PREFIX)) expect(headings, rule.id).toContain(rule.section);
    }
  });

  test('the behaviours the brief names each have rules', () => {
    for (const prefix of ['pagination.', 'limits.', 'lists.sorting', 'lists.filters.metadata', 'auth.', 'errors.', 'events.', 'orders.', 'versioning.', 'deprecations.', 'conventions.']) {
      expect([...ids].some((id) => id.startsWith(prefix)), prefix).toBe(true);
    }
  });
});

describe('loadRules on a malformed file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rules-'));
  const good = { id: 'a.b', section: 'Limits', statement: 'A statement.', source: 'A source.', pending: '#5' };
  const { statement: _dropped, ...withoutStatement } = good;
  const { pending: _none, ...withoutStatus } = good;

  test.each<[string, unknown, RegExp]>([
    ['a missing field', [withoutStatement], /rule 1 \(a\.b\): missing field "statement"/],
    ['a duplicate id', [good, good], /rule 2 \(a\.b\): duplicate id, first used by rule 1/],
    ['two statuses', [{ ...good, untestable: 'why' }], /exactly one of enforced_by, pending, untestable \(has pending, untestable\)/],
    ['no status', [withoutStatus], /exactly one of enforced_by, pending, untestable \(has none\)/],
    ['an empty enforced_by', [{ ...withoutStatus, enforced_by: [] }], /"enforced_by" must be a non-empty list/],
    ['a pending that is no issue', [{ ...good, pending: 'soon' }], /"pending" must be an issue reference/],
    ['an id that is not dotted snake_case', [{ ...good, id: 'Pagination-Walk' }], /is not snake_case segments joined by dots/],
    ['an unknown section', [{ ...good, section: 'Elsewhere' }], /section "Elsewhere" is not a heading/],
    ['an unknown field', [{ ...good, note: 'x' }], /unknown field "note"/],
    ['a document that is not a list', { rules: [] }, /must be a list of rules/],
  ])('%s', async (_name, content, message) => {
    const file = path.join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(file, JSON.stringify(content));
    await expect(loadRules(file)).rejects.toMatchObject({ name: 'HarnessError', code: 'CNF_ERR_SPEC_INVALID', message });
  });

  test('an unreadable file', async () => {
    await expect(loadRules(path.join(dir, 'absent.yaml'))).rejects.toMatchObject({ code: 'CNF_ERR_SPEC_INVALID' });
  });
});
