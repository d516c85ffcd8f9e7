// A run cut by SIGTERM or SIGINT (a CI job's timeout, Ctrl+C) still writes its reports, with what
// failed before the cut, marked incomplete, and exits 143 or 130. The real command line runs in a
// child process against the chaos target: subscriptions:list resets every connection (its cells
// fail at once), then refunds:list drips a body that never ends; the signal is sent once the first
// refunds request arrived.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { startChaosTarget, type ChaosTarget } from './chaos-target.js';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/conformance.js');

describe('an interrupted run', () => {
  let chaos: ChaosTarget | undefined;
  let outputDir: string | undefined;
  afterEach(async () => {
    await chaos?.close();
    if (outputDir) rmSync(outputDir, { recursive: true, force: true });
  });

  test.each([
    ['SIGTERM', 'the process', 143],
    ['SIGINT', 'the process', 130],
    // Ctrl+C: the terminal signals every process of the group, vitest's workers included.
    ['SIGINT', 'its process group', 130],
  ] as const)('%s to %s: reports written, marked incomplete, exit %i', async (signal, to, exitCode) => {
    chaos = await startChaosTarget();
    outputDir = mkdtempSync(path.join(os.tmpdir(), 'interrupt-report-'));
    // A long timeout: the request in flight at the signal is cut by the interruption, not by its
    // deadline; the breaker off, so that the resets do not end the run before refunds:list.
    const args = ['--operations', 'subscriptions:list,refunds:list', '--runs', '2', '--timeout', '600000', '--unresponsive-after', '0', '--output-dir', outputDir, '--reporter', 'junit,json'];
    const child = spawn(process.execPath, [CLI, 'run', '--target', chaos.url, ...args], {
      env: { ...process.env, CONFORMANCE_ADMIN_TOKEN: 'chaos-admin' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so that the group can be signalled without signalling this test.
      detached: to === 'its process group',
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    while (chaos.requests('/v1/refunds/') === 0 && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50));
    if (to === 'its process group') process.kill(-child.pid!, signal);
    else child.kill(signal);
    expect(await exited).toBe(exitCode);

    const junit = readFileSync(path.join(outputDir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/the run was interrupted before every test finished; the matrix is incomplete/);
    // What failed before the cut is in the JUnit file, for CI to show.
    expect(junit).toMatch(/<testcase [^>]*name="not_a_server_error on [^"]*"[^>]*>\s*<failure/);
    const report = JSON.parse(readFileSync(path.join(outputDir, 'report.json'), 'utf8')) as { errors: { message: string; code?: string }[]; cells: { operationId: string; status: string }[] };
    expect(report.errors.map((e) => e.message)).toContain('the run was interrupted before every test finished; the matrix is incomplete');
    // Nothing else went wrong: no worker died of the signal, no case in flight was judged.
    expect(report.errors.filter((e) => e.code !== 'CNF_ERR_INTERRUPTED' && !/^the run was interrupted/.test(e.message))).toEqual([]);
    expect(report.cells.some((c) => c.operationId === 'subscriptions:list' && c.status === 'failed')).toBe(true);
    expect(report.cells.some((c) => c.operationId === 'refunds:list' && c.status === 'passed')).toBe(false);
    expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  }, 60_000);
});
