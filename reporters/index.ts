/**
 * The reporters by name, as `--reporter` selects them, and the public API of `reporters/`.
 */
import { join } from 'node:path';
import { HarnessError } from '../core/errors.js';
import type { LoadedSpec } from '../core/spec/load.js';
import { ConsoleReporter } from './console.js';
import { isPercent } from '../engine/coverage.js';
import { HtmlReporter } from './html/report.js';
import { JsonReporter } from './json.js';
import { JUnitReporter } from './junit.js';
import type { ResultsReporter } from './file-reporter.js';
import type { RunInfo } from './run-info.js';

export { ConsoleReporter, renderConsoleReport, renderConsoleSummary, STATUS_SYMBOLS } from './console.js';
export type { ConsoleRenderOptions, ConsoleReporterOptions } from './console.js';
export { JsonReporter, jsonReport, redactHeaders, renderJson } from './json.js';
export type { JsonReport, JsonReporterOptions, ReportedCell, ReportedFailure } from './json.js';
export { JUnitReporter, renderJUnit, HARNESS_SUITE, COVERAGE_SUITE } from './junit.js';
export type { JUnitReporterOptions } from './junit.js';
export { HtmlReporter, renderHtml } from './html/report.js';
export type { HtmlReporterOptions } from './html/report.js';
export { escapeHtml } from './html/template.js';
export { HTML_STATUS_SYMBOLS } from './html/plan.js';
export type { Verdict } from './html/plan.js';
export { compactJson, failureKey, formatDuration, groupFailures, replayLine } from './format.js';
export type { FailureGroup } from './format.js';
export { buildMatrix, statusAt } from './matrix.js';
export type { Matrix } from './matrix.js';
export { RunClock } from './run-info.js';
export { FileReporter } from './file-reporter.js';
export type { RenderReport, ResultsReporter } from './file-reporter.js';
export { writeReport } from './write-report.js';
export type { ReportInfo, RunInfo } from './run-info.js';

/** Names accepted by `--reporter`, in the order they are documented. */
export const REPORTER_NAMES = ['console', 'json', 'junit', 'html'] as const;

/** A reporter name accepted by {@link createReporters}. */
export type ReporterName = (typeof REPORTER_NAMES)[number];

/** File names of the reports written under `outputDir`, by reporter. */
export const REPORT_FILES = { json: 'report.json', junit: 'junit.xml', html: 'report.html' } as const;

/** What {@link createReporters} needs: the run's info, the document for coverage, where files go, and the console's stream. */
export interface CreateReportersInfo extends RunInfo {
  /** Directory of the report files (`report.json`, `junit.xml`, `report.html`); created when missing. */
  outputDir: string;
  /** The document the run checks against; every report shows spec coverage when it is given. */
  spec?: LoadedSpec;
  /** `--min-coverage` in percent (0 to 100): the reports mark the coverage measures below it. */
  minCoverage?: number;
  /** The console reporter's stream; default `process.stdout`. */
  out?: NodeJS.WritableStream;
  /** Force the console's colours on or off; default: on for a TTY that supports them. */
  color?: boolean;
  /** The console lists every not-applicable and skipped cell, not only counts per reason (`--verbose`). */
  verbose?: boolean;
}

/**
 * One reporter instance per name (`console`, `json` to `<outputDir>/report.json`, `junit` to
 * `<outputDir>/junit.xml`, `html` to `<outputDir>/report.html`), in the order given; a name given
 * twice yields one reporter. Each is given `spec` and `minCoverage` and shows coverage when `spec` is.
 * The console reporter lists the files the others write; without `console` among non-empty
 * `names`, a console reporter in `summary` mode is added last, so that every run prints its harness
 * errors, its report files and the summary line with the seed. An empty `names` prints and writes nothing.
 * @throws HarnessError `CNF_ERR_CONFIG_INVALID` for a name that is not in {@link REPORTER_NAMES},
 *   or for a `minCoverage` that is not a percentage from 0 to 100
 */
export function createReporters(names: readonly string[], info: CreateReportersInfo): ResultsReporter[] {
  const { outputDir, out, color, verbose, spec, minCoverage, ...rest } = info;
  if (minCoverage !== undefined && !isPercent(minCoverage)) {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--min-coverage must be a percentage from 0 to 100, not ${String(minCoverage)}`);
  }
  const run = { ...rest, ...(spec ? { spec } : {}), ...(minCoverage !== undefined ? { minCoverage } : {}) };
  const unique = [...new Set(names)];
  const unknown = unique.filter((name) => !isReporterName(name));
  if (unknown.length > 0) {
    throw new HarnessError(
      'CNF_ERR_CONFIG_INVALID',
      `unknown reporter ${unknown.map((name) => `"${name}"`).join(', ')} in --reporter; known reporters: ${REPORTER_NAMES.join(', ')}`,
    );
  }
  const reportFiles = unique.filter((name): name is keyof typeof REPORT_FILES => name in REPORT_FILES).map((name) => join(outputDir, REPORT_FILES[name]));
  const consoleOptions = { ...run, out, color, reportFiles, ...(verbose !== undefined ? { verbose } : {}) };
  const reporters = unique.filter(isReporterName).map((name): ResultsReporter => {
    switch (name) {
      case 'console':
        return new ConsoleReporter(consoleOptions);
      case 'json':
        return new JsonReporter({ ...run, outputFile: join(outputDir, REPORT_FILES.json) });
      case 'junit':
        return new JUnitReporter({ ...run, outputFile: join(outputDir, REPORT_FILES.junit) });
      case 'html':
        return new HtmlReporter({ ...run, outputFile: join(outputDir, REPORT_FILES.html) });
    }
  });
  if (unique.length > 0 && !unique.includes('console')) reporters.push(new ConsoleReporter({ ...consoleOptions, mode: 'summary' }));
  return reporters;
}

function isReporterName(name: string): name is ReporterName {
  return (REPORTER_NAMES as readonly string[]).includes(name);
}
