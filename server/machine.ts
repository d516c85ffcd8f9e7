/**
 * Declarative state machines: a resource's transition table names, for each transition, the states
 * it may start from, the state it leads to and the events it emits. Resources fire transitions
 * through {@link planTransition}; handlers never assign a status themselves. Stateful suites may
 * import the tables (never the handlers), so that a bug in a handler cannot pass its own test.
 * @see docs/design.md (Reference server: explicit transition tables per resource)
 */
import { fail, ok, type Result } from './result.js';

/** One transition: from any of `from` to `to`, emitting `events` in order. */
export interface Transition<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
  readonly events: readonly string[];
}

/** A resource's transitions by name. */
export type TransitionTable<S extends string, N extends string> = Readonly<Record<N, Transition<S>>>;

/** Why a transition cannot fire: the record is in a state the transition does not start from. */
export interface TransitionRefused<S extends string> {
  code: 'TRANSITION_NOT_ALLOWED';
  transition: string;
  from: S;
  allowed: readonly S[];
}

/**
 * Checks that `name` may fire from `current`.
 * @returns the transition, or the refusal when `current` is not one of its `from` states
 */
export function planTransition<S extends string, N extends string>(table: TransitionTable<S, N>, name: N, current: S): Result<Transition<S>, TransitionRefused<S>> {
  const transition = table[name];
  if (!transition.from.includes(current)) return fail({ code: 'TRANSITION_NOT_ALLOWED', transition: name, from: current, allowed: transition.from });
  return ok(transition);
}
