// The judging thread of `conformance proxy` yields the CPU to the forwarding thread: on Linux it
// runs at nice 19, and the process's other threads (libuv's pool among them, which the judging
// thread's first file read could have created) keep their own priority.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { specPath } from '../../../core/spec/load.js';
import { WorkerJudge } from '../../../engine/observed/worker-judge.js';

/** The nice value of every thread of this process, from /proc (stat field 19, counted after the command name). */
function threads(): { tid: string; nice: number }[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is stat's third field (state): field n is fields[n - 3].
    return { tid, nice: Number(fields[19 - 3]) };
  });
}

describe.runIf(process.platform === 'linux')('the judging thread', () => {
  test('runs at nice 19, and no other thread of the process does', async () => {
    const before = new Set(threads().map((t) => t.tid));
    expect(threads().filter((t) => t.nice === 19)).toEqual([]);
    const judge = await WorkerJudge.start({ specFiles: [specPath('2026-10')] });
    try {
      const lowered = threads().filter((t) => t.nice === 19);
      expect(lowered).toHaveLength(1);
      // The one lowered is a thread the judge started, not one of the process's own.
      expect(before.has(lowered[0]!.tid)).toBe(false);
    } finally {
      await judge.close();
    }
  });
});
