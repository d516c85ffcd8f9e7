// A CPU profile is summarized as its top frames by self time, with paths relative to the
// repository and 1-based lines, and its idle share; the idle share of a load from CPU time and wall time.
// @see bench/cpu-profile.ts
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { idleShare, summarizeProfile, type CpuProfile } from '../../bench/cpu-profile.js';

const root = path.resolve('/repo');
const frame = (id: number, functionName: string, url = '', lineNumber = -1) => ({ id, callFrame: { functionName, url, lineNumber, columnNumber: 0 } });

describe('summarizeProfile', () => {
  const profile: CpuProfile = {
    nodes: [frame(1, '(root)'), frame(2, '(idle)'), frame(3, 'serialize', `file://${root}/server/listing.ts`, 41), frame(4, '', `file://${root}/server/app.ts`, 9), frame(5, '(garbage collector)'), frame(6, 'serialize', `file://${root}/server/listing.ts`, 41)],
    startTime: 0,
    endTime: 10_000,
    // 10 samples over 10 ms: 4 idle, 3 + 1 in serialize (two nodes of the same frame), 1 anonymous, 1 GC.
    samples: [2, 2, 2, 2, 3, 3, 3, 6, 4, 5],
  };

  it('sums samples by frame, largest first, without (idle) and (root), with path:line relative to the root', () => {
    const summary = summarizeProfile(profile, root, 10);
    expect(summary.totalMs).toBe(10);
    expect(summary.idleShare).toBeCloseTo(0.4);
    expect(summary.frames[0]).toEqual({ name: 'serialize', location: 'server/listing.ts:42', selfMs: 4, busyShare: 4 / 6 });
    expect(summary.frames.map((f) => f.name).sort()).toEqual(['(anonymous)', '(garbage collector)', 'serialize']);
    expect(summary.frames.find((f) => f.name === '(garbage collector)')!.location).toBe('native');
  });

  it('names the nearest caller with a script of a native frame', () => {
    const native: CpuProfile = {
      nodes: [{ ...frame(1, '(root)'), children: [2] }, { ...frame(2, 'log', `file://${root}/server/log.ts`, 4), children: [3] }, { ...frame(3, 'write'), children: [4] }, frame(4, 'writeSync')],
      startTime: 0,
      endTime: 1000,
      samples: [4, 4],
    };
    expect(summarizeProfile(native, root).frames).toEqual([{ name: 'writeSync', location: 'native, from log server/log.ts:5', selfMs: 1, busyShare: 1 }]);
  });

  it('keeps only the top frames asked for', () => {
    expect(summarizeProfile(profile, root, 1).frames).toHaveLength(1);
  });

  it('reads hit counts when the profile has no samples', () => {
    const counted: CpuProfile = { nodes: [{ ...frame(1, '(idle)'), hitCount: 1 }, { ...frame(2, 'f', `file://${root}/a.ts`, 0), hitCount: 3 }], startTime: 0, endTime: 4000 };
    const summary = summarizeProfile(counted, root);
    expect(summary.idleShare).toBeCloseTo(0.25);
    expect(summary.frames).toEqual([{ name: 'f', location: 'a.ts:1', selfMs: 3, busyShare: 1 }]);
  });
});

describe('idleShare', () => {
  it.each([
    [250, 1000, 0.75],
    [0, 1000, 1],
    [1500, 1000, 0],
    [10, 0, 0],
  ])('%d ms of CPU over %d ms of wall time is %d idle', (cpu, wall, want) => {
    expect(idleShare(cpu, wall)).toBeCloseTo(want);
  });
});
