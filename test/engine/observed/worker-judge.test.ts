// The judging thread of `conformance proxy` yields the CPU to the forwarding thread: on Linux it
// runs in the SCHED_IDLE class (util-linux's chrt), or at nice 19 where chrt is missing.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { specPath } from '../../../core/spec/load.js';
import { WorkerJudge } from '../../../engine/observed/worker-judge.js';

/** Linux's SCHED_IDLE policy number (sched.h). */
const SCHED_IDLE = 5;

/** Policy and nice value of every thread of this process, from /proc (stat fields 41 and 19, counted after the command name). */
function threads(): { tid: string; policy: number; nice: number }[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is stat's third field (state): field n is fields[n - 3].
    return { tid, policy: Number(fields[41 - 3]), nice: Number(fields[19 - 3]) };
  });
}

const hasChrt = (() => {
  try {
    execFileSync('chrt', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.runIf(process.platform === 'linux')('the judging thread', () => {
  test(hasChrt ? 'runs in SCHED_IDLE, and no other thread of the process does' : 'runs at nice 19 (chrt is missing), and no other thread of the process does', async () => {
    const before = new Set(threads().map((t) => t.tid));
    expect(threads().filter((t) => t.policy === SCHED_IDLE || t.nice === 19)).toEqual([]);
    const judge = await WorkerJudge.start({ specFiles: [specPath('2026-10')] });
    try {
      const lowered = threads().filter((t) => (hasChrt ? t.policy === SCHED_IDLE : t.nice === 19));
      expect(lowered).toHaveLength(1);
      // The one lowered is a thread the judge started, not one of the process's own.
      expect(before.has(lowered[0]!.tid)).toBe(false);
    } finally {
      await judge.close();
    }
  });
});
