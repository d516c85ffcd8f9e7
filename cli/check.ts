/**
 * `conformance check FILE.har`: judges recorded traffic offline (no network) with the checks an
 * observed exchange can show and writes the same reports as a run. A browser's recording holds
 * the page's own requests too: they are set aside as not API traffic, counted and listed, never
 * judged (engine/observed/api-traffic.ts).
 * @see docs/observed.md (conformance check, Not API traffic)
 */
import { HarnessError } from '../core/errors.js';
import { apiOriginsOf } from '../engine/observed/api-traffic.js';
import { ObservedJudge } from '../engine/observed/judge.js';
import { readHar } from '../engine/observed/har.js';
import type { ExitCode, RunResults } from '../engine/results.js';
import { RunClock } from '../reporters/index.js';
import { observedRoles, observedSpecs, reportObserved, type ObservedCommandOptions } from './observed.js';

/** Options of {@link checkHar}. */
export interface CheckHarOptions extends ObservedCommandOptions {
  /** The HAR 1.2 file. */
  file: string;
  /**
   * The API's base URL (`https://sandbox.example.com/api`): its origin is the API's, a request to
   * any other is not API traffic, and its path is a base path of the document's paths. Default:
   * the origins where a request matches an operation (docs/decisions.md, Observed traffic).
   */
  baseUrl?: string;
}

/** What {@link checkHar} came to. */
export interface CheckHarOutcome {
  exitCode: ExitCode;
  results: RunResults;
  /** Entries read (those set aside as not API traffic included). */
  exchanges: number;
}

/**
 * Reads a HAR file, judges every entry in order (as the proxy judged them live) and reports.
 * The API's origins are `baseUrl`'s, else every origin where a request that is not a browser's
 * own matches an operation (engine/observed/api-traffic.ts `apiOriginsOf`).
 * @returns exit code 1 when a finding was seen (a HAR of another API: every request
 *   `undocumented_operation`), 0 when none, 2 for a harness problem alone
 * @throws HarnessError CNF_ERR_HAR_INVALID for a file that is unreadable, cut short or not HAR 1.2;
 *   CNF_ERR_CONFIG_INVALID for a `baseUrl` that is not an http(s) URL; CNF_ERR_SPEC_INVALID,
 *   CNF_ERR_CONFIG_INVALID as a run does
 */
export async function checkHar(options: CheckHarOptions): Promise<CheckHarOutcome> {
  const clock = new RunClock();
  const base = options.baseUrl === undefined ? undefined : baseUrlOf(options.baseUrl);
  const exchanges = await readHar(options.file);
  const specs = await observedSpecs(options);
  const basePaths = base ? [base.pathname] : [];
  const origins = base ? [base.origin] : apiOriginsOf(exchanges, specs);
  const origin = origins?.[0] ?? (exchanges[0] ? new URL(exchanges[0].request.url).origin : 'http://recorded.invalid');
  const judge = new ObservedJudge({ specs, basePaths, ...(origins ? { origins } : {}), roles: await observedRoles(options, origin) });
  for (const exchange of exchanges) judge.judge(exchange);
  const results = judge.results();
  const exitCode = await reportObserved(results, specs[0]!, clock, { ...options, target: `${options.file} (${origin})`, title: `conformance check ${options.file}` });
  return { exitCode, results, exchanges: exchanges.length };
}

/** @throws HarnessError CNF_ERR_CONFIG_INVALID for a value that is not an http(s) URL */
function baseUrlOf(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--base-url ${value} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--base-url must be an http or https URL, not ${url.protocol}`);
  return url;
}
