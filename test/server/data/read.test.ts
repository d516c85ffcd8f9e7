import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataValue, describeProblem, fieldPath, readDataFile, readDataText, schemaProblems } from '../../../server/data/read.js';

function read(text: string) {
  const result = readDataText('data.yaml', text);
  if (!result.ok) throw new Error(describeProblem(result.error));
  return result.value;
}

describe('readDataText', () => {
  it('reads YAML and knows the line and column of every field and key', () => {
    const text = read('organizations:\n  - name: Acme\n    products:\n      - name: Pro\n        recurring_interval: month\n');
    expect(text.value).toEqual({ organizations: [{ name: 'Acme', products: [{ name: 'Pro', recurring_interval: 'month' }] }] });
    expect(text.locate(['organizations', 0, 'products', 0, 'recurring_interval'])).toEqual({ line: 5, column: 29 });
    expect(text.locate(['organizations', 0, 'products', 0], 'recurring_interval')).toEqual({ line: 5, column: 9 });
    // A path the file does not have: the nearest value it has.
    expect(text.locate(['organizations', 0, 'customers', 3])).toEqual({ line: 2, column: 5 });
  });

  it('reads JSON, with lines too', () => {
    const text = read('{\n  "organizations": [\n    { "name": "Acme" }\n  ]\n}\n');
    expect(text.locate(['organizations', 0, 'name'])).toEqual({ line: 3, column: 15 });
  });

  it.each([
    ['an unclosed flow sequence', 'organizations: [\n  { name: Acme }\n', 3],
    ['a key given twice', 'organizations: []\norganizations: []\n', 2],
    ['a tab for indentation', 'organizations:\n\t- name: Acme\n', 2],
  ])('refuses %s with its line', (_name, text, line) => {
    const result = readDataText('bad.yaml', text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.position?.line).toBe(line);
      expect(describeProblem(result.error)).toMatch(new RegExp(`^bad\\.yaml:${line}:\\d+: \\(syntax\\): not valid YAML or JSON: [^\\n]+$`));
    }
  });

  it('names a missing file', () => {
    const result = readDataFile(path.join(tmpdir(), 'no-such-data-file.yaml'));
    expect(!result.ok && describeProblem(result.error)).toMatch(/no-such-data-file\.yaml: \(file\): no such file$/);
  });

  it('reads a file from disk', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'cnf-data-')), 'data.json');
    writeFileSync(file, '{"organizations": [{"name": "Acme"}]}');
    expect(readDataFile(file)).toMatchObject({ ok: true, value: { file, value: { organizations: [{ name: 'Acme' }] } } });
  });
});

describe('schemaProblems', () => {
  it.each<[string, string, string]>([
    ['an unknown field, with the nearest known one', 'organizations:\n  - name: Acme\n    prodcuts: []\n', 'data.yaml:3:5: organizations[0].prodcuts: unknown field (did you mean products?); the fields here are key, id, name, slug, created_at, tokens, benefits, products, prices, customers, subscriptions, orders, license_keys, webhook_endpoints'],
    ['a value off its list', 'organizations:\n  - name: Acme\n    products:\n      - { name: Pro, recurring_interval: monthly }\n', 'data.yaml:4:42: organizations[0].products[0].recurring_interval: must be one of day, week, month, year, null, not "monthly"'],
    ['a missing field', 'organizations:\n  - name: Acme\n    customers:\n      - { name: Ada }\n', 'data.yaml:4:9: organizations[0].customers[0].email: is required'],
    ['an instant of no known form', 'organizations:\n  - name: Acme\n    created_at: yesterday\n', 'data.yaml:3:17: organizations[0].created_at: "yesterday" is not an RFC 3339 date-time with its offset (2027-01-31T09:00:00Z), now, or a signed ISO 8601 duration from now (-P30D, +P1M, -PT2H)'],
    ['an id that is not a UUID', 'organizations:\n  - name: Acme\n    id: acme\n', 'data.yaml:3:9: organizations[0].id: "acme" is not a UUID (8-4-4-4-12 hexadecimal digits)'],
    ['no organization', 'organizations: []\n', 'data.yaml:1:16: organizations: must have at least 1 item'],
  ])('%s', (_name, text, want) => {
    expect(schemaProblems(read(text)).map(describeProblem)[0]).toBe(want);
  });

  it('lists every problem in the order of the file, one per field', () => {
    const problems = schemaProblems(read('organizations:\n  - name: 3\n    slug: Acme Corp\n    products: [{ name: Pro, visibility: secret }]\n'));
    expect(problems.map((problem) => [problem.position?.line, problem.field])).toEqual([
      [2, 'organizations[0].name'],
      [3, 'organizations[0].slug'],
      [4, 'organizations[0].products[0].visibility'],
    ]);
  });

  it('validates a value without lines (the library\'s data option)', () => {
    expect(schemaProblems(dataValue('data option', { organizations: [{}] })).map(describeProblem)).toEqual(['data option: organizations[0].name: is required']);
  });

  it('fieldPath reads as code', () => {
    expect(fieldPath(['organizations', 0, 'prices', 2, 'product'])).toBe('organizations[0].prices[2].product');
    expect(fieldPath([])).toBe('(top level)');
  });
});
