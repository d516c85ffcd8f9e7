// Preloaded (`--require`) into every vitest worker of `conformance run` (cli/run.ts): Ctrl+C
// sends SIGINT to the whole process group, and a worker that died of it would take its finished
// tests with it. The main process alone ends the run on SIGINT: it marks the run interrupted (the
// workers then stop sending, core/breaker.ts), cancels vitest's run and writes the reports.
// SIGTERM is left alone: vitest ends its own workers with it.
'use strict';
process.on('SIGINT', () => {});
