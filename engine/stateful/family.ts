/**
 * A family of model-based commands: its data ({@link FamilyInfo}), the arbitraries of its commands
 * for a target, and how one command sequence starts (a fresh model, read from the target where the
 * model needs to know what exists) and ends (what it changed on lasting fixtures put back).
 */
import type { Skip } from '../../core/skips.js';
import type { CommandArbitraries } from './command.js';
import type { FamilyInfo } from './registry.js';
import type { Real } from './real.js';

/** A family whose model is `M`. */
export interface Family<M extends object> extends FamilyInfo {
  /** Most sequences one run draws, where each uses up something of the target's that does not come back (customers deleted, free seats). */
  maxSequences?: number;
  /** The arbitraries of its commands, given what the target offers (roles, adapter capabilities). */
  commands: CommandArbitraries<M>;
  /** A fresh model for one sequence; may read the target (what the product grants now, which customers may be deleted). */
  setup(real: Real): Promise<M>;
  /** Puts back what the sequence changed on lasting fixtures; called after every sequence, failed or not. */
  teardown?(real: Real): Promise<void>;
  /**
   * Reads the family's state back from the target (the differential mode does it after every
   * command, so that a difference in state shows at the step that caused it).
   */
  readBack?(model: Readonly<M>, real: Real): Promise<void>;
  /** Why the family cannot run against this target beyond its roles, fixtures and capabilities (a skip with its kind and fix), or undefined. */
  whyNot?(real: Real): Promise<Skip | undefined>;
}
