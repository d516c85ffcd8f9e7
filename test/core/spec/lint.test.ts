// Linting: swagger-parser plus Spectral's oas ruleset with our exceptions, as a library and as
// `conformance lint` (exit 0 when no error-severity diagnostic, 2 otherwise).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { formatLintResult, formatPath, INVALID_DOCUMENT_CODE, lintDocument, type LintDiagnostic } from '../../../core/spec/lint.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const fixture = (name: string) => path.join(import.meta.dirname, '../../spec/fixtures', name);
const errors = (diagnostics: LintDiagnostic[]) => diagnostics.filter((d) => d.severity === 'error');

/** Runs `conformance lint` with the given arguments on the Node running the tests. */
async function conformanceLint(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['bin/conformance.js', 'lint', ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('lintDocument', () => {
  test('a broken document: swagger-parser and Spectral both say where', async () => {
    const result = await lintDocument(fixture('broken.yaml'));
    expect(result.valid).toBe(false);
    expect(result.ok).toBe(false);
    const found = errors(result.diagnostics).map((d) => [d.code, formatPath(d.path)]);
    expect(found).toContainEqual([INVALID_DOCUMENT_CODE, '(document)']);
    expect(found).toContainEqual(['oas3-schema', 'info']);
    expect(found).toContainEqual(['oas3-schema', 'paths./v1/things/.get.responses.200']);
    expect(found).toContainEqual(['invalid-ref', 'paths./v1/things/.get.responses.200.content.application/json.schema.$ref']);
  }, 30_000);

  test.each([['minimal-3.0.yaml'], ['minimal-3.1.yaml']])('extension keys are never flagged (%s)', async (name) => {
    const result = await lintDocument(fixture(name));
    expect(result.valid).toBe(true);
    const flagged = result.diagnostics.filter((d) => d.path.some((s) => String(s).startsWith('x-')) || d.message.includes('x-'));
    expect(flagged).toEqual([]);
  }, 30_000);

  test('OAS 3.0: a scope on a bearer scheme is flagged by Spectral\'s own rule (3.0 forbids it)', async () => {
    const result = await lintDocument(fixture('minimal-3.0.yaml'));
    expect(result.openapi).toBe('3.0.3');
    expect(result.diagnostics.map((d) => [d.code, formatPath(d.path)])).toEqual([
      ['oas3-operation-security-defined', 'paths./v1/things.get.security.0.bearer.0'],
    ]);
    expect(result.ok).toBe(true);
  }, 30_000);

  test('OAS 3.1: role names on a bearer scheme pass, an undefined scheme is flagged', async () => {
    const result = await lintDocument(fixture('minimal-3.1.yaml'));
    expect(result.diagnostics.map((d) => [d.code, d.severity, formatPath(d.path)])).toEqual([
      ['oas3_1-operation-security-defined', 'warning', 'paths./v1/things.get.security.1.undeclared'],
    ]);
  }, 30_000);

  test('an unreadable file is a harness error', async () => {
    await expect(lintDocument(fixture('absent.yaml'))).rejects.toMatchObject({ code: 'CNF_ERR_SPEC_INVALID' });
  });

  test('the printed report names the file, counts, and gives line, severity, code, path and message', () => {
    const text = formatLintResult(
      {
        file: path.join(ROOT, 'x.yaml'),
        valid: true,
        openapi: '3.1.0',
        version: '1',
        operations: 2,
        ok: false,
        diagnostics: [{ code: 'oas3-schema', message: 'bad', path: ['info'], severity: 'error', line: 3 }],
      },
      ROOT,
    );
    expect(text).toBe('x.yaml: OpenAPI 3.1.0, version 1, 2 operations: 1 error(s), 0 warning(s) - FAILED\n  3:    error   oas3-schema  info\n          bad\n');
  });
});

describe('conformance lint', () => {
  // The bundled documents are linted here only, through the command (lintDocument, in a process
  // of its own): valid (exit 0, not 2), their version read, and no error-severity diagnostic.
  test('lints both bundled documents by default and exits 0', async () => {
    const { code, stdout } = await conformanceLint();
    expect(code).toBe(0);
    expect(stdout).toContain('spec/openapi.yaml: OpenAPI 3.1.0, version 2026-10, 26 operations: 0 error(s)');
    expect(stdout).toContain('spec/openapi.2026-04.yaml: OpenAPI 3.1.0, version 2026-04, 26 operations: 0 error(s)');
  }, 60_000);

  test('--spec works on an OpenAPI 3.0 document', async () => {
    const { code, stdout } = await conformanceLint('--spec', fixture('minimal-3.0.yaml'));
    expect(code).toBe(0);
    expect(stdout).toContain('OpenAPI 3.0.3, version 1.0, 1 operations: 0 error(s), 1 warning(s)');
  }, 60_000);

  test('exits 2 on a broken document, saying what is wrong and where', async () => {
    const { code, stdout } = await conformanceLint('--spec', fixture('broken.yaml'));
    expect(code).toBe(2);
    expect(stdout).toContain('broken.yaml: not a valid OpenAPI document');
    expect(stdout).toContain('FAILED');
    expect(stdout).toMatch(/error\s+invalid-ref\s+paths\.\/v1\/things\/\.get\.responses\.200\.content\.application\/json\.schema\.\$ref\n\s+'#\/components\/schemas\/Missing' does not exist/);
    expect(stdout).toContain('"info" property must have required property "version"');
  }, 60_000);

  test('exits 2 with a harness error on a file that does not exist', async () => {
    const { code, stderr } = await conformanceLint('--spec', fixture('absent.yaml'));
    expect(code).toBe(2);
    expect(stderr).toContain('CNF_ERR_SPEC_INVALID');
  }, 60_000);
});
