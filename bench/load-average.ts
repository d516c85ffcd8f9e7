/**
 * The machine's load when a row ran: the figures of a benchmark move with what else runs on the
 * machine, so every row prints the load it ran under beside them.
 */
import os from 'node:os';

/**
 * The 1-minute load average (runnable processes, averaged by the kernel over the last minute), as
 * `load average 1.87`; `load average unknown` where the platform has none (Windows gives 0).
 */
export function loadAverage(): string {
  const [oneMinute] = os.loadavg();
  return os.platform() === 'win32' || oneMinute === undefined ? 'load average unknown' : `load average ${oneMinute.toFixed(2)}`;
}
