/**
 * Runs every fault of the catalogue alone through the full default run (every suite, every check)
 * and prints, per fault, the exit code, whether its check failed on an operation it touches, and
 * the run's wall time. The fault catalogue test shares runs between faults that touch disjoint
 * operations to stay within CI's budget; this script is the slower proof, one run per fault.
 *
 * Usage: `npm run bench:faults [-- --runs N] [-- fault_id ...]`. Exits 1 when any fault is missed.
 */
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { runConformance } from '../cli/run.js';
import { FAULTS, touchedOperations } from '../server/faults.js';
import { loadSpec } from '../core/spec/load.js';
import { documentOperationIds } from '../engine/stateful/scenario.js';

const { values, positionals } = parseArgs({ options: { runs: { type: 'string', default: '15' }, seed: { type: 'string', default: '20261122' } }, allowPositionals: true });
const runs = Number(values.runs);
const seed = Number(values.seed);
const spec = await loadSpec();
const webhookIds = [...documentOperationIds(spec)].filter((id) => !spec.operations.some((o) => o.operationId === id));
const chosen = FAULTS.filter((f) => !f.detectedBy.startsWith('pending:') && !f.detectedBy.startsWith('test:') && (positionals.length === 0 || positionals.includes(f.id)));
const sink = () => new Writable({ write: (_chunk, _enc, done) => done() });

let missed = 0;
process.stdout.write(`fault runs: ${chosen.length} faults, each alone in a full default run (--runs ${runs}, --seed ${seed})\n`);
process.stdout.write(`${'fault'.padEnd(44)} exit  caught  seconds\n`);
const started = Date.now();
for (const fault of chosen) {
  const t0 = Date.now();
  const outcome = await runConformance({ seed, runs, faults: [fault.id], reporters: [], out: sink(), ...(fault.apiVersion ? { apiVersion: fault.apiVersion } : {}) });
  const own = touchedOperations(spec, fault, webhookIds);
  const caught = outcome.exitCode === 1 && outcome.results.cells.some((c) => c.status === 'failed' && c.checkId === fault.detectedBy && own.has(c.operationId));
  if (!caught) missed++;
  process.stdout.write(`${fault.id.padEnd(44)} ${String(outcome.exitCode).padEnd(5)} ${(caught ? 'yes' : 'NO').padEnd(7)} ${((Date.now() - t0) / 1000).toFixed(1)}\n`);
}
process.stdout.write(`fault runs: ${chosen.length - missed}/${chosen.length} caught alone by their check, in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
process.exitCode = missed ? 1 : 0;
