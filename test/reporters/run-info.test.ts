import { describe, expect, test, vi } from 'vitest';
import { RunClock } from '../../reporters/run-info.js';

const RUN = { target: 'http://127.0.0.1:4010', specVersion: '2026-10', seed: 42 };

describe('RunClock', () => {
  test('times from start() to stop() and keeps the run info', () => {
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    try {
      vi.setSystemTime(new Date('2026-11-22T05:00:00.000Z'));
      const clock = new RunClock();
      vi.advanceTimersByTime(5000);
      clock.start();
      vi.advanceTimersByTime(3210);
      expect(clock.stop(RUN)).toEqual({ ...RUN, startedAt: '2026-11-22T05:00:05.000Z', durationMs: 3210 });
    } finally {
      vi.useRealTimers();
    }
  });

  test('a clock never started counts from its creation', () => {
    const info = new RunClock().stop(RUN);
    expect(info.durationMs).toBeGreaterThanOrEqual(0);
    expect(Number.isNaN(Date.parse(info.startedAt))).toBe(false);
  });
});
