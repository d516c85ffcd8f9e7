/**
 * `conformance check FILE.har`: judges recorded traffic offline (no network) with the checks an
 * observed exchange can show and writes the same reports as a run.
 * @see docs/observed.md (conformance check)
 */
import { ObservedJudge } from '../engine/observed/judge.js';
import { readHar } from '../engine/observed/har.js';
import type { ExitCode, RunResults } from '../engine/results.js';
import { RunClock } from '../reporters/index.js';
import { observedRoles, observedSpecs, reportObserved, type ObservedCommandOptions } from './observed.js';

/** Options of {@link checkHar}. */
export interface CheckHarOptions extends ObservedCommandOptions {
  /** The HAR 1.2 file. */
  file: string;
}

/** What {@link checkHar} came to. */
export interface CheckHarOutcome {
  exitCode: ExitCode;
  results: RunResults;
  /** Entries judged. */
  exchanges: number;
}

/**
 * Reads a HAR file, judges every entry in order (as the proxy judged them live) and reports.
 * @returns exit code 1 when a finding was seen (a HAR of another API: every request
 *   `undocumented_operation`), 0 when none, 2 for a harness problem alone
 * @throws HarnessError CNF_ERR_HAR_INVALID for a file that is unreadable, cut short or not HAR 1.2;
 *   CNF_ERR_SPEC_INVALID, CNF_ERR_CONFIG_INVALID as a run does
 */
export async function checkHar(options: CheckHarOptions): Promise<CheckHarOutcome> {
  const clock = new RunClock();
  const exchanges = await readHar(options.file);
  const specs = await observedSpecs(options);
  const origin = exchanges[0] ? new URL(exchanges[0].request.url).origin : 'http://recorded.invalid';
  const judge = new ObservedJudge({ specs, roles: await observedRoles(options, origin) });
  for (const exchange of exchanges) judge.judge(exchange);
  const results = judge.results();
  const exitCode = await reportObserved(results, specs[0]!, clock, { ...options, target: `${options.file} (${origin})`, title: `conformance check ${options.file}` });
  return { exitCode, results, exchanges: exchanges.length };
}
