/**
 * What a cell of the operation x check matrix is given: the document and operation, the check, the
 * target and its client, the seeds, the baseline, and for operations that change state the maker
 * of fixtures and the shared write cases.
 * @see docs/decisions.md (Harness: "One test per operation x check", "Writes are cases on fixtures made for them")
 */
import type { LoadedSpec, Operation } from '../../core/spec/load.js';
import type { Target } from '../../core/target.js';
import type { Check, Exchange } from '../../core/types.js';
import type { ReproductionInfo } from '../../core/reproducer.js';
import type { Harvest } from '../../generators/query-case.js';
import type { Client } from '../client.js';
import type { BaselineEntry } from '../baseline.js';
import type { WriteCaseMaker } from '../write-cases.js';
import type { WriteEvidence } from './evidence.js';

/** Inputs of {@link runCell}. */
export interface CellInput {
  spec: LoadedSpec;
  operation: Operation;
  check: Check;
  target: Target;
  client: Client;
  harvest?: Harvest;
  /** Seed of this operation's property runs. */
  seed: number;
  /** The run's seed, printed in reproducers. */
  runSeed: number;
  /** What makes the run's failures reproducible as printed (the run context's); absent in unit tests. */
  reproduction?: ReproductionInfo;
  runs: number;
  /** Accepted deviations; matching failures are moved to `cell.accepted`. */
  baseline?: readonly BaselineEntry[];
  /**
   * Operations that change state: the maker of fixtures made for each case (engine/write-cases.ts).
   * Without it such an operation's valid cases are skipped for want of a fixture.
   */
  writes?: WriteCaseMaker;
  /** The one judging path, for exchanges sent past `client` (a burst): engine/judge.ts. */
  judge?: (operation: Operation, exchange: Exchange) => void;
  /**
   * The cases drawn for the operation's cells, by kind of evidence, seed and count: a read's checks
   * judge the same cases, drawn once. Shared by the cells of one operation in one suite (the same
   * document, seed and harvest); without it each cell draws its own.
   */
  draws?: Map<string, readonly unknown[]>;
  /** Operations that change state: the operation's shared write cases, sent once and judged by every `exchange` check. */
  writeEvidence?: () => Promise<WriteEvidence[]>;
}
