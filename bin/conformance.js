#!/usr/bin/env node
// The `conformance` command. The sources are TypeScript run as they are (docs/decisions.md: no
// build step). Node strips their types itself where it can (Node >= 22.18, files outside
// node_modules); the sources import each other as `./x.js` (what tsc and bundlers expect), so a
// resolve hook maps a relative `.js` import of a `.ts` file to the `.ts` file. Elsewhere tsx
// compiles them, slower to start.
//
// This file is plain JavaScript that any Node parses, so that an older Node (the machine's own 20)
// gets here: it re-executes the command with the project's Node 24 (the `node` dev dependency) or,
// without one, exits 2 with one line saying what to run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MINIMUM_MAJOR = 22;
const major = Number(process.versions.node.split('.')[0]);

if (major < MINIMUM_MAJOR) {
  const project = join(dirname(fileURLToPath(import.meta.url)), '..');
  const candidates = [join(project, 'node_modules', 'node', 'bin', 'node')];
  try {
    // The `node` package installed elsewhere (a consumer's node_modules, hoisted above this package).
    candidates.push(join(dirname(createRequire(import.meta.url).resolve('node/package.json')), 'bin', 'node'));
  } catch {
    // Not installed: the first candidate (or none) it is.
  }
  const newer = candidates.find((file) => existsSync(file));
  // CONFORMANCE_REEXEC guards against a loop should that binary be old as well.
  if (newer && !process.env.CONFORMANCE_REEXEC) {
    const child = spawnSync(newer, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
      stdio: 'inherit',
      env: { ...process.env, CONFORMANCE_REEXEC: '1' },
    });
    if (child.error) {
      process.stderr.write(`conformance: Node ${process.versions.node} is too old (>= ${MINIMUM_MAJOR} needed) and ${newer} could not start (${child.error.message}); run \`npx conformance\` or \`npm run conformance\` in ${project}\n`);
      process.exit(2);
    }
    // A child ended by a signal (Ctrl-C) ends this process the same way.
    if (child.signal) process.kill(process.pid, child.signal);
    process.exit(child.status ?? 2);
  }
  process.stderr.write(`conformance: Node ${process.versions.node} is too old (>= ${MINIMUM_MAJOR} needed); run \`npm ci\` in ${project} and then \`npx conformance\` (it runs the project's Node 24), or install Node 24\n`);
  process.exit(2);
}

await import('./start.js');
