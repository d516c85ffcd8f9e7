/**
 * `npm run corpus`: every corpus document (test/corpus/corpus.ts) mocked with Prism in static and
 * dynamic mode, run through the harness. Exits 1 when a run has a harness error (an exit code 2
 * or an errored cell) or a failure that `expectations.json` does not list, else 0; prints a line
 * per run and the failures to add (with a reason) or to look into.
 * Options: `--documents a,b`, `--modes static,dynamic`, `--runs N` (default 3), `--seed N` (default 20261122).
 */
import { parseArgs } from 'node:util';
import { compareWithExpectations, CORPUS, readExpectations, runCorpusDocument, type CorpusOutcome, type PrismMode } from './corpus.js';

const { values } = parseArgs({
  options: {
    documents: { type: 'string' },
    modes: { type: 'string', default: 'static,dynamic' },
    runs: { type: 'string', default: '3' },
    seed: { type: 'string', default: '20261122' },
  },
});
const wanted = values.documents?.split(',').map((s) => s.trim());
const documents = CORPUS.filter((d) => !wanted || wanted.includes(d.id));
const unknown = (wanted ?? []).filter((id) => !CORPUS.some((d) => d.id === id));
if (unknown.length) {
  console.error(`unknown corpus document ${unknown.join(', ')} (documents: ${CORPUS.map((d) => d.id).join(', ')})`);
  process.exit(2);
}
const modes = values.modes.split(',').map((s) => s.trim()) as PrismMode[];
const options = { seed: Number(values.seed), runs: Number(values.runs) };

const outcomes: CorpusOutcome[] = [];
for (const doc of documents) {
  for (const mode of modes) {
    let outcome: CorpusOutcome;
    try {
      outcome = await runCorpusDocument(doc, mode, options);
    } catch (error) {
      // A document the harness cannot load or run is a harness error of the corpus, not a crash of it.
      const e = error as Error & { code?: string };
      outcome = { document: doc.id, mode, exitCode: 2, harnessErrors: [`${e.code ?? e.name}: ${e.message}`], failures: [], cells: { passed: 0, failed: 0, skipped: 0, notApplicable: 0, errored: 0 }, seconds: 0 };
    }
    outcomes.push(outcome);
    const { passed, failed, skipped, notApplicable, errored } = outcome.cells;
    console.log(
      `${doc.id.padEnd(22)} ${mode.padEnd(7)} exit ${outcome.exitCode}  passed ${passed}, failed ${failed}, skipped ${skipped}, not applicable ${notApplicable}, errored ${errored}, harness errors ${outcome.harnessErrors.length}  (${outcome.seconds} s)`,
    );
    for (const error of outcome.harnessErrors) console.log(`  harness error: ${error}`);
  }
}
const { unexpected, unseen } = compareWithExpectations(outcomes, readExpectations());
const harnessErrors = outcomes.flatMap((o) => o.harnessErrors);
const twos = outcomes.filter((o) => o.exitCode === 2);
if (unexpected.length) {
  console.log(`\n${unexpected.length} failure(s) not in test/corpus/expectations.json (the harness's, or a Prism fault to list with its reason):`);
  for (const f of unexpected) console.log(`  ${JSON.stringify(f)}`);
}
if (unseen.length) {
  console.log(`\n${unseen.length} expected failure(s) not seen this time (dynamic answers vary; remove an entry that never recurs):`);
  for (const e of unseen) console.log(`  ${e.document} ${e.mode ?? 'both'} ${e.operationId} ${e.checkId} ${e.kind}`);
}
const ok = unexpected.length === 0 && harnessErrors.length === 0 && twos.length === 0;
console.log(`\ncorpus: ${outcomes.length} runs, ${harnessErrors.length} harness errors, ${unexpected.length} unexpected failures: ${ok ? 'ok' : 'FAILED'}`);
process.exit(ok ? 0 : 1);
