// What loading a document changed or ignored (an OpenAPI 3.0 document upgraded to 3.1, unknown
// formats) is shown by every reporter, so that a person knows what the checks judged against; a
// run on such a document carries the notes into its reports.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { runConformance } from '../../cli/run.js';
import { renderConsoleReport } from '../../reporters/console.js';
import { renderHtml } from '../../reporters/html/report.js';
import { jsonReport } from '../../reporters/json.js';
import { renderJUnit } from '../../reporters/junit.js';
import type { RunResults } from '../../engine/results.js';
import { startReferenceServer } from '../../server/index.js';
import { cell, INFO } from './fixtures/cells.js';

const NOTES = ['OpenAPI 3.0.3 upgraded to 3.1.0 for validation (nullable, exclusive bounds, examples)', 'format int128 not known to the validators: any string is accepted'];
const RESULTS: RunResults = { cells: [cell('products:list', 'not_a_server_error')], errors: [] };

describe('spec notes in the reports', () => {
  test('console, JSON, HTML and JUnit show each note; none when the document needed none', () => {
    const info = { ...INFO, specNotes: NOTES };
    const console = renderConsoleReport(RESULTS, info, { color: false });
    for (const note of NOTES) expect(console).toContain(`spec note     ${note}`);
    expect(jsonReport(RESULTS, info).specNotes).toEqual(NOTES);
    const page = renderHtml(RESULTS, info);
    expect(page).toContain('<dt>Spec notes</dt>');
    expect(page).toContain('format int128 not known to the validators');
    expect(renderJUnit(RESULTS, info)).toContain(`name="spec_notes" value="${NOTES.join('; ')}"`);

    expect(renderConsoleReport(RESULTS, INFO, { color: false })).not.toContain('spec note');
    expect(jsonReport(RESULTS, INFO).specNotes).toEqual([]);
    expect(renderHtml(RESULTS, INFO)).not.toContain('Spec notes');
    expect(renderJUnit(RESULTS, INFO)).not.toContain('spec_notes');
  });

  test('a run on an OpenAPI 3.0 document writes the upgrade note into its JSON report', async () => {
    const reference = await startReferenceServer({ port: 0, rateLimit: false });
    try {
      const outputDir = mkdtempSync(path.join(tmpdir(), 'cnf-notes-'));
      const spec = path.resolve(import.meta.dirname, '../../node_modules/@readme/oas-examples/3.0/yaml/petstore.yaml');
      const env = { CONFORMANCE_ADMIN_TOKEN: reference.credentials.admin };
      const outcome = await runConformance({ target: reference.url, spec, checks: ['not_a_server_error'], seed: 1, runs: 2, reporters: ['json'], outputDir, out: new Writable({ write: (_c, _e, done) => done() }), env, allowMissingRoles: true });
      expect(outcome.exitCode).not.toBe(2);
      const report = JSON.parse(readFileSync(path.join(outputDir, 'report.json'), 'utf8')) as { specNotes: string[] };
      expect(report.specNotes.some((note) => /^OpenAPI 3\.0\.\d upgraded to 3\.1/.test(note))).toBe(true);
    } finally {
      await reference.close();
    }
  });
});
