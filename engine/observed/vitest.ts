/**
 * The vitest helper that makes an existing test suite a conformance suite with one line:
 * `useConformance()` at the top of a test file judges every exchange its tests make with
 * `fetch` (and with the undici dispatchers it hands out) by the checks of the proxy, and fails the
 * test whose traffic showed a finding, naming each with its reproducer.
 * @see docs/observed.md (From your own tests)
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { Dispatcher } from 'undici';
import type { Failure } from '../../core/types.js';
import type { RunResults } from '../results.js';
import { createObservedJudge, judgedFetch, judgingInterceptor, type ObservedDocuments } from './library.js';
import type { ObservedJudge, ObservedJudgeOptions, ObservedVerdict } from './judge.js';

/** Options of {@link useConformance}. */
export interface UseConformanceOptions extends ObservedDocuments, Omit<ObservedJudgeOptions, 'specs'> {
  /** Judge `globalThis.fetch` (default true). */
  fetch?: boolean;
  /** Fail a test on an undocumented request too (default true). */
  failOnUndocumented?: boolean;
}

/** What {@link useConformance} gives the test file. */
export interface ConformanceHandle {
  /** The dispatcher with every exchange judged: `request(url, { dispatcher: conformance.dispatcher(agent) })`. */
  dispatcher(dispatcher: Dispatcher): Dispatcher;
  /** Every failure seen in the file so far. */
  failures(): Failure[];
  /** The results of the file's traffic as a run's (for a reporter, `createReporters`). */
  results(): RunResults;
}

/**
 * The error that fails a test whose traffic showed findings: one line per failure (check,
 * operation, finding kind, message) and the curl that reproduces it; undefined for none.
 */
export function nonConformingTraffic(failures: readonly Failure[]): Error | undefined {
  if (failures.length === 0) return undefined;
  const lines = failures.map((f) => `${f.checkId} on ${f.operationId} (${f.kind}): ${f.message}\n  Reproduce with: ${f.reproduce.curl}`);
  return new Error(`the test's traffic does not conform (${failures.length} finding${failures.length === 1 ? '' : 's'}):\n${lines.join('\n')}`);
}

/**
 * Judges every exchange of the file's tests; a test whose exchanges showed a finding fails after
 * it ran (in `afterEach`), with the findings in its error. Call it once at the top of a test file.
 * @throws (in `afterEach`) an Error listing the findings of the test's traffic
 */
export function useConformance(options: UseConformanceOptions = {}): ConformanceHandle {
  let judge: ObservedJudge | undefined;
  let original: typeof fetch | undefined;
  const all: Failure[] = [];
  let current: Failure[] = [];
  const pending = new Set<Promise<void>>();
  const collect = (verdict: ObservedVerdict) => {
    const counted = options.failOnUndocumented === false ? verdict.failures.filter((f) => f.kind !== 'undocumented_operation') : verdict.failures;
    current.push(...counted);
    all.push(...counted);
  };
  beforeAll(async () => {
    const { fetch: _fetch, failOnUndocumented: _undocumented, spec, apiVersion, ...judgeOptions } = options;
    judge = await createObservedJudge({ ...(spec ? { spec } : {}), ...(apiVersion ? { apiVersion } : {}) }, judgeOptions);
  });
  beforeEach(() => {
    current = [];
    if (options.fetch !== false) {
      original = globalThis.fetch;
      globalThis.fetch = judgedFetch(judge!, collect, original, pending);
    }
  });
  afterEach(async () => {
    if (original) globalThis.fetch = original;
    original = undefined;
    await Promise.allSettled([...pending]);
    const error = nonConformingTraffic(current);
    if (error) throw error;
  });
  afterAll(() => {
    if (original) globalThis.fetch = original;
  });
  return {
    dispatcher: (dispatcher) => dispatcher.compose(judgingInterceptor({ judge: (exchange) => judge!.judge(exchange) }, collect)),
    failures: () => [...all],
    results: () => judge!.results(),
  };
}
