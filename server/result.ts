/**
 * Expected failure as a value: functions that can fail in normal use (an unknown id, a transition
 * that is not allowed) return a {@link Result} instead of throwing.
 * @see docs/architecture.md (a failure is data)
 */

/** Success with a value, or failure with an error. */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

/** A success. */
export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** A failure. */
export function fail<E>(error: E): { ok: false; error: E } {
  return { ok: false, error };
}
