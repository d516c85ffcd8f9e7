/**
 * What every report says about a run besides its results: the target, the spec version, the seed,
 * and when the run started and how long it took.
 */
import type { RunTimings } from '../core/timings.js';
import type { ShardRun, ShardStamp } from '../engine/shard.js';

/** The run's configuration as the reports show it; given by the CLI when it creates the reporters. */
export interface RunInfo {
  /** Base URL of the target (`http://127.0.0.1:4010`). */
  target: string;
  /** API version of the spec the suites ran against (`2026-10`), or the `--spec` file's version. */
  specVersion: string;
  /** The one seed of the run (fast-check, faker, the reference server). */
  seed: number;
  /** Heading of the report; defaults to the reporter's own. */
  title?: string;
  /**
   * What loading the document changed or ignored (core/spec/load.ts `LoadedSpec.notes`: an OpenAPI 3.0
   * document upgraded to 3.1, formats no validator knows), shown so that a person knows what the
   * checks judged against; empty or absent for none.
   */
  specNotes?: string[];
}

/** {@link RunInfo} plus the timing a reporter measured; the input of every pure `render*` function. */
export interface ReportInfo extends RunInfo {
  /** When the run started, ISO 8601 in UTC. */
  startedAt: string;
  /** Wall-clock duration of the run in milliseconds. */
  durationMs: number;
  /** Where the run's time went (core/timings.ts), when the run measured it; the reporting phase is still 0 in it. */
  timings?: RunTimings;
  /** The shard of a sharded run these results are (`--shard`), with the run's stamp for `conformance merge`. */
  shard?: ShardStamp;
  /** A merged report's shards (`conformance merge`): their count and run stamp. */
  merged?: { shards: number; run: ShardRun };
}

/**
 * Measures a run for a reporter: `start()` in `onTestRunStart`, `stop(info)` in `onTestRunEnd`.
 * A clock that was never started counts from its creation, so a reporter driven without
 * `onTestRunStart` still reports a duration.
 */
export class RunClock {
  #startedAt = new Date();
  #startMs = performance.now();

  /** Marks the start of the run. */
  start(): void {
    this.#startedAt = new Date();
    this.#startMs = performance.now();
  }

  /** The report info for `run`, timed from the last `start()` (or the clock's creation) to now. */
  stop(run: RunInfo): ReportInfo {
    return { ...run, startedAt: this.#startedAt.toISOString(), durationMs: Math.round(performance.now() - this.#startMs) };
  }
}
