import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The workers of a conformance run are threads of its process (`pool: 'threads'` below): Ctrl+C
// signals the process, whose main thread ends the run and writes its reports
// (cli/interruptible-run.ts), and a thread starts for less CPU than a process. They load the
// sources as the command line does (bin/register.js: Node's own type stripping, a resolve hook
// for the sources' `.js` imports, V8's compile cache on disk), not through vite's module runner
// (`experimental.viteModuleRunner: false` below), which sent every module's code from the main
// process to each worker of each run (docs/decisions.md, Runtime and tooling).
const SUITE_WORKER_ARGV = ['--import', new URL('./bin/register.js', import.meta.url).href];

// The longest unit test files, longest first: each runs many full conformance runs. Vitest orders
// files by the durations of the last run on this machine, and by size without one (a fresh clone,
// CI): there the fault catalogue's halves came last, and one worker ran them alone at the end.
const LONGEST = ['test/cli/fault-catalogue.test.ts', 'test/cli/fault-catalogue-second-half.test.ts', 'test/cli/shard.test.ts', 'test/cli/replay.test.ts'];

/** Vitest's own order, with {@link LONGEST} started first. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST.findIndex((name) => file.moduleId.endsWith(name));
      return at === -1 ? LONGEST.length : at;
    };
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}

// Three projects (docs/decisions.md, Stateful conformance): `unit` is the project's own tests, no network beyond loopback servers
// the tests start themselves; `conformance` is the suites, run against a target by `conformance run`;
// `conformance-stateful` is the stateful suites, run after the others (groupOrder) and one file at
// a time, since they change the target's state and move its clock.
export default defineConfig({
  test: {
    // Vitest takes the sequencer from the root only; it reorders the unit files alone (the suites are not in LONGEST).
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Two files at a time, not vitest's default of one fewer than the cores (one, on CI's 2
          // cores): the longest files (the fault catalogue's halves) spend much of their time
          // waiting on the runs they start, so two at a time took 4.7 and 5.2 minutes here where one at a time took 8.3.
          maxWorkers: 2,
          // One module graph per worker, not one per file: the files share no module state they
          // change (servers on free ports, stopped by the test that started them; environment
          // variables restored), and re-importing the server, the checks and the generators for
          // each of 190 files cost about a quarter of the suite's CPU time (5.3 minutes against 4.3).
          isolate: false,
        },
      },
      {
        test: {
          name: 'conformance',
          experimental: { viteModuleRunner: false },
          include: ['suites/**/*.suite.ts'],
          exclude: [...configDefaults.exclude, 'suites/stateful/**', 'suites/model/**', 'suites/writes.suite.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // The suites share no module state across files: one module graph per worker (the document
          // loaded and its validators compiled once per worker, not once per file).
          isolate: false,
          pool: 'threads',
          execArgv: SUITE_WORKER_ARGV,
          // Not 0: vitest runs a group of order 0 with one worker (a machine of 2 cores) last.
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'conformance-stateful',
          experimental: { viteModuleRunner: false },
          // The model-based suites and the checks of operations that change state (writes) change
          // state too: they run with the stateful ones.
          include: ['suites/writes.suite.ts', 'suites/stateful/**/*.suite.ts', 'suites/model/**/*.suite.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          pool: 'threads',
          execArgv: SUITE_WORKER_ARGV,
          fileParallelism: false,
          // One worker for every file: the stateful suites share no module state across files.
          isolate: false,
          // After the others when both run in one vitest (a shared target); a run whose stateful group
          // has a target of its own runs this project in a second vitest, beside the first (cli/run.ts).
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
