// The harness's peak RSS is read from the kernel's high-water mark of the run's process and its
// children: a peak between two readings counts, and so does a child's.
// @see bench/peak-rss.ts
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { watchPeakRss } from '../../bench/peak-rss.js';

const MIB = 2 ** 20;
// Holds 96 MiB for 50 ms, drops and collects it (its RSS falls back), then waits to be killed; PARENT has a child do it.
const HOLDER = "globalThis.held = Buffer.alloc(96 * 1024 * 1024, 1); setTimeout(() => { globalThis.held = undefined; globalThis.gc?.(); process.stdout.write('done\\n'); }, 50); setInterval(() => {}, 1000);";
const PARENT = `const { spawn } = require('node:child_process'); const c = spawn(process.execPath, ['--expose-gc', '-e', ${JSON.stringify(HOLDER)}], { stdio: ['ignore', 'inherit', 'ignore'] }); process.on('SIGTERM', () => { c.kill(); process.exit(0); }); setInterval(() => {}, 1000);`;

/** Starts `node -e code`, watches it from its start (every 500 ms: the peak comes between two readings) until it says done, then stops it. */
async function peakOf(code: string): Promise<number | undefined> {
  const child = spawn(process.execPath, ['--expose-gc', '-e', code], { stdio: ['ignore', 'pipe', 'ignore'] });
  const watch = watchPeakRss(child.pid!, 500);
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const peak = watch.stop();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  return peak;
}

describe.runIf(process.platform === 'linux')('watchPeakRss', () => {
  it("keeps a process's peak, though it came and went between two readings", async () => {
    expect(await peakOf(HOLDER)).toBeGreaterThan(96 * MIB);
  });

  it("adds its children's peaks", async () => {
    expect(await peakOf(PARENT)).toBeGreaterThan(96 * MIB);
  });
});
