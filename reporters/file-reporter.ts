/**
 * The reporter behind every report file (JSON, JUnit, HTML): writes what its render function makes
 * of the run's results (engine/results.ts, built once by the run) to its file.
 */
import type { Coverage } from '../engine/coverage.js';
import type { RunResults } from '../engine/results.js';
import type { ReportInfo, RunInfo } from './run-info.js';
import { writeReport } from './write-report.js';

/** Options of a file reporter: the run's info and where the file goes. */
export interface FileReporterOptions extends RunInfo {
  /** Path of the report file; its directory is created when missing. */
  outputFile: string;
}

/** A pure render function of a report: results, timing and (when measured) coverage to text. */
export type RenderReport = (results: RunResults, info: ReportInfo, coverage?: Coverage) => string;

/** A reporter of the run's results: given them once, at the end of the run (cli/run.ts). */
export interface ResultsReporter {
  /** Writes or prints the report of `results`. @throws HarnessError CNF_ERR_CONFIG_INVALID when a file cannot be written */
  report(results: RunResults, info: ReportInfo): Promise<void> | void;
}

/**
 * Writes `render(results, info, results.coverage)` to `options.outputFile`.
 * @throws HarnessError CNF_ERR_CONFIG_INVALID (from writeReport) when the file cannot be written
 */
export class FileReporter implements ResultsReporter {
  readonly #options: FileReporterOptions;
  readonly #render: RenderReport;

  constructor(options: FileReporterOptions, render: RenderReport) {
    this.#options = options;
    this.#render = render;
  }

  async report(results: RunResults, info: ReportInfo): Promise<void> {
    await writeReport(this.#options.outputFile, this.#render(results, info, results.coverage));
  }
}
