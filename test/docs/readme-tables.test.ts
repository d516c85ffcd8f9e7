// The README lists every check id and harness error code, and nothing else in those tables.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { CHECK_IDS } from '../../checks/index.js';
import { HARNESS_ERROR_CODES } from '../../core/errors.js';
import { FAULTS } from '../../server/faults.js';
import { loadSpec } from '../../core/spec/load.js';
import { operationsTable } from '../../core/spec/operations-table.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** First-column code spans of the table under a heading. */
function tableIds(heading: string): string[] {
  const section = readme.split(`## ${heading}`)[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);
}

describe('README tables', () => {
  test('checks', () => expect(tableIds('Checks').sort()).toEqual([...CHECK_IDS].sort()));
  test('harness error codes, with the same meanings', () => {
    expect(tableIds('Harness error codes (exit 2)').sort()).toEqual(Object.keys(HARNESS_ERROR_CODES).sort());
    for (const [code, meaning] of Object.entries(HARNESS_ERROR_CODES)) expect(readme).toContain(`| \`${code}\` | ${meaning} |`);
  });
  test('faults, with the check that catches each', () => {
    expect(tableIds('The reference server').sort()).toEqual(FAULTS.map((f) => f.id).sort());
    for (const fault of FAULTS) expect(readme).toMatch(new RegExp(`\\| \`${fault.id}\` \\|.*\\| \`${fault.detectedBy}\` \\|`));
  });
  test('operations, rendered from the document', async () => {
    expect(readme).toContain(operationsTable(await loadSpec()));
  });
});
