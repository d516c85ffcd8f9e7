import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { HarnessError } from '../../harness/errors.js';
import { ConsoleReporter, createReporters, JsonReporter, JUnitReporter, type CreateReportersInfo } from '../../reporters/index.js';

const INFO: CreateReportersInfo = { target: 'http://127.0.0.1:4010', specVersion: '2026-10', seed: 42, outputDir: join('reports', 'run'), out: new PassThrough() };

describe('createReporters', () => {
  const table: [string, { given: string[]; want: unknown[] }][] = [
    ['none', { given: [], want: [] }],
    ['console', { given: ['console'], want: [ConsoleReporter] }],
    ['all three, in the order given', { given: ['junit', 'console', 'json'], want: [JUnitReporter, ConsoleReporter, JsonReporter] }],
    ['a name twice gives one reporter', { given: ['json', 'json'], want: [JsonReporter] }],
  ];
  test.each(table)('%s', (_name, { given, want }) => {
    const reporters = createReporters(given, INFO);
    expect(reporters.map((reporter) => reporter.constructor)).toEqual(want);
  });

  test('report files go under outputDir as report.json and junit.xml', async () => {
    const outputDir = await mkdtemp(join(tmpdir(), 'cnf-reporters-'));
    try {
      const reporters = createReporters(['json', 'junit'], { ...INFO, outputDir });
      for (const reporter of reporters) await reporter.onTestRunEnd?.([], [], 'passed');
      expect((await readdir(outputDir)).sort()).toEqual(['junit.xml', 'report.json']);
    } finally {
      await rm(outputDir, { recursive: true, force: true });
    }
  });

  const unknown: [string, string[], string][] = [
    ['html (not built yet)', ['console', 'html'], 'unknown reporter "html" in --reporter; known reporters: console, json, junit'],
    ['several unknown', ['xml', 'tap'], 'unknown reporter "xml", "tap" in --reporter; known reporters: console, json, junit'],
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
