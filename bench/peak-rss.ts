/**
 * The peak resident memory of a process and its descendants while it runs, read from Linux's
 * /proc: each process's own high-water mark (`VmHWM` in /proc/PID/status, kept by the kernel, so
 * that a peak between two readings is not missed), summed over the processes of the tree. A run's
 * workers are threads of its process (vitest's `threads` pool), so the sum is that process's peak;
 * with child processes it is an upper bound (their peaks may not coincide).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** A watch on a process tree's peak RSS. */
export interface PeakRssWatch {
  /** Stops watching. @returns the peak in bytes, or undefined where there is no /proc (not Linux) or nothing was read */
  stop(): number | undefined;
}

/** The `VmHWM` of a process in bytes, or undefined once it has ended. */
function highWaterMark(pid: number): number | undefined {
  try {
    const found = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return found ? Number(found[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The processes whose parent is `pid` (read from /proc/PID/task/TID/children), and theirs. */
function descendants(pid: number): number[] {
  const found: number[] = [];
  const walk = (parent: number) => {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${parent}/task`);
    } catch {
      return;
    }
    for (const task of tasks) {
      let children: string;
      try {
        children = readFileSync(`/proc/${parent}/task/${task}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const child of children.split(' ').filter(Boolean).map(Number)) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

/**
 * Reads the high-water marks of `pid` and its descendants every `intervalMs` milliseconds until
 * stopped, keeping each process's largest; call {@link PeakRssWatch.stop} just before the process
 * ends (a process gone is no longer readable: its last reading counts).
 * @param intervalMs milliseconds between readings (default 100)
 */
export function watchPeakRss(pid: number, intervalMs = 100): PeakRssWatch {
  const peaks = new Map<number, number>();
  const read = () => {
    for (const one of [pid, ...descendants(pid)]) {
      const mark = highWaterMark(one);
      if (mark !== undefined) peaks.set(one, Math.max(peaks.get(one) ?? 0, mark));
    }
  };
  read();
  const timer = setInterval(read, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      read();
      return peaks.size === 0 ? undefined : [...peaks.values()].reduce((sum, bytes) => sum + bytes, 0);
    },
  };
}
