/**
 * How the benchmark judges a row beside its ceiling (bench/ceiling-server.ts: a plain node:http
 * server answering the same bytes and doing nothing else). A row whose ceiling itself misses the
 * row's bar measures the machine (its network stack, its load), not the reference: it is reported
 * as bounded outside the process, with the ceiling's figure and the reference's idle share, and
 * neither passes nor fails the benchmark.
 * @see docs/performance.md (Rows bounded by the machine)
 */

/** A row's verdict: `pass` and `fail` are judged; `bounded` is not (the ceiling misses the bar too). */
export type RowVerdict = 'pass' | 'fail' | 'bounded';

/**
 * Judges a row: `pass` when the reference meets the bar (whatever the ceiling did: a bar met is
 * met), else `bounded` when the ceiling misses it as well, else `fail`.
 * @param referenceMeets whether the reference's figure meets the bar
 * @param ceilingMeets whether the ceiling's figure for the same answers meets the same bar
 */
export function rowVerdict(referenceMeets: boolean, ceilingMeets: boolean): RowVerdict {
  if (referenceMeets) return 'pass';
  return ceilingMeets ? 'fail' : 'bounded';
}
