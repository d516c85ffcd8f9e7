/**
 * `npm run bench:unresponsive [-- hang slow drip reset garbage mix interrupt]`: how long
 * `conformance run --target URL` takes, at its default options, against a target that answers the
 * reachability probe and then misbehaves on every request (test/cli/chaos-target.ts), and what
 * it leaves behind. Each row starts the chaos target on 127.0.0.1, runs the real command line in a
 * child process with a token for every role (so that every cell that can run does), and measures
 * the wall time, the exit code, whether junit.xml and report.json were written, the cells by
 * verdict, and any stack trace on stdout or stderr. The `interrupt` row sends SIGTERM 20 s into a
 * run against the hanging target and measures the time from the signal to the exit.
 * Bars (docs/performance.md, "A target that stops answering"): a hanging target within 2 minutes, a slow one (answers after
 * 15 s) within 5 minutes, every other behaviour within 5 minutes; exit 1 (143 for the interrupt,
 * within 15 s of the signal); the reports present; no stack trace. Prints a table and PASS/FAIL per
 * row; exits 1 when a bar fails, 2 when the benchmark itself fails. Every target and child it
 * starts is stopped, even on error.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BEHAVIOURS, startChaosTarget, type Behaviour } from '../test/cli/chaos-target.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'bin', 'conformance.js');

/** A row of the benchmark: a behaviour of every request, or the interrupted run. */
type Row = Behaviour | 'interrupt';

/** Upper bound of each row's run, in seconds (for `interrupt`: from the signal to the exit). */
export const BOUNDS_S: Record<Row, number> = { hang: 120, slow: 300, drip: 300, reset: 300, garbage: 300, mix: 300, interrupt: 15 };
/** Seconds into the run at which the `interrupt` row sends SIGTERM. */
const INTERRUPT_AFTER_S = 20;
/** A line of a JavaScript stack trace. */
const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;
/** Every role's token, so that every cell the target's answers could decide is run. */
const TOKENS = Object.fromEntries(
  ['admin', 'reader', 'writer', 'no_scope', 'other_org', 'pat', 'customer_session', 'member_session', 'portal_no_scope', 'oauth_client'].map((role) => [`CONFORMANCE_${role.toUpperCase()}_TOKEN`, `chaos-${role}`]),
);

/** What one row measured. */
interface Measured {
  row: Row;
  seconds: number;
  exitCode: number | null;
  junit: boolean;
  json: boolean;
  cells: Record<string, number>;
  stackTraces: number;
  summary: string;
  /** `interrupt` only: seconds from SIGTERM to the exit. */
  afterSignal?: number;
}

async function measure(row: Row): Promise<Measured> {
  const chaos = await startChaosTarget({ behaviour: row === 'interrupt' ? 'hang' : row });
  const outputDir = mkdtempSync(path.join(os.tmpdir(), `bench-${row}-`));
  try {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, 'run', '--target', chaos.url, '--output-dir', outputDir, '--reporter', 'console,junit,json'], {
      cwd: ROOT,
      env: { ...process.env, ...TOKENS, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    let signalled: number | undefined;
    const timer = row === 'interrupt' ? setTimeout(() => ((signalled = performance.now()), child.kill('SIGTERM')), INTERRUPT_AFTER_S * 1000) : undefined;
    // Far beyond every bound: a run that never ends is killed and reported as such.
    const guard = setTimeout(() => child.kill('SIGKILL'), 900_000);
    const exitCode = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    clearTimeout(timer);
    clearTimeout(guard);
    const ended = performance.now();
    const jsonFile = path.join(outputDir, 'report.json');
    const cells: Record<string, number> = {};
    if (existsSync(jsonFile)) {
      const report = JSON.parse(readFileSync(jsonFile, 'utf8')) as { cells?: { status: string }[] };
      for (const cell of report.cells ?? []) cells[cell.status] = (cells[cell.status] ?? 0) + 1;
    }
    return {
      row,
      seconds: (ended - started) / 1000,
      exitCode,
      junit: existsSync(path.join(outputDir, 'junit.xml')),
      json: existsSync(jsonFile),
      cells,
      stackTraces: (stdout + stderr).split('\n').filter((line) => STACK_LINE.test(line)).length,
      summary: stdout.trim().split('\n').filter((line) => line.startsWith('conformance:')).at(-1) ?? stderr.trim().split('\n').at(-1) ?? '',
      ...(signalled !== undefined ? { afterSignal: (ended - signalled) / 1000 } : {}),
    };
  } finally {
    await chaos.close();
    rmSync(outputDir, { recursive: true, force: true });
  }
}

/** Whether a row meets its bars, with the reasons it does not. */
function verdict(m: Measured): string[] {
  const problems: string[] = [];
  const wantExit = m.row === 'interrupt' ? 143 : 1;
  const timed = m.row === 'interrupt' ? (m.afterSignal ?? Infinity) : m.seconds;
  if (timed > BOUNDS_S[m.row]) problems.push(`${timed.toFixed(1)} s > ${BOUNDS_S[m.row]} s`);
  if (m.exitCode !== wantExit) problems.push(`exit ${m.exitCode}, not ${wantExit}`);
  if (!m.junit || !m.json) problems.push('a report is missing');
  if (m.stackTraces > 0) problems.push(`${m.stackTraces} stack trace lines`);
  return problems;
}

async function main(): Promise<number> {
  const known: Row[] = [...(Object.keys(BEHAVIOURS) as Behaviour[]), 'interrupt'];
  const asked = process.argv.slice(2);
  const unknown = asked.filter((a) => !known.includes(a as Row));
  if (unknown.length) {
    process.stderr.write(`unknown row ${unknown.join(', ')} (rows: ${known.join(', ')})\n`);
    return 2;
  }
  const rows = asked.length ? (asked as Row[]) : known;
  process.stdout.write(`conformance run --target URL (default options: --timeout 10000, --unresponsive-after 5, --runs 50) against a target that answers the probe, then:\n`);
  let failed = false;
  for (const row of rows) {
    const m = await measure(row);
    const problems = verdict(m);
    failed ||= problems.length > 0;
    const cells = Object.entries(m.cells).map(([status, n]) => `${n} ${status}`).join(', ') || 'no cells';
    const time = m.row === 'interrupt' ? `${m.seconds.toFixed(1)} s (exit ${m.afterSignal?.toFixed(1)} s after SIGTERM)` : `${m.seconds.toFixed(1)} s`;
    process.stdout.write(
      `${row.padEnd(9)} ${time.padEnd(12)} exit ${m.exitCode}  junit ${m.junit ? 'yes' : 'NO'}  json ${m.json ? 'yes' : 'NO'}  stack traces ${m.stackTraces}  cells: ${cells}  ` +
        `bound ${BOUNDS_S[row]} s  ${problems.length ? `FAIL (${problems.join('; ')})` : 'PASS'}\n` +
        `          ${m.summary}\n`,
    );
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    process.exit(2);
  },
);
