// The command line's input errors: each is one CNF_ERR_* line (exit 2), naming the nearest known
// value, without a stack trace or vitest internals; a run without tokens against a URL stops after
// the preflight, naming the missing variables.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Runs the command with no CONFORMANCE_* variable set. */
async function conformance(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CONFORMANCE_')));
  return promisify(execFile)(process.execPath, ['bin/conformance.js', ...args], { cwd: ROOT, env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at |node_modules|vitest/);

describe('conformance replay: --rate', () => {
  test('takes an integer >= 0, as conformance run does', async () => {
    const bad = await conformance('replay', '/nonexistent/report.json', '--rate', '-1');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: option '--rate <n>' argument '-1' is invalid\. --rate must be an integer >= 0/);
    // Accepted: the error is then the report's.
    const accepted = await conformance('replay', '/nonexistent/report.json', '--rate', '0');
    expect(accepted.code).toBe(2);
    expect(accepted.stderr).toMatch(/^conformance: error CNF_ERR_CONFIG_INVALID: cannot read report \/nonexistent\/report\.json/);
  });
});

describe('conformance run: option errors', () => {
  test('--operations with an unknown operationId', async () => {
    const { code, stdout, stderr } = await conformance('run', '--operations', 'nope:list,product:list', '--reporter', 'json');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^conformance: error CNF_ERR_CONFIG_INVALID: --operations: unknown operations "nope:list", "product:list" \(did you mean "products:list"\?\); operationIds are <resource>:<action> of the document, resources: products, /);
    noStack(stderr);
  });

  test('--fail-on takes must or should only', async () => {
    const { code, stdout, stderr } = await conformance('run', '--fail-on', 'sometimes');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/--fail-on/);
    expect(stderr).toMatch(/^error: option '--fail-on <level>' argument 'sometimes' is invalid\. Allowed choices are must, should\./);
    // No stack frame (`at fn (file:1:2)`), only commander's message and the usage.
    expect(stderr).not.toMatch(/\n\s+at .*:\d+:\d+\)?\n/);
  });

  test('--checks with an unknown id lists the valid ones', async () => {
    const { code, stderr } = await conformance('run', '--checks', 'foo,tenant_isolaton');
    expect(code).toBe(2);
    expect(stderr).toMatch(/^conformance: error CNF_ERR_CONFIG_INVALID: --checks: unknown checks "foo", "tenant_isolaton" \(did you mean "tenant_isolation"\?\); checks: not_a_server_error, .*model_files\n$/);
  });

  test('a run with no tokens against a URL exits 2 after the preflight names the missing variables', async () => {
    const { code, stdout, stderr } = await conformance('run', '--target', 'http://127.0.0.1:9', '--reporter', 'json');
    expect(code).toBe(2);
    expect(stdout).toMatch(/^conformance preflight\n  target   http:\/\/127\.0\.0\.1:9 \(remote\)\n/);
    for (const variable of ['CONFORMANCE_ADMIN_TOKEN', 'CONFORMANCE_READER_TOKEN', 'CONFORMANCE_OTHER_ORG_TOKEN']) expect(stdout).toContain(`    export ${variable}=…`);
    expect(stderr).toMatch(/^conformance: error CNF_ERR_ROLE_MISSING: no token for admin \(export CONFORMANCE_ADMIN_TOKEN=…\)/);
    // It stopped before the probe: an unreachable target would have been CNF_ERR_TARGET_UNREACHABLE.
    expect(stderr).not.toContain('CNF_ERR_TARGET_UNREACHABLE');
  });

  test('a config with several problems: all of them in one message, each with the nearest known key', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cnf-cli-'));
    const config = path.join(dir, 'conformance.config.json');
    writeFileSync(config, JSON.stringify({ requestPerSecond: 10, roles: { admn: { tokenEnv: 'A' } }, fixtures: { prodcut_id: 'p' } }));
    const { code, stderr } = await conformance('run', '--config', config);
    expect(code).toBe(2);
    expect(stderr.split('\n')).toEqual([
      `conformance: error CNF_ERR_CONFIG_INVALID: config ${config} has 3 problems:`,
      expect.stringMatching(/^  - unknown key "requestPerSecond"; did you mean "requestsPerSecond"\?/),
      expect.stringMatching(/^  - roles: unknown key "admn"; did you mean "admin"\?/),
      '  - fixtures.prodcut_id: no operation, scenario or family uses a fixture of this name; did you mean "product_id"?',
      '',
    ]);
  });
});

describe('conformance serve: port errors', () => {
  test.each(['99999', '-1', 'http'])('--port %s', async (port) => {
    const { code, stdout, stderr } = await conformance('serve', '--port', port);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`conformance: error CNF_ERR_CONFIG_INVALID: --port must be an integer from 0 to 65535 (0 = a free one), not "${port}"\n`);
  });

  test('a port in use', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const { code, stderr } = await conformance('serve', '--port', String(port));
      expect(code).toBe(2);
      expect(stderr).toBe(`conformance: error CNF_ERR_PORT_UNAVAILABLE: port ${port} on 127.0.0.1 is already in use; stop what listens there or pick another with --port (0 = a free one) (EADDRINUSE)\n`);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});
