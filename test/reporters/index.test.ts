import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { HarnessError } from '../../core/errors.js';
import { loadCoverageSpec } from './fixtures/spec.js';
import { collectResults, finishResults } from '../../engine/results.js';
import { ConsoleReporter, createReporters, HtmlReporter, JsonReporter, JUnitReporter, type CreateReportersInfo, type ReportInfo } from '../../reporters/index.js';

const INFO: CreateReportersInfo = { target: 'http://127.0.0.1:4010', specVersion: '2026-10', seed: 42, outputDir: join('reports', 'run'), out: new PassThrough() };
/** The report info of the run {@link INFO} describes, with its timing. */
const REPORT_INFO: ReportInfo = { target: INFO.target, specVersion: INFO.specVersion, seed: INFO.seed, startedAt: '2026-11-22T05:00:00.000Z', durationMs: 3210 };

describe('createReporters', () => {
  const table: [string, { given: string[]; want: unknown[] }][] = [
    ['none', { given: [], want: [] }],
    ['console', { given: ['console'], want: [ConsoleReporter] }],
    ['all four, in the order given', { given: ['junit', 'html', 'console', 'json'], want: [JUnitReporter, HtmlReporter, ConsoleReporter, JsonReporter] }],
    ['a name twice gives one reporter; without console, a summary console last', { given: ['json', 'json'], want: [JsonReporter, ConsoleReporter] }],
  ];
  test.each(table)('%s', (_name, { given, want }) => {
    const reporters = createReporters(given, INFO);
    expect(reporters.map((reporter) => reporter.constructor)).toEqual(want);
  });

  test('--reporter json alone prints the harness errors, the report file and the summary line with the seed', async () => {
    const outputDir = await mkdtemp(join(tmpdir(), 'cnf-reporters-'));
    try {
      const out = new PassThrough();
      const chunks: Buffer[] = [];
      out.on('data', (chunk: Buffer) => chunks.push(chunk));
      const reporters = createReporters(['json'], { ...INFO, outputDir, out });
      const results = finishResults(collectResults([], [{ name: 'Error', message: 'boom' }], 'failed'));
      for (const reporter of reporters) await reporter.report(results, REPORT_INFO);
      const text = Buffer.concat(chunks).toString('utf8');
      expect(text).toContain('  ! boom\n    in unhandled error');
      expect(text).toContain(`Reports:\n  ${join(outputDir, 'report.json')}\n`);
      expect(text).toMatch(/\nconformance: 0 passed, 0 failed, 0 skipped, 1 error in 3\.2s \(seed 42\)\n$/);
      expect(text).not.toContain('operation');
    } finally {
      await rm(outputDir, { recursive: true, force: true });
    }
  });

  test('report files go under outputDir as report.json, junit.xml and report.html', async () => {
    const outputDir = await mkdtemp(join(tmpdir(), 'cnf-reporters-'));
    try {
      const reporters = createReporters(['json', 'junit', 'html'], { ...INFO, outputDir });
      const results = finishResults(collectResults([], [], 'passed'));
      for (const reporter of reporters) await reporter.report(results, REPORT_INFO);
      expect((await readdir(outputDir)).sort()).toEqual(['junit.xml', 'report.html', 'report.json']);
    } finally {
      await rm(outputDir, { recursive: true, force: true });
    }
  });

  test('the document and --min-coverage reach every report', async () => {
    const outputDir = await mkdtemp(join(tmpdir(), 'cnf-reporters-'));
    try {
      const out = new PassThrough();
      const chunks: Buffer[] = [];
      out.on('data', (chunk: Buffer) => chunks.push(chunk));
      const spec = await loadCoverageSpec();
      const reporters = createReporters(['console', 'json', 'junit', 'html'], { ...INFO, out, outputDir, spec, minCoverage: 10 });
      const results = finishResults(collectResults([], [], 'passed'), { spec, minCoverage: 10 });
      for (const reporter of reporters) await reporter.report(results, REPORT_INFO);
      expect(Buffer.concat(chunks).toString('utf8')).toContain('Coverage of the spec (minimum 10%)\n  operations  0/3  0.0%  ✗ below 10%');
      expect(JSON.parse(await readFile(join(outputDir, 'report.json'), 'utf8')).coverage.belowMinimum).toEqual(['operations', 'statuses', 'parameters']);
      expect(await readFile(join(outputDir, 'junit.xml'), 'utf8')).toContain('<testsuite name="coverage"');
      expect(await readFile(join(outputDir, 'report.html'), 'utf8')).toContain('<tr class="total-operations"><th scope="row">Operations exercised</th><td class="num">0/3</td>');
    } finally {
      await rm(outputDir, { recursive: true, force: true });
    }
  });

  test.each([-1, 101, Number.NaN])('a --min-coverage of %s is CNF_ERR_CONFIG_INVALID', (minCoverage) => {
    expect(() => createReporters(['console'], { ...INFO, minCoverage })).toThrow(
      expect.objectContaining({ name: 'HarnessError', code: 'CNF_ERR_CONFIG_INVALID', message: `--min-coverage must be a percentage from 0 to 100, not ${minCoverage}` }),
    );
  });

  const unknown: [string, string[], string][] = [
    ['a misspelt name', ['console', 'htm'], 'unknown reporter "htm" in --reporter; known reporters: console, json, junit, html'],
    ['several unknown', ['xml', 'tap'], 'unknown reporter "xml", "tap" in --reporter; known reporters: console, json, junit, html'],
  ];
  test.each(unknown)('an unknown name throws CNF_ERR_CONFIG_INVALID: %s', (_name, names, message) => {
    let thrown: unknown;
    try {
      createReporters(names, INFO);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HarnessError);
    expect(thrown).toMatchObject({ code: 'CNF_ERR_CONFIG_INVALID', message });
  });
});
