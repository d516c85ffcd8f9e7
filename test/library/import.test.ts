/**
 * The package imported by name, as a consumer does: a temporary project outside this tree
 * depends on it (`npm install <this folder>`, offline: npm links the folder) and imports
 * `billing-api-conformance` from plain Node and from vitest (the README's example test). A second project gets the files
 * `npm pack` puts in the tarball, under its own node_modules (where Node will not strip types,
 * so the entry falls back to tsx); an offline npm cannot resolve the tarball's dependencies
 * from the registry, so that project's node_modules links this checkout's.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const NODE = process.execPath;
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');
const run = promisify(execFile);
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function project(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `cnf-${name}-`));
  dirs.push(dir);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  return dir;
}

// What a consumer's script checks: the API's names, a reference server that answers, and a run.
const PLAIN = `
import * as api from 'billing-api-conformance';
// index.ts itself, loaded the same way the entry loads it, for its list of exported values.
const source = await import(process.argv[2]);
const { runConformance, startReferenceServer, CHECK_IDS, createReporters, renderJUnit } = api;
const server = await startReferenceServer({ port: 0 });
const response = await fetch(server.url + '/v1/products/', { headers: { authorization: 'Bearer ' + server.credentials.admin } });
await server.close();
const outcome = await runConformance({ checks: ['status_code_conformance'], operations: ['products:list'], runs: 2, seed: 7, reporters: [] });
console.log(JSON.stringify({
  names: Object.keys(api).sort(),
  sourceNames: Object.keys(source).sort(),
  status: response.status,
  checks: CHECK_IDS.includes('status_code_conformance'),
  functions: [runConformance, createReporters, renderJUnit].map((f) => typeof f),
  exitCode: outcome.exitCode,
  cells: outcome.results.cells.map((cell) => cell.operationId + ' ' + cell.checkId + ' ' + cell.status),
}));
`;

const EXPECTED_RUN = { status: 200, checks: true, functions: ['function', 'function', 'function'], exitCode: 0, cells: ['products:list status_code_conformance passed'] };

describe('the package imported by name', () => {
  test('from a project that installed this folder: plain Node and vitest', async () => {
    const dir = await project('consumer');
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', ROOT], { cwd: dir });
    await writeFile(join(dir, 'plain.mjs'), PLAIN);
    const { stdout } = await run(NODE, ['plain.mjs', join(ROOT, 'index.ts')], { cwd: dir });
    const seen = JSON.parse(stdout) as typeof EXPECTED_RUN & { names: string[]; sourceNames: string[] };
    expect(seen).toMatchObject(EXPECTED_RUN);
    // index.js re-exports every value index.ts exports, and nothing else.
    expect(seen.names).toEqual(seen.sourceNames);
    expect(seen.names).toEqual(expect.arrayContaining(['runConformance', 'startReferenceServer', 'CHECKS', 'CHECK_IDS', 'createReporters', 'renderHtml', 'renderJUnit']));

    await mkdir(join(dir, 'test'));
    // The README's example test, as a consumer would paste it.
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const example = /```ts\n(\/\/ test\/billing\.test\.ts[\s\S]*?)```/.exec(readme)?.[1];
    expect(example, 'the README has the example test').toBeDefined();
    await writeFile(join(dir, 'test', 'billing.test.ts'), example!);
    const vitest = await run(NODE, [VITEST, 'run', '--root', dir], { cwd: dir, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' } });
    expect(vitest.stdout).toMatch(/Tests\s+2 passed \(2\)/);
  }, 180_000);

  test('from the npm pack tarball under node_modules (tsx loads the sources)', async () => {
    const dir = await project('consumer-tarball');
    const packed = await project('packed');
    const { stdout: file } = await run('npm', ['pack', '--silent', '--pack-destination', packed], { cwd: ROOT });
    const modules = join(dir, 'node_modules');
    await mkdir(join(modules, 'billing-api-conformance'), { recursive: true });
    await run('tar', ['-xzf', join(packed, file.trim()), '-C', join(modules, 'billing-api-conformance'), '--strip-components=1']);
    for (const entry of await readdir(join(ROOT, 'node_modules'))) {
      if (entry !== 'billing-api-conformance') await symlink(join(ROOT, 'node_modules', entry), join(modules, entry));
    }
    await writeFile(join(dir, 'plain.mjs'), PLAIN);
    const { stdout } = await run(NODE, ['plain.mjs', join(modules, 'billing-api-conformance', 'index.ts')], { cwd: dir });
    const seen = JSON.parse(stdout) as typeof EXPECTED_RUN & { names: string[]; sourceNames: string[] };
    expect(seen).toMatchObject(EXPECTED_RUN);
    expect(seen.names).toEqual(seen.sourceNames);
  }, 180_000);
});
