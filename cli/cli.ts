/**
 * The `conformance` command line: parses flags, calls the library, sets the exit code
 * (0 conformant, 1 failures, 2 harness error). Anything it does, a test can do by importing
 * `runConformance`, `startReferenceServer` or `lintDocument`.
 * @see docs/design.md (Command line); docs/decisions.md (Harness: "Command-line errors exit 2")
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { FAULTS } from '../server/faults.js';
import { API_VERSIONS, specPath, type ApiVersion } from '../core/spec/load.js';
import { HarnessError } from '../core/errors.js';
import { listenFailure, parsePort } from './listen-error.js';
import { SUITES } from '../engine/suites.js';
import { parseShard, type Shard } from '../engine/shard.js';

// `--version` prints the package's version, read from its package.json beside this folder.
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

function integer(name: string, min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be an integer >= ${min}`);
    return n;
  };
}

// `--min-coverage 80` or `80%`: a percentage from 0 to 100, decimals allowed.
function percent(value: string): number {
  const n = Number(value.trim().replace(/%$/, ''));
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100) throw new InvalidArgumentError('--min-coverage must be a percentage from 0 to 100');
  return n;
}

// `--rate-limit 100` or `off`: requests per second per client IP of `serve`.
function rateLimit(value: string): number | false {
  if (value.trim().toLowerCase() === 'off') return false;
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 1) throw new InvalidArgumentError('--rate-limit must be a positive integer (requests per second per IP) or off');
  return n;
}

// `--shard 2/4`: engine/shard.ts parses it; its message is commander's, so the error exits 2 with the usage.
function shardOption(value: string): Shard {
  try {
    return parseShard(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

const list = (value: string, previous: string[] = []): string[] => [...previous, ...value.split(',').map((s) => s.trim()).filter(Boolean)];

const program = new Command('conformance')
  .description('Conformance harness and reference mock server for the Commerce and Subscription Billing API')
  .version(version, '-V, --version', 'print the version of the conformance package')
  .showHelpAfterError()
  // Commander exits 1 on a bad option by default; a harness error is exit 2 (docs/design.md, Command line).
  .exitOverride();

program
  .command('run')
  .description('run the conformance suites against a target (default: the embedded reference server)')
  .option('--target <url>', 'base URL of the target (default: the reference server, started in-process)')
  .option('--spec <file>', 'an OpenAPI 3.x document to check against (default: the bundled one of --api-version)')
  .addOption(new Option('--api-version <version>', 'bundled document version (default: "2026-10")').choices([...API_VERSIONS]))
  .option('--config <file>', 'conformance.config.json: roles (tokens by environment variable), fixtures, pacing')
  .option('--suites <names>', `suites to run, comma-separated: ${SUITES.join(', ')} (default: all)`, list)
  .option('--checks <ids>', 'check ids to run, comma-separated (default: all)', list)
  .option('--operations <ids>', 'operationIds to run, comma-separated (default: all)', list)
  .option('--seed <n>', 'seed of the property runs (default: random, printed on every run)', integer('--seed', 0))
  .option('--path <path>', 'with --seed and --checks model_<family>: replay the command sequence of a model-based failure (the path it printed)')
  .option('--runs <n>', 'generated cases per operation and check', integer('--runs', 1), 50)
  .option('--rate <n>', 'requests per second to a remote target, 0 = no pacing (default: 80; the embedded reference is not paced)', integer('--rate', 0))
  .option('--read-only', 'send no request that may change state')
  .option('--rate-limit-check', "send a remote target the rate-limit burst (over twice the API's 100 requests per second from one address, unpaced), then wait it out; the embedded reference always gets it")
  .option('--timeout <ms>', 'timeout of every request in milliseconds (default: 10000)', integer('--timeout', 1))
  .option('--reporter <names>', 'console, json, junit, html (comma-separated or repeated; default: console,junit)', list)
  .option('--min-coverage <percent>', 'exit 1 when spec coverage (operations, status codes or parameters) is below this percentage', percent)
  .option('--output-dir <dir>', 'directory of the report files', 'conformance-report')
  .option('--verbose', 'list every not-applicable and skipped cell on the console, not only the counts per reason')
  .option('--shard <K/N>', 'run shard K of N of the run (the same cells for the same seed, document and options on any machine); `conformance merge` joins the shards\' report.json files', shardOption)
  .option('--timings', "print where the run's time went: start-up, setup, suites (document load, case generation, waiting on the target, judging) and reporting")
  .option('--fault <id>', 'switch on a fault of the embedded reference (repeatable)', list)
  .option('--baseline <file>', 'accepted deviations: {"accepted":[{"checkId","operationId"?,"kind"?,"reason"}]}')
  .option('--adapter <file>', 'target adapter for the stateful suites: a module exporting createAdapter(target), or "reference" for a reference server\'s control API (the embedded target has one)')
  .option('--unresponsive-after <n>', 'consecutive requests without an answer (timeout, reset, refused, not HTTP) after which the target is declared unresponsive and every remaining case fails at once, 0 = never (default: 5)', integer('--unresponsive-after', 0))
  .option('--allow-missing-roles', 'run against a target without the admin token, its cells skipped (otherwise exit 2 after the preflight)')
  .option('--fail-on-skipped', 'exit 1 when a cell is skipped for a missing role, fixture or adapter (for CI)')
  .addOption(new Option('--fail-on <level>', 'which failures make the exit code 1: should (every failed cell) or must (only must-level checks; should-level ones are still reported)').choices(['must', 'should']).default('should'))
  .action(async (opts) => {
    // Subcommands import what only they use, so that `serve` starts without the harness and linter.
    const { runConformance } = await import('./run.js');
    const outcome = await runConformance({
      target: opts.target,
      spec: opts.spec,
      apiVersion: opts.apiVersion as ApiVersion | undefined,
      config: opts.config,
      suites: opts.suites,
      checks: opts.checks,
      operations: opts.operations,
      seed: opts.seed,
      ...(opts.path !== undefined ? { path: opts.path as string } : {}),
      runs: opts.runs,
      ...(opts.rate !== undefined ? { rate: opts.rate === 0 ? null : opts.rate } : {}),
      readOnly: opts.readOnly,
      ...(opts.rateLimitCheck ? { rateLimitCheck: true } : {}),
      timeoutMs: opts.timeout,
      ...(opts.unresponsiveAfter !== undefined ? { unresponsiveAfter: opts.unresponsiveAfter as number } : {}),
      reporters: opts.reporter,
      ...(opts.minCoverage !== undefined ? { minCoverage: opts.minCoverage } : {}),
      outputDir: opts.outputDir,
      faults: opts.fault,
      baseline: opts.baseline,
      adapter: opts.adapter,
      ...(opts.verbose ? { verbose: true } : {}),
      ...(opts.timings ? { timings: true } : {}),
      ...(opts.shard ? { shard: opts.shard as Shard } : {}),
      startupMs: performance.now(),
      ...(opts.allowMissingRoles ? { allowMissingRoles: true } : {}),
      ...(opts.failOnSkipped ? { failOnSkipped: true } : {}),
      failOn: opts.failOn as 'must' | 'should',
    });
    process.exitCode = outcome.exitCode;
  });

program
  .command('merge')
  .description('join the report.json files of every shard of one run (`run --shard K/N`) into the whole run\'s reports, with its exit code')
  .argument('<reports...>', 'the report.json of each shard, in any order')
  .option('--spec <file>', 'the run\'s document when it was not a bundled one (default: the bundled one of the reports\' version)')
  .option('--reporter <names>', 'console, json, junit, html (comma-separated or repeated; default: console,junit)', list)
  .option('--output-dir <dir>', 'directory of the merged report files', 'conformance-report')
  .option('--verbose', 'list every not-applicable and skipped cell on the console, not only the counts per reason')
  .action(async (reports: string[], opts) => {
    const { mergeShardReports } = await import('./merge.js');
    const outcome = await mergeShardReports({ reports, spec: opts.spec, reporters: opts.reporter, outputDir: opts.outputDir, ...(opts.verbose ? { verbose: true } : {}) });
    process.exitCode = outcome.exitCode;
  });

program
  .command('replay')
  .description('send the failures of a report.json again and re-run their checks')
  .argument('<report>', 'report.json written by `conformance run --reporter json`')
  .option('--target <url>', "base URL to replay against (default: the report's target)")
  .option('--config <file>', 'conformance.config.json: roles (tokens by environment variable)')
  .option('--spec <file>', "an OpenAPI document (default: the bundled one of the report's version)")
  .option('--rate <n>', 'requests per second to the target, 0 = no pacing (default: 80, or the config\'s requestsPerSecond)', integer('--rate', 0))
  .option('--timeout <ms>', 'timeout of every request in milliseconds (default: 10000)', integer('--timeout', 1))
  .option('--unresponsive-after <n>', 'consecutive requests without an answer after which the target is declared unresponsive and the failures left are not sent again, 0 = never (default: 5)', integer('--unresponsive-after', 0))
  .action(async (report: string, opts) => {
    const { replayReport } = await import('./replay.js');
    const outcome = await replayReport({ report, target: opts.target, config: opts.config, spec: opts.spec, timeoutMs: opts.timeout, ...(opts.rate !== undefined ? { rate: opts.rate as number } : {}), ...(opts.unresponsiveAfter !== undefined ? { unresponsiveAfter: opts.unresponsiveAfter as number } : {}) });
    process.exitCode = outcome.exitCode;
  });

program
  .command('diff')
  .description('run the same generated command sequences against the target and an embedded reference and report every difference (exit 1)')
  .option('--target <url>', 'base URL of the target (required without --har; with --har: the second target to replay against, default the embedded reference)')
  .option('--har <file>', 'replay the requests of a recorded HAR session in order and compare the answers with the recorded ones, per operation')
  .option('--config <file>', 'conformance.config.json: roles (tokens by environment variable), fixtures, pacing')
  .option('--adapter <file>', 'target adapter: a module exporting createAdapter(target), or "reference" for a reference started with `conformance serve` (also reset before every sequence)')
  .option('--families <names>', 'families to compare, comma-separated (orders, seats, product-benefits, customers, files)', list)
  .option('--seed <n>', 'seed of the command sequences (default: random, printed on every run)', integer('--seed', 0))
  .option('--path <path>', 'with --seed and one family: replay the sequence of a difference (the path it printed)')
  .option('--runs <n>', 'command sequences per family (default: 10)', integer('--runs', 1))
  .addOption(new Option('--api-version <version>', 'version of the document and the embedded reference').choices([...API_VERSIONS]))
  .option('--spec <file>', 'an OpenAPI document (default: the bundled one)')
  .option('--reference-seed <n>', 'seed of the embedded reference\'s demo data (default 1, as `conformance serve`)', integer('--reference-seed', 0))
  .option('--rate <n>', 'requests per second to the target, 0 = no pacing (default: 80)', integer('--rate', 0))
  .option('--timeout <ms>', 'timeout of every request in milliseconds (default: 10000)', integer('--timeout', 1))
  .option('--unresponsive-after <n>', 'consecutive requests to the target without an answer after which it is declared unresponsive and every later request to it fails at once, 0 = never (default: 5)', integer('--unresponsive-after', 0))
  .action(async (opts) => {
    if (opts.har) {
      const { diffHar } = await import('./diff/har.js');
      const outcome = await diffHar({ har: opts.har, target: opts.target, referenceSeed: opts.referenceSeed, apiVersion: opts.apiVersion as ApiVersion | undefined, timeoutMs: opts.timeout });
      process.exitCode = outcome.exitCode;
      return;
    }
    if (!opts.target) throw new HarnessError('CNF_ERR_CONFIG_INVALID', 'conformance diff needs --target <url> (or --har <file> to replay a recorded session)');
    const { runDiff } = await import('./diff/run.js');
    const outcome = await runDiff({
      target: opts.target,
      config: opts.config,
      adapter: opts.adapter,
      families: opts.families,
      seed: opts.seed,
      runs: opts.runs,
      path: opts.path,
      apiVersion: opts.apiVersion as ApiVersion | undefined,
      spec: opts.spec,
      referenceSeed: opts.referenceSeed,
      ...(opts.rate !== undefined ? { rate: opts.rate === 0 ? null : opts.rate } : {}),
      timeoutMs: opts.timeout,
      ...(opts.unresponsiveAfter !== undefined ? { unresponsiveAfter: opts.unresponsiveAfter as number } : {}),
    });
    process.exitCode = outcome.exitCode;
  });

program
  .command('serve')
  .description('serve the reference implementation with its demo data, or your own (--data), and its dashboard at /__dashboard/')
  // A bad port is a CNF_ERR_* line like a busy one (parsePort throws a HarnessError, which Commander passes on).
  .option('--port <n>', 'port to listen on (0 = a free one)', parsePort, 4010)
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .addOption(new Option('--api-version <version>', 'API version of requests without a Polar-Version header (the platform\'s default is 2026-04; each request may ask for another)').choices([...API_VERSIONS]).default('2026-04'))
  // No default here: with --state the file's seed applies, and a different explicit seed is an error.
  .option('--seed <n>', 'seed of the demo data (default: 1)', integer('--seed', 0))
  .option('--fault <id>', `switch on a known defect (repeatable): ${FAULTS.map((f) => f.id).join(', ')}`, list)
  .option('--rate-limit <n|off>', 'requests per second per client IP, or off', rateLimit, 100)
  .option('--no-control', 'do not serve the control API under /__control/')
  .option('--state <file>', 'keep the store in this file: loaded at start when it exists, written after changes and on exit')
  .option('--data <file>', 'the store\'s records from a YAML or JSON data file (spec/data.schema.json; docs/data-file.md) instead of the demo store; with --state, it seeds a new state file only')
  .addOption(new Option('--demo-data <store>', 'demo store: default (the price types of the platform\'s document only) or full (also unit_based and metered_tiers)').choices(['default', 'full']).default('default'))
  .action(async (opts) => {
    // Loaded here, like every command's own code: the reference server is the largest part of the
    // package, and `conformance proxy` or `check` should not hold it in their heap.
    const { printBanner, startReferenceServer } = await import('../server/index.js');
    const running = await startReferenceServer({
      demoData: opts.demoData as 'default' | 'full',
      host: opts.host,
      port: opts.port,
      ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
      apiVersion: opts.apiVersion as ApiVersion,
      faults: opts.fault ?? [],
      rateLimit: opts.rateLimit as number | false,
      control: opts.control as boolean,
      ...(opts.state !== undefined ? { stateFile: opts.state as string } : {}),
      ...(opts.data !== undefined ? { data: opts.data as string } : {}),
    }).catch((error: unknown) => {
      throw listenFailure(error, { host: opts.host as string, port: opts.port as number }) ?? error;
    });
    process.stdout.write(`${printBanner(running)}\n`);
    const shutdown = () => {
      void running.close().then(() => process.exit(0));
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  });

program
  .command('proxy')
  .description('a loopback proxy in front of a target: judges every exchange that passes through; Ctrl+C or SIGTERM writes the reports (exit 1 when a finding was seen)')
  .requiredOption('--target <url>', 'base URL of the target')
  .option('--port <n>', 'port to listen on (0 = a free one)', parsePort, 4020)
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .option('--record <file>', 'record every exchange to this HAR 1.2 file, secrets redacted')
  .option('--strict', 'answer 502 with a JSON body naming the findings when an answer fails a must-level check')
  .option('--spec <file>', 'an OpenAPI document (default: the bundled ones, chosen per exchange by Polar-Version)')
  .addOption(new Option('--api-version <version>', 'judge every exchange against this bundled version').choices([...API_VERSIONS]))
  .option('--config <file>', 'conformance.config.json: the variables of the roles\' tokens (reproducers name them; no_scope tokens get their scope judged)')
  .option('--reporter <names>', 'console, json, junit, html (default: console,junit)', list)
  .option('--output-dir <dir>', 'directory of the report files', 'conformance-report')
  .option('--timeout <ms>', 'deadline of each exchange with the target in milliseconds (default: 30000)', integer('--timeout', 1))
  .option('--judge-threads <n>', 'threads that judge the exchanges (default: one per core, at most 4; 1 with --record)', integer('--judge-threads', 1))
  .addOption(new Option('--fail-on <level>', 'which findings make the exit code 1').choices(['must', 'should']).default('should'))
  .action(async (opts) => {
    const { runProxy } = await import('./proxy.js');
    const { lowerHelperThreads } = await import('../engine/observed/priority.js');
    const command = await runProxy({ target: opts.target, port: opts.port, host: opts.host, record: opts.record, strict: opts.strict, spec: opts.spec, apiVersion: opts.apiVersion as ApiVersion | undefined, config: opts.config, reporters: opts.reporter, outputDir: opts.outputDir, timeoutMs: opts.timeout, judgeThreads: opts.judgeThreads as number | undefined, failOn: opts.failOn as 'must' | 'should' });
    // This process is the proxy: V8's helper threads, working mostly for the judging threads, yield to forwarding as those do.
    lowerHelperThreads();
    process.stdout.write(`conformance proxy: ${command.proxy.url} -> ${opts.target as string}${opts.record ? ` (recording to ${opts.record as string})` : ''}, judging on ${command.judgeThreads} thread${command.judgeThreads === 1 ? '' : 's'}; Ctrl+C writes the reports\n`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        void command.stop().then(({ exitCode }) => {
          process.exitCode = exitCode;
          resolve();
        });
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  });

program
  .command('check')
  .description('judge recorded traffic (a HAR 1.2 file) offline with the same checks and reports')
  .argument('<file>', 'the HAR file (browsers, Playwright, Postman, Insomnia, `conformance proxy --record`)')
  .option('--spec <file>', 'an OpenAPI document (default: the bundled ones, chosen per exchange by Polar-Version)')
  .addOption(new Option('--api-version <version>', 'judge every exchange against this bundled version').choices([...API_VERSIONS]))
  .option('--config <file>', 'conformance.config.json: the variables of the roles\' tokens')
  .option('--base-url <url>', 'the API\'s base URL: requests to other origins are not API traffic (default: the origins where a request matches an operation)')
  .option('--reporter <names>', 'console, json, junit, html (default: console,junit)', list)
  .option('--output-dir <dir>', 'directory of the report files', 'conformance-report')
  .addOption(new Option('--fail-on <level>', 'which findings make the exit code 1').choices(['must', 'should']).default('should'))
  .action(async (file: string, opts) => {
    const { checkHar } = await import('./check.js');
    const outcome = await checkHar({ file, spec: opts.spec, apiVersion: opts.apiVersion as ApiVersion | undefined, config: opts.config, ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl as string } : {}), reporters: opts.reporter, outputDir: opts.outputDir, failOn: opts.failOn as 'must' | 'should' });
    process.exitCode = outcome.exitCode;
  });

program
  .command('lint')
  .description('validate an OpenAPI 3.x document and lint it with Spectral\'s oas ruleset (exit 2 on an error)')
  .option('--spec <file>', 'the document (default: both bundled ones, 2026-10 and 2026-04)')
  .action(async (opts) => {
    const { formatLintResult, lintDocument } = await import('../core/spec/lint.js');
    const files: string[] = opts.spec ? [opts.spec] : API_VERSIONS.map((version) => specPath(version));
    for (const file of files) {
      const result = await lintDocument(file);
      process.stdout.write(formatLintResult(result));
      if (!result.ok) process.exitCode = 2;
    }
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander has already printed the message (or the help); only the exit code is ours.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof HarnessError) {
    process.stderr.write(`conformance: error ${error.code}: ${error.message}\n`);
  } else {
    process.stderr.write(`conformance: unexpected error: ${(error as Error).stack ?? String(error)}\n`);
  }
  if (!(error instanceof CommanderError)) process.exitCode = 2;
}
