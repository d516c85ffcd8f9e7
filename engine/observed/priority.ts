/**
 * Thread priorities of `conformance proxy` on Linux: forwarding comes first. The judging threads
 * (engine/observed/judge-worker.ts) lower themselves to {@link JUDGE_NICE}, and the command lowers
 * V8's helper threads to the same ({@link lowerHelperThreads}).
 * @see docs/decisions.md (Observed traffic)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The judging threads' nice value on Linux (0 normal, 19 lowest). */
export const JUDGE_NICE = 19;

/** V8's helper threads' name on Linux (`/proc/<pid>/task/<tid>/comm`). */
const V8_HELPER_THREAD = 'V8Worker';

/**
 * Lowers V8's helper threads of this process to nice 19, the judging threads' own (engine/observed/
 * judge-worker.ts), on Linux; elsewhere does nothing. Those threads collect garbage and compile
 * for every thread of the process, and most of that work is the judging threads': at nice 0 it
 * took the CPU from the forwarding thread, the target and the client in bursts, and the proxy's
 * p99 with it (docs/performance.md, "The proxy's p99, measured in turns"). Only for
 * a process that is the proxy command: the nice value cannot be raised back without privileges.
 * @returns the threads lowered (0 where there are none or the call is not allowed)
 */
export function lowerHelperThreads(): number {
  if (process.platform !== 'linux') return 0;
  let lowered = 0;
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return 0;
  }
  for (const tid of tids) {
    try {
      if (readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() !== V8_HELPER_THREAD) continue;
      setPriority(Number(tid), JUDGE_NICE);
      lowered++;
    } catch {
      // Gone, or not allowed: left as it is.
    }
  }
  return lowered;
}
