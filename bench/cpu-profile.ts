/**
 * Where a process's time goes under load, for the benchmark: a V8 CPU profile (the inspector's
 * `Profiler` domain, as `node --cpu-prof` writes it) summarized as its top frames by self time,
 * and the share of its samples that found the process idle; and, for any process on Linux, its CPU
 * time from /proc, to set beside the wall-clock time of a load.
 * @see docs/performance.md (Rows bounded by the machine); https://chromedevtools.github.io/devtools-protocol/tot/Profiler/#type-Profile
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A V8 CPU profile (`Profiler.Profile`): `startTime` and `endTime` in microseconds; `samples` are node ids. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; hitCount?: number; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** One frame of {@link summarizeProfile}: a function where samples landed (its self time). */
export interface ProfileFrame {
  /** The function's name, `(anonymous)` when it has none, or V8's `(garbage collector)`, `(program)`. */
  name: string;
  /** `path:line` (1-based; the path relative to `root` when under it, from `node_modules/` for a dependency); for a frame without a script, `native, from CALLER path:line` (its nearest caller with one) or `native`. */
  location: string;
  /** Milliseconds of samples that landed in the frame itself. */
  selfMs: number;
  /** `selfMs` over the profile's busy (not idle) time, 0 to 1. */
  busyShare: number;
}

/** What {@link summarizeProfile} gives: the profile's span, its idle share and its top frames. */
export interface ProfileSummary {
  /** Milliseconds from the profile's start to its end. */
  totalMs: number;
  /** Share of samples that were `(idle)`: the process waited on its sockets, 0 to 1. */
  idleShare: number;
  frames: ProfileFrame[];
}

/**
 * Sums a profile's samples by frame (function, script and line), each sample weighing the
 * profile's span over its number of samples, and keeps the `top` frames by self time, the
 * `(idle)` and `(root)` nodes left out of them.
 * @param root a folder that frame paths are shown relative to (the repository)
 */
export function summarizeProfile(profile: CpuProfile, root: string, top = 10): ProfileSummary {
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  const byNode = new Map<number, number>();
  if (profile.samples && profile.samples.length > 0) for (const id of profile.samples) byNode.set(id, (byNode.get(id) ?? 0) + 1);
  else for (const node of profile.nodes) if (node.hitCount) byNode.set(node.id, node.hitCount);
  const samples = [...byNode.values()].reduce((sum, n) => sum + n, 0);
  const perSample = samples > 0 ? totalMs / samples : 0;
  const frames = new Map<string, { name: string; location: string; count: number }>();
  const parents = new Map<number, CpuProfile['nodes'][number]>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node);
  const where = (callFrame: CpuProfile['nodes'][number]['callFrame']) => {
    const file = callFrame.url.startsWith('file://') ? decodeURIComponent(new URL(callFrame.url).pathname) : callFrame.url;
    const dependency = file.lastIndexOf(`${path.sep}node_modules${path.sep}`);
    const shown = file.startsWith(`${root}${path.sep}`) ? path.relative(root, file) : dependency >= 0 ? file.slice(dependency + 1) : file;
    return file === '' ? '' : `${shown}:${callFrame.lineNumber + 1}`;
  };
  let idle = 0;
  for (const node of profile.nodes) {
    const count = byNode.get(node.id) ?? 0;
    if (count === 0) continue;
    const { functionName } = node.callFrame;
    if (functionName === '(idle)') {
      idle += count;
      continue;
    }
    if (functionName === '(root)') continue;
    // A native frame (a binding such as writeSync) says little alone: name the nearest caller that has a script.
    let shown = where(node.callFrame);
    if (shown === '') {
      let caller = parents.get(node.id);
      while (caller && where(caller.callFrame) === '') caller = parents.get(caller.id);
      shown = caller ? `native, from ${caller.callFrame.functionName || '(anonymous)'} ${where(caller.callFrame)}` : 'native';
    }
    const name = functionName || '(anonymous)';
    const key = `${name} ${shown}`;
    const frame = frames.get(key) ?? { name, location: shown, count: 0 };
    frame.count += count;
    frames.set(key, frame);
  }
  const busy = samples - idle;
  return {
    totalMs,
    idleShare: samples > 0 ? idle / samples : 0,
    frames: [...frames.values()]
      .sort((a, b) => b.count - a.count)
      .slice(0, top)
      .map((f) => ({ name: f.name, location: f.location, selfMs: f.count * perSample, busyShare: busy > 0 ? f.count / busy : 0 })),
  };
}

let ticksPerSecond: number | undefined;

/**
 * The CPU time (user and system) a process has used so far, in milliseconds, from
 * `/proc/PID/stat` (fields 14 and 15, in clock ticks; proc(5)).
 * @returns undefined where /proc is not there (not Linux) or the process is gone
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/**
 * The share of a span of wall-clock time a process spent off the CPU (0 to 1): 1 less its CPU
 * time over the span, clamped (a process on two threads can use more CPU time than wall time).
 * @param cpuMs the process's CPU milliseconds during the span
 * @param wallMs the span, milliseconds
 */
export function idleShare(cpuMs: number, wallMs: number): number {
  if (wallMs <= 0) return 0;
  return Math.min(1, Math.max(0, 1 - cpuMs / wallMs));
}
