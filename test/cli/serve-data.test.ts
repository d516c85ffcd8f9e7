// `conformance serve --data FILE`: a bad data file is one CNF_ERR_DATA_INVALID line naming the
// file, the line and the field, exit 2, nothing served; a good one is served, and the banner says
// what it loaded, or that a state file made it unread.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { BAD_FILES } from '../server/data/bad-files.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIR = mkdtempSync(path.join(tmpdir(), 'cnf-serve-data-'));

async function conformance(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, ['bin/conformance.js', ...args], { cwd: ROOT }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

/** Starts `serve` with `args`, waits for its banner (up to the fixtures), stops it with SIGTERM. */
async function banner(...args: string[]): Promise<string> {
  const child = spawn(process.execPath, ['bin/conformance.js', 'serve', '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner in 20 s: ${out}`)), 20_000);
      child.stdout.on('data', () => {
        if (out.includes('Fixtures:')) {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then(() => reject(new Error(`serve exited: ${out}`)));
    });
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  return out;
}

describe('conformance serve --data: a bad data file', () => {
  test.each(BAD_FILES)('%s: one line naming the file, the line and the field, exit 2', async (name, text, line, field) => {
    const file = path.join(DIR, `${name.replace(/\W+/g, '-')}.yaml`);
    writeFileSync(file, text);
    const { code, stdout, stderr } = await conformance('serve', '--port', '0', '--data', file);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.endsWith('\n') && stderr.split('\n')).toHaveLength(2);
    expect(stderr.startsWith(`conformance: error CNF_ERR_DATA_INVALID: ${file}:${line}:`)).toBe(true);
    expect(stderr.slice(`conformance: error CNF_ERR_DATA_INVALID: ${file}:${line}:`.length)).toMatch(new RegExp(`^\\d+: ${field.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}`));
  });

  test('a file that does not exist', async () => {
    const { code, stderr } = await conformance('serve', '--port', '0', '--data', path.join(DIR, 'missing.yaml'));
    expect(code).toBe(2);
    expect(stderr).toBe(`conformance: error CNF_ERR_DATA_INVALID: ${path.join(DIR, 'missing.yaml')}: (file): no such file\n`);
  });
});

describe('conformance serve --data: the example catalogue', () => {
  test('the banner names the data file, its tokens and the dashboard', async () => {
    const out = await banner('--data', 'examples/saas-catalogue.yaml');
    expect(out).toContain('Data file: examples/saas-catalogue.yaml (1 organization, 1 benefit, 3 products, 3 prices, 2 customers, 2 subscriptions, 3 orders, 2 license keys, 1 webhook endpoint)');
    expect(out).toMatch(/Dashboard: http:\/\/127\.0\.0\.1:\d+\/__dashboard\//);
    expect(out).toContain('  polar_oat_acme_development_0123456789  (Acme Cloud)');
  });

  test('with --state, the data file seeds a new state file, and is not read once it exists', async () => {
    const state = path.join(DIR, 'example.state');
    expect(await banner('--data', 'examples/saas-catalogue.yaml', '--state', state)).toContain(`State file: ${state} (new, the data file's records written;`);
    expect(await banner('--data', 'examples/saas-catalogue.yaml', '--state', state)).toContain(`Data file: examples/saas-catalogue.yaml not read: the state file ${state} exists and holds the store`);
  });
});
