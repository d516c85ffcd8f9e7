/**
 * What every model-based command shares: fast-check's `AsyncCommand` shape (`check(model)`,
 * `run(model, real)`, `toString()`), with `toString()` giving the command as it last ran, resolved
 * against the model (`claimSeat(s1)[reused]`, not `claimSeat(#3)`), so that a shrunk
 * counterexample reads as a story. Each run also begins a step of the {@link Real} under that name.
 * @see https://fast-check.dev/docs/advanced/model-based-testing/
 */
import type fc from 'fast-check';
import type { CommandEnv, Real } from './real.js';

/** A command of a family whose model is `M`. */
export abstract class ModelCommand<M extends object> implements fc.AsyncCommand<M, Real> {
  #shown: string | undefined;

  /** Whether the command can run on this model (fast-check skips it otherwise). */
  abstract check(model: Readonly<M>): boolean;

  /** The command as it will run on this model: its name, the labels it acts on, and `[marker]` for an expected refusal. */
  abstract describe(model: Readonly<M>): string;

  /** Sends the command to the real system, judges the answers against the model, and moves the model on. */
  protected abstract execute(model: M, real: Real): Promise<void>;

  /** The name before any run (`claimSeat(#3)`): the drawn index, since no label is known yet. */
  protected abstract get name(): string;

  async run(model: M, real: Real): Promise<void> {
    this.#shown = this.describe(model);
    real.begin(this.#shown);
    await this.execute(model, real);
  }

  toString(): string {
    return this.#shown ?? this.name;
  }
}

/** The arbitraries of a family's commands for one target: commands the target cannot run are left out. */
export type CommandArbitraries<M extends object> = (env: CommandEnv) => fc.Arbitrary<ModelCommand<M>>[];
