// Where a run's time goes: each check's time is kept apart (a part of judging), summed over the
// workers' files, and the largest are printed; a file written before the checks were timed still reads.
// The checks timed here are made up: the unit tests share a worker's totals (isolate: false).
// @see core/timings.ts
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { flushWork, formatTimings, readWork, timedCheck, WORK_PHASES, type RunTimings } from '../../core/timings.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'timings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('timedCheck', () => {
  it("returns the check's findings and adds its time to the check's total, which readWork sums over the workers' files", () => {
    const spin = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until);
      return ['finding'];
    };
    expect(timedCheck('timings_test_check_a', () => spin(3))).toEqual(['finding']);
    timedCheck('timings_test_check_a', () => spin(2));
    flushWork(dir);
    writeFileSync(path.join(dir, 'timings-2-0.json'), JSON.stringify({ ms: { judging: 10 }, checks: { timings_test_check_a: 1, timings_test_check_b: 4 }, exchanges: 7 }));
    // A worker of an older harness wrote no checks.
    writeFileSync(path.join(dir, 'timings-3-0.json'), JSON.stringify({ ms: { judging: 1 }, exchanges: 1 }));
    const work = readWork(dir);
    expect(work.workers).toBe(3);
    expect(work.checks.timings_test_check_a).toBeGreaterThanOrEqual(1 + 5);
    expect(work.checks.timings_test_check_b).toBe(4);
    expect(Object.keys(work.ms)).toEqual([...WORK_PHASES]);
    expect(work.ms.judging).toBeGreaterThanOrEqual(11);
  });
});

describe('formatTimings', () => {
  it('prints every phase of an exchange and the three checks that took the most of judging', () => {
    const timings: RunTimings = {
      totalMs: 1000,
      wall: { startup: 100, setup: 100, suites: 700, reporting: 100 },
      work: { document: 1, generation: 2, sending: 3, waiting: 4, reading: 5, parsing: 6, judging: 70 },
      checks: { a: 10, b: 30, c: 20, d: 5 },
      workers: 1,
      exchanges: 10,
      exchangesPerSecond: 14.3,
    };
    const text = formatTimings(timings);
    for (const phase of WORK_PHASES) expect(text).toMatch(new RegExp(`^    ${phase} +[\\d,]+ ms`, 'm'));
    expect(text).toMatch(/judging +70 ms {2}running the checks; most in b 30 ms, c 20 ms, a 10 ms$/m);
  });
});
