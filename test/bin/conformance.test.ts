/**
 * The `conformance` command's start: `--version`, the defaults in `run --help`, and what an old
 * Node does with bin/conformance.js (re-executes it with the project's Node 24, or exits 2 with
 * one line saying what to run).
 */
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/conformance.js');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(node: string, args: string[]): Promise<Ran> {
  try {
    const { stdout, stderr } = await promisify(execFile)(node, args, { cwd: ROOT, env: { ...process.env, CONFORMANCE_REEXEC: '' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

// A Node older than 22 on this machine (Debian's is 20), found on PATH outside node_modules.
function oldNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(candidate)) continue;
    const major = Number(execFileSync(candidate, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).trim());
    if (major < 22) return candidate;
  }
  return undefined;
}

describe('bin/conformance.js', () => {
  test('--version prints the package version and exits 0', async () => {
    const ran = await run(process.execPath, [BIN, '--version']);
    expect(ran).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  test('run --help shows the defaults', async () => {
    const ran = await run(process.execPath, [BIN, 'run', '--help']);
    expect(ran.code).toBe(0);
    const help = ran.stdout.replace(/\s+/g, ' ');
    for (const shown of ['(default: 50)', '(default: "conformance-report")', 'default: console,junit', '(default: 10000)', '(default: random, printed on every run)', 'default: 80', '(default: "2026-10")']) {
      expect(help).toContain(shown);
    }
  });

  const old = oldNode();
  // Only a machine with an old Node can show this; CI's Debian image has Node 20 at /usr/bin/node.
  test.skipIf(!old)('under an old Node it re-executes itself with the project\'s Node 24', async () => {
    const ran = await run(old!, [BIN, '--version']);
    expect(ran).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    const failing = await run(old!, [BIN, 'run', '--runs', '0']);
    expect(failing.code).toBe(2);
    expect(failing.stderr).not.toContain('SyntaxError');
  });

  test.skipIf(!old)('under an old Node without the project\'s Node 24 it exits 2 with one line', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'cnf-bin-'));
    try {
      cpSync(join(ROOT, 'bin'), join(copy, 'bin'), { recursive: true });
      const ran = await run(old!, [join(copy, 'bin/conformance.js'), '--version']);
      expect(ran.code).toBe(2);
      expect(ran.stdout).toBe('');
      expect(ran.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(ran.stderr).toMatch(/^conformance: Node 2\d\.\d+\.\d+ is too old \(>= 22 needed\); run `npm ci` in .* and then `npx conformance`/);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
