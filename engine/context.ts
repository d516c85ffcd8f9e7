/**
 * The run context: what `conformance run` hands to the suites in vitest's workers (through one
 * environment variable holding JSON, which every worker pool inherits).
 */
import type { AdapterSource } from '../core/adapter.js';
import { HarnessError } from '../core/errors.js';
import type { BaselineEntry } from './baseline.js';
import type { Target } from '../core/target.js';
import { secretsOf } from '../core/curl.js';
import type { FailureRun } from '../core/failure.js';
import type { ReproductionInfo } from '../core/reproducer.js';

/** Name of the environment variable that carries the run context. */
export const RUN_CONTEXT_ENV = 'CONFORMANCE_RUN_CONTEXT';

/** Everything the suites need to know about one run. */
export interface RunContext {
  target: Target;
  /** Absolute path of the OpenAPI document the run checks against. */
  specFile: string;
  /** Seed of every property run (printed, settable with --seed). */
  seed: number;
  /** Generated cases per operation and check (walks use a tenth of it, at least 3). */
  runs: number;
  /** Check ids to run; absent means all. */
  checks?: string[];
  /** operationIds to run; absent means all. */
  operations?: string[];
  /** Accepted deviations (`--baseline`). */
  baseline?: BaselineEntry[];
  /** The target adapter the stateful suites create in each worker; absent: scenarios that need one are skipped. */
  adapter?: AdapterSource;
  /** `--path`: the model path of a model-based failure, replayed by the one family the run selects. */
  path?: string;
  /** What makes the run's failures reproducible as printed: each failure's reproducer is made runnable where it is made (core/failure.ts). */
  reproduction?: ReproductionInfo;
  /**
   * `--shard`: the units of the check-driven suites this shard runs (`exchange:products:list`,
   * engine/shard.ts); absent, every operation. The stateful group runs whole or not at all.
   */
  shardUnits?: string[];
  /**
   * The target of the stateful group (the writes suite, scenarios, families) when it is not
   * `target`: the embedded reference serves the group from a second instance of the same seed, so
   * that the group runs beside the other suites instead of after them; absent, `target`.
   */
  statefulTarget?: Target;
  /** Where each worker writes its work totals for `--timings` (core/timings.ts); absent: not written. */
  timingsDir?: string;
}

/**
 * The run as the stateful group sees it: its own target when the run gave it one
 * ({@link RunContext.statefulTarget}), with the reproducers made against that target's address.
 */
export function statefulRunContext(run: RunContext): RunContext {
  const target = run.statefulTarget;
  if (!target) return run;
  return { ...run, target, ...(run.reproduction ? { reproduction: { ...run.reproduction, runBaseUrl: target.baseUrl } } : {}) };
}

/** The run's facts a failure is made with (core/failure.ts): its seed, the target's secrets and the reproduction facts. */
export function failureRunOf(run: Pick<RunContext, 'seed' | 'target' | 'reproduction'>): FailureRun {
  return { seed: run.seed, secrets: secretsOf(run.target), ...(run.reproduction ? { reproduction: run.reproduction } : {}) };
}

/**
 * Reads the run context of this process.
 * @throws HarnessError CNF_ERR_CONFIG_INVALID when the suites were started without `conformance run`
 */
export function readRunContext(env: NodeJS.ProcessEnv = process.env): RunContext {
  const raw = env[RUN_CONTEXT_ENV];
  if (!raw) {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `the conformance suites need a target: run them with \`conformance run\` (${RUN_CONTEXT_ENV} is not set)`);
  }
  try {
    return JSON.parse(raw) as RunContext;
  } catch (error) {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `${RUN_CONTEXT_ENV} is not valid JSON`, { cause: error });
  }
}

/** Derives a 32-bit seed for one operation from the run seed, so every operation gets its own cases. */
export function operationSeed(seed: number, operationId: string): number {
  let hash = seed | 0;
  for (let i = 0; i < operationId.length; i++) hash = Math.imul(hash ^ operationId.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
