/**
 * The reporter behind every report file (JSON, JUnit, HTML): times the run, collects its results
 * at the end and writes what its render function makes of them.
 */
import type { Reporter, SerializedError, TestModule, TestRunEndReason } from 'vitest/node';
import { coverageOf, type Coverage, type CoverageSource } from './coverage.js';
import { collectResults, type RunResults } from './results.js';
import { RunClock, type ReportInfo, type RunInfo } from './run-info.js';
import { writeReport } from './write-report.js';

/** Options of a file reporter: the run's info, coverage source and where the file goes. */
export interface FileReporterOptions extends RunInfo, CoverageSource {
  /** Path of the report file; its directory is created when missing. */
  outputFile: string;
}

/** A pure render function of a report: results, timing and (when measured) coverage to text. */
export type RenderReport = (results: RunResults, info: ReportInfo, coverage?: Coverage) => string;

/**
 * Writes `render(results, info, coverage)` to `options.outputFile` when the run ends.
 * @throws HarnessError CNF_ERR_CONFIG_INVALID (from writeReport) when the file cannot be written
 */
export class FileReporter implements Reporter {
  readonly #options: FileReporterOptions;
  readonly #render: RenderReport;
  readonly #clock = new RunClock();

  constructor(options: FileReporterOptions, render: RenderReport) {
    this.#options = options;
    this.#render = render;
  }

  onTestRunStart(): void {
    this.#clock.start();
  }

  async onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): Promise<void> {
    const results = collectResults(testModules, unhandledErrors, reason);
    const info = this.#clock.stop(this.#options);
    await writeReport(this.#options.outputFile, this.#render(results, info, coverageOf(results.cells, this.#options)));
  }
}
