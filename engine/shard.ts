/**
 * Shards of a run (`conformance run --shard K/N`): the run's work cut into units, each unit given
 * to one of N shards so that every shard costs about the same. A unit is one operation of one
 * check-driven suite (the `describe` block of that operation in that suite file; the writes
 * suite's too, each of its cases on a fixture made for it), or the stateful group: the stateful
 * scenarios and the model-based families, kept whole because they change the target's state in an
 * order of their own. What changes state (the writes suite, the group) runs after the other suites
 * of its shard, as in a whole run.
 *
 * The cut depends only on the document, the selected suites, checks and operations, and `--runs`,
 * never on timings measured on a machine, so that every CI job computes the same cut for the same
 * seed, document and options. Vitest's own `--shard` cuts by test file; a run has six
 * check-driven files of very unequal cost (exchange and pagination hold most of the work), so it
 * could not balance them: the cut is made here, per operation, and vitest runs what a shard holds.
 * @see docs/usage.md (Sharded runs); docs/decisions.md (Harness: "Shards cut per operation")
 */
import { createHash } from 'node:crypto';
import type { LoadedSpec, Operation } from '../core/spec/load.js';
import { SAFE_METHODS } from '../core/operation-needs.js';
import { HarnessError } from '../core/errors.js';
import type { Check, CheckNeeds } from '../core/types.js';
import { STATEFUL_SUITE, SUITE_NEEDS } from './suites.js';

/** Which part of a run this process runs: shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** Most shards a run is cut into. */
export const MAX_SHARDS = 64;

