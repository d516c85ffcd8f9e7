/**
 * The `conformance` command line: parses flags, calls the library, sets the exit code
 * (0 conformant, 1 failures, 2 harness error). Anything it does, a test can do by importing
 * `runConformance`, `startReferenceServer` or `loadSpec`.
 * @see design.md, Command line
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { FAULTS } from '../server/faults.js';
import { printBanner, startReferenceServer } from '../server/index.js';
import { API_VERSIONS, loadSpec, specPath, type ApiVersion } from '../spec/load.js';
import { HarnessError } from './errors.js';
import { runConformance, SUITES } from './run.js';

function integer(name: string, min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be an integer >= ${min}`);
    return n;
  };
}

const list = (value: string, previous: string[] = []): string[] => [...previous, ...value.split(',').map((s) => s.trim()).filter(Boolean)];

const program = new Command('conformance')
  .description('Conformance harness and reference mock server for the Commerce and Subscription Billing API')
  .showHelpAfterError();

program
  .command('run')
  .description('run the conformance suites against a target (default: the embedded reference server)')
  .option('--target <url>', 'base URL of the target; without it the reference server is started in-process')
  .option('--spec <file>', 'an OpenAPI 3.x document to check against (default: the bundled one)')
  .addOption(new Option('--api-version <version>', 'bundled document version').choices([...API_VERSIONS]))
  .option('--config <file>', 'conformance.config.json: roles (tokens by environment variable), fixtures, pacing')
  .option('--suites <names>', `suites to run, comma-separated (${SUITES.join(', ')})`, list)
  .option('--checks <ids>', 'check ids to run, comma-separated', list)
  .option('--operations <ids>', 'operationIds to run, comma-separated', list)
  .option('--seed <n>', 'seed of the property runs (printed on every run)', integer('--seed', 0))
  .option('--runs <n>', 'generated cases per operation and check', integer('--runs', 1), 50)
  .option('--rate <n>', 'requests per second to the target (default 80 for non-loopback targets, 0 = no pacing)', integer('--rate', 0))
  .option('--read-only', 'send no request that may change state')
  .option('--timeout <ms>', 'timeout of every request in milliseconds', integer('--timeout', 1))
  .option('--reporter <names>', 'console, json, junit (comma-separated or repeated)', list)
  .option('--output-dir <dir>', 'directory of the report files', 'conformance-report')
  .option('--fault <id>', 'switch on a fault of the embedded reference (repeatable)', list)
  .action(async (opts) => {
    const outcome = await runConformance({
      target: opts.target,
      spec: opts.spec,
      apiVersion: opts.apiVersion as ApiVersion | undefined,
      config: opts.config,
      suites: opts.suites,
      checks: opts.checks,
      operations: opts.operations,
      seed: opts.seed,
      runs: opts.runs,
      ...(opts.rate !== undefined ? { rate: opts.rate === 0 ? null : opts.rate } : {}),
      readOnly: opts.readOnly,
      timeoutMs: opts.timeout,
      reporters: opts.reporter,
      outputDir: opts.outputDir,
      faults: opts.fault,
    });
    process.exitCode = outcome.exitCode;
  });

program
  .command('serve')
  .description('serve the reference implementation with its demo data')
  .option('--port <n>', 'port to listen on (0 = a free one)', integer('--port', 0), 4010)
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .addOption(new Option('--api-version <version>', 'API version to serve').choices([...API_VERSIONS]).default('2026-10'))
  .option('--seed <n>', 'seed of the demo data', integer('--seed', 0), 1)
  .option('--fault <id>', `switch on a known defect (repeatable): ${FAULTS.map((f) => f.id).join(', ')}`, list)
  .action(async (opts) => {
    const running = await startReferenceServer({
      host: opts.host,
      port: opts.port,
      seed: opts.seed,
      apiVersion: opts.apiVersion as ApiVersion,
      faults: opts.fault ?? [],
    });
    process.stdout.write(`${printBanner(running)}\n`);
    const shutdown = () => {
      void running.close().then(() => process.exit(0));
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  });

program
  .command('lint')
  .description('validate an OpenAPI 3.x document')
  .option('--spec <file>', 'the document (default: the bundled 2026-10 one)')
  .action(async (opts) => {
    const file = opts.spec ?? specPath();
    const spec = await loadSpec(file);
    process.stdout.write(`${file}: valid OpenAPI ${spec.openapi} document, version ${spec.version}, ${spec.operations.length} operations\n`);
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof HarnessError) {
    process.stderr.write(`conformance: error ${error.code}: ${error.message}\n`);
  } else {
    process.stderr.write(`conformance: unexpected error: ${(error as Error).stack ?? String(error)}\n`);
  }
  process.exitCode = 2;
}
