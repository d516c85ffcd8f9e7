// Baseline-accepted failures: every report shows them with their reason, none counts them as
// failures, and the JSON report redacts their credentials like any failure's.
import { describe, expect, test } from 'vitest';
import { renderConsoleReport } from '../../reporters/console.js';
import { renderHtml } from '../../reporters/html/report.js';
import { renderJson } from '../../reporters/json.js';
import { renderJUnit } from '../../reporters/junit.js';
import { exitCodeFor, type RunResults } from '../../engine/results.js';
import { cell, failure, INFO } from './fixtures/cells.js';

const accepted = { ...failure({ checkId: 'pagination_limit_respected', kind: 'limit_above_maximum_honoured', title: 'Page size limit not respected' }), acceptedBecause: 'TICKET-1 <b>clamp</b> next sprint' };
const RESULTS: RunResults = { cells: [cell('products:list', 'pagination_limit_respected', { accepted: [accepted] })], errors: [] };

describe('accepted failures', () => {
  test('do not fail the run', () => {
    expect(exitCodeFor(RESULTS)).toBe(0);
  });

  test('console lists them with the reason', () => {
    const text = renderConsoleReport(RESULTS, INFO);
    expect(text).toContain('Accepted by the baseline (1 failure, not failing the run)');
    expect(text).toContain('pagination_limit_respected on products:list — Page size limit not respected (limit_above_maximum_honoured)');
    expect(text).toContain('because: TICKET-1 <b>clamp</b> next sprint');
  });

  test('JSON keeps them, redacted', () => {
    const json = renderJson(RESULTS, INFO);
    const report = JSON.parse(json);
    expect(report.cells[0].accepted[0].acceptedBecause).toBe('TICKET-1 <b>clamp</b> next sprint');
    expect(report.cells[0].accepted[0].request.headers.authorization).toBe('Bearer [redacted]');
    expect(json).not.toContain('polar_oat_secret');
  });

  test('JUnit says so in the passed test case', () => {
    const xml = renderJUnit(RESULTS, INFO);
    expect(xml).toContain('<system-out><![CDATA[accepted by the baseline (TICKET-1 <b>clamp</b> next sprint): Page size limit not respected:');
    expect(xml).not.toContain('<failure');
  });

  test('HTML has its own section, escaped', () => {
    const page = renderHtml(RESULTS, INFO);
    expect(page).toContain('<h2 id="accepted-title">Accepted by the baseline</h2>');
    expect(page).toContain('TICKET-1 &lt;b&gt;clamp&lt;/b&gt; next sprint');
  });
});
