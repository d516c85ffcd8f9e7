/**
 * The reporters by name, as `--reporter` selects them, and the public API of `reporters/`.
 */
import { join } from 'node:path';
import type { Reporter } from 'vitest/node';
import { HarnessError } from '../harness/errors.js';
import { ConsoleReporter } from './console.js';
import { JsonReporter } from './json.js';
import { JUnitReporter } from './junit.js';
import type { RunInfo } from './run-info.js';

export { ConsoleReporter, renderConsoleReport, STATUS_SYMBOLS } from './console.js';
export type { ConsoleRenderOptions, ConsoleReporterOptions } from './console.js';
export { JsonReporter, jsonReport, redactHeaders, renderJson } from './json.js';
export type { JsonReport, JsonReporterOptions, ReportedCell, ReportedFailure } from './json.js';
export { JUnitReporter, renderJUnit, HARNESS_SUITE } from './junit.js';
export type { JUnitReporterOptions } from './junit.js';
export { compactJson, failureKey, formatDuration, groupFailures, replayLine } from './format.js';
export type { FailureGroup } from './format.js';
export { buildMatrix, statusAt } from './matrix.js';
export type { Matrix } from './matrix.js';
export { collectResults, exitCodeFor, summarize } from './results.js';
export type { ExitCode, HarnessProblem, RunResults, RunSummary } from './results.js';
export { RunClock } from './run-info.js';
export { writeReport } from './write-report.js';
export type { ReportInfo, RunInfo } from './run-info.js';

/** Names accepted by `--reporter`, in the order they are documented. */
export const REPORTER_NAMES = ['console', 'json', 'junit'] as const;

/** A reporter name accepted by {@link createReporters}. */
export type ReporterName = (typeof REPORTER_NAMES)[number];

/** File names of the reports written under `outputDir`, by reporter. */
export const REPORT_FILES = { json: 'report.json', junit: 'junit.xml' } as const;

/** What {@link createReporters} needs: the run's info, where files go, and the console's stream. */
export interface CreateReportersInfo extends RunInfo {
  /** Directory of the report files (`report.json`, `junit.xml`); created when missing. */
  outputDir: string;
  /** The console reporter's stream; default `process.stdout`. */
  out?: NodeJS.WritableStream;
  /** Force the console's colours on or off; default: on for a TTY that supports them. */
  color?: boolean;
}

/**
 * One reporter instance per name (`console`, `json` to `<outputDir>/report.json`, `junit` to
 * `<outputDir>/junit.xml`), in the order given; a name given twice yields one reporter.
 * @throws HarnessError `CNF_ERR_CONFIG_INVALID` for a name that is not in {@link REPORTER_NAMES}
 */
export function createReporters(names: readonly string[], info: CreateReportersInfo): Reporter[] {
  const { outputDir, out, color, ...run } = info;
  const unique = [...new Set(names)];
  const unknown = unique.filter((name) => !isReporterName(name));
  if (unknown.length > 0) {
    throw new HarnessError(
      'CNF_ERR_CONFIG_INVALID',
      `unknown reporter ${unknown.map((name) => `"${name}"`).join(', ')} in --reporter; known reporters: ${REPORTER_NAMES.join(', ')}`,
    );
  }
  const reporters = unique.filter(isReporterName).map((name): Reporter => {
    switch (name) {
      case 'console':
        return new ConsoleReporter({ ...run, out, color });
      case 'json':
        return new JsonReporter({ ...run, outputFile: join(outputDir, REPORT_FILES.json) });
      case 'junit':
        return new JUnitReporter({ ...run, outputFile: join(outputDir, REPORT_FILES.junit) });
    }
  });
  return reporters;
}

function isReporterName(name: string): name is ReporterName {
  return (REPORTER_NAMES as readonly string[]).includes(name);
}