/**
 * Parses `--shard K/N`.
 * @throws HarnessError CNF_ERR_CONFIG_INVALID unless K and N are integers with 1 <= K <= N <= {@link MAX_SHARDS}
 */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = match ? Number(match[1]) : NaN;
  const count = match ? Number(match[2]) : NaN;
  if (!match || index < 1 || count < 1 || index > count || count > MAX_SHARDS) {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--shard must be K/N with 1 <= K <= N <= ${MAX_SHARDS} (e.g. 2/4), not "${text}"`);
  }
  return { index, count };
}

/** The unit id of the stateful group (the stateful scenarios and the model-based families). */
export const STATEFUL_UNIT = STATEFUL_SUITE;

/** The unit id of an operation of a check-driven suite: `exchange:products:list`. */
export function unitId(suite: string, operationId: string): string {
  return `${suite}:${operationId}`;
}

/** A unit of a run's work and its estimated cost (milliseconds of a test's time on the bundled run, an estimate, not a measurement). */
export interface ShardUnit {
  id: string;
  cost: number;
}

/**
 * Estimated milliseconds of one applicable cell by the evidence it needs: a fixed part and a part
 * per run (`--runs`; per walk for `walk`, which makes a tenth of the runs, at least 3), fitted to
 * the cells' durations of the bundled run against the embedded reference at 5 and 50 runs
 * (docs/performance.md, Sharded runs). Only their ratios matter.
 */
const CELL_COST: Record<CheckNeeds, { fixed: number; perRun: number }> = {
  exchange: { fixed: 8, perRun: 0.25 },
  walk: { fixed: 180, perRun: 52 },
  defaults: { fixed: 44, perRun: 2.1 },
  negative: { fixed: 5.5, perRun: 1.4 },
  not_found: { fixed: 5, perRun: 0 },
  anonymous: { fixed: 8, perRun: 0 },
  invalid_credentials: { fixed: 4, perRun: 0 },
  no_scope: { fixed: 5, perRun: 0 },
  reader: { fixed: 10, perRun: 0 },
  other_org: { fixed: 7, perRun: 0 },
  roles: { fixed: 10, perRun: 0 },
  burst: { fixed: 1300, perRun: 0 },
  // Not fitted yet: estimated as the cells of the same number of requests (defaults sends two lists, repeat two reads).
  two_shapes: { fixed: 44, perRun: 2.1 },
  repeat: { fixed: 8, perRun: 0.5 },
};
/** Cost of an operation's block besides its cells (the values harvested for its filters). */
const BLOCK_COST = 10;
/** Cost of the stateful scenarios and model-based families: fixed, and per run. */
const STATEFUL_COST = { fixed: 1800, perRun: 30 };

function cellCost(needs: CheckNeeds, runs: number): number {
  const { fixed, perRun } = CELL_COST[needs];
  return fixed + perRun * (needs === 'walk' ? Math.max(3, Math.round(runs / 10)) : runs);
}

/** What {@link shardUnits} cuts: the run's document, suites, checks and operations as `conformance run` resolved them. */
export interface ShardInput {
  spec: LoadedSpec;
  /** The suites that run (`--suites`, less those with nothing selected). */
  suites: readonly string[];
  /** The selected checks (`--checks`). */
  checks: readonly Check[];
  /** The selected operations of the document (`--operations`). */
  operations: readonly Operation[];
  runs: number;
}

/**
 * The units of a run, in a fixed order (suites as listed, operations in document order, the
 * stateful group last), each with its estimated cost: every operation of every check-driven suite
 * (the writes suite included) that declares a test for it, and the stateful group when the
 * stateful suite runs.
 */
export function shardUnits(input: ShardInput): ShardUnit[] {
  const units: ShardUnit[] = [];
  let statefulCost = 0;
  let stateful = false;
  for (const suite of input.suites) {
    if (suite === STATEFUL_SUITE) {
      stateful = true;
      statefulCost += STATEFUL_COST.fixed + STATEFUL_COST.perRun * input.runs;
      continue;
    }
    const needs: readonly CheckNeeds[] | undefined = SUITE_NEEDS[suite as keyof typeof SUITE_NEEDS];
    if (!needs) continue;
    const checks = input.checks.filter((c) => needs.includes(c.needs));
    const writes = suite === 'writes';
    for (const operation of input.operations) {
      if (SAFE_METHODS.has(operation.method) === writes) continue;
      const applicable = checks.filter((c) => (c.appliesTo?.({ spec: input.spec, operation }) ?? true) === true);
      const cost = BLOCK_COST + applicable.reduce((sum, c) => sum + cellCost(c.needs, input.runs), 0);
      if (checks.length === 0) continue;
      units.push({ id: unitId(suite, operation.operationId), cost });
    }
  }
  if (stateful) units.push({ id: STATEFUL_UNIT, cost: statefulCost });
  return units;
}

/**
 * Cuts units into `count` shards: the costliest unit first, each to the shard that costs least so
 * far (the lower index on a tie), units of equal cost in their given order. The same units always
 * give the same cut.
 * @returns per shard (index 0 is shard 1), its units' ids in the units' given order
 */
export function assignShards(units: readonly ShardUnit[], count: number): string[][] {
  const order = units.map((unit, at) => ({ unit, at })).sort((a, b) => b.unit.cost - a.unit.cost || a.at - b.at);
  const loads = Array.from({ length: count }, () => 0);
  const owner = new Map<string, number>();
  for (const { unit } of order) {
    let best = 0;
    for (let i = 1; i < count; i++) if (loads[i]! < loads[best]!) best = i;
    loads[best]! += unit.cost;
    owner.set(unit.id, best);
  }
  return Array.from({ length: count }, (_, i) => units.filter((unit) => owner.get(unit.id) === i).map((unit) => unit.id));
}

/**
 * What makes two shards parts of the same run, stamped on each shard's reports: the seed, the
 * document's text (its SHA-256), the options that change which cells run and how, and the count.
 * `conformance merge` refuses shards whose stamps differ.
 */
export interface ShardRun {
  seed: number;
  /** SHA-256 of the document's text, hex. */
  document: string;
  /** The options that decide the cells, as given (absent ones left out), and those that decide the exit code. */
  options: Record<string, unknown>;
}

/** SHA-256 of a document's text, hex: the same document on any machine gives the same digest. */
export function documentDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The stamp of a shard of a sharded run, in each of its reports (report.json `shard`). */
export interface ShardStamp extends Shard {
  run: ShardRun;
  /** The units this shard ran (operation blocks of suites, `stateful`). */
  units: string[];
}
