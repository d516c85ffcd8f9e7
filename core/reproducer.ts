/**
 * Reproducers a person can run as printed: after an embedded run the reference the run used is
 * gone, so its curl is pointed at the `conformance serve` command that brings it back (same seed,
 * faults and version on a fixed port) with the token exports that make it work, and every failure
 * gets the `conformance run` line that replays its one cell.
 * @see docs/architecture.md (A finding's way)
 */
import type { Failure, Reproducer } from './types.js';

/** The port the printed `conformance serve` command listens on (its default). */
export const REPRODUCER_PORT = 4010;

/** What a run knows that makes its failures reproducible. */
export interface ReproductionInfo {
  /** `embedded`: the reference the run started (and stopped); `remote`: a URL that stays. */
  kind: 'embedded' | 'remote';
  /** The base URL the run sent to (for an embedded run, a port that is gone after it). */
  runBaseUrl: string;
  /** The run's seed: the embedded reference's demo data and every property run. */
  seed: number;
  /** Faults the embedded reference had switched on. */
  faults?: readonly string[];
  /** `--api-version`, when the run named one. */
  apiVersion?: string;
  /** `--spec`, when the run named one. */
  spec?: string;
  /** `--config`, when the run named one (a remote target's roles and fixtures). */
  config?: string;
  /** `--adapter`, when the run named one. */
  adapter?: string;
  /** The version `conformance serve` must answer in when the run named none (`--api-version` of the serve command). */
  servedVersion?: string;
  /** Embedded runs: the token of each variable the reproducers may use (the reference's demo tokens). */
  tokens?: Readonly<Record<string, string>>;
  /** Check ids that take `--path` (the model-based families). */
  pathChecks?: readonly string[];
  /** How the command is invoked in printed lines; default `npx conformance`. */
  command?: string;
}

function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:@,=+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The `conformance serve` command that brings back an embedded run's reference on {@link REPRODUCER_PORT}. */
export function serveCommand(info: ReproductionInfo): string {
  const parts = [info.command ?? 'npx conformance', 'serve', '--seed', String(info.seed), '--port', String(REPRODUCER_PORT)];
  const version = info.apiVersion ?? info.servedVersion;
  if (version) parts.push('--api-version', version);
  for (const fault of info.faults ?? []) parts.push('--fault', fault);
  return parts.join(' ');
}

/**
 * The `conformance run` command that replays one cell: its check and operation, the seed, and
 * `--target`/`--config` (remote) or `--fault`/`--api-version` (embedded), `--path` for a
 * model-based family's counterexample.
 */
export function replayCommand(failure: Pick<Failure, 'checkId' | 'operationId' | 'reproduce'>, info: ReproductionInfo): string {
  const parts = ['run'];
  if (info.kind === 'remote') parts.push('--target', info.runBaseUrl);
  if (info.config) parts.push('--config', info.config);
  if (info.spec) parts.push('--spec', info.spec);
  else if (info.apiVersion) parts.push('--api-version', info.apiVersion);
  if (info.kind === 'embedded') for (const fault of info.faults ?? []) parts.push('--fault', fault);
  if (info.adapter) parts.push('--adapter', info.adapter);
  parts.push('--seed', String(failure.reproduce.seed), '--checks', failure.checkId);
  const isModel = info.pathChecks?.includes(failure.checkId) ?? false;
  // A family runs under one operation row; --operations would only narrow the sequences' commands.
  if (!isModel) parts.push('--operations', failure.operationId);
  if (isModel && failure.reproduce.path) parts.push('--path', failure.reproduce.path);
  return [info.command ?? 'npx conformance', ...parts.map(shellWord)].join(' ');
}

/** The variables (`${NAME}`) a command uses. */
function variablesOf(command: string): string[] {
  return [...command.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!);
}

/**
 * A failure's reproducer made runnable: for an embedded run the curl and steps point at
 * `http://127.0.0.1:4010` (the base URL of {@link serveCommand}), with `serve` and the `exports`
 * of the variables they use; every run gets `replay`. A curl that is a comment (no single request
 * shows the failure) is kept as it is.
 * @returns a new reproducer; the failure is not changed
 */
export function runnableReproducer(failure: Pick<Failure, 'checkId' | 'operationId' | 'reproduce'>, info: ReproductionInfo): Reproducer {
  const reproduce: Reproducer = { ...failure.reproduce, replay: replayCommand(failure, info) };
  if (info.kind !== 'embedded') return reproduce;
  const local = `http://127.0.0.1:${REPRODUCER_PORT}`;
  const repoint = (command: string): string => command.split(info.runBaseUrl).join(local);
  reproduce.curl = repoint(reproduce.curl);
  if (reproduce.steps) reproduce.steps = reproduce.steps.map(repoint);
  reproduce.serve = serveCommand(info);
  const used = [...new Set([reproduce.curl, ...(reproduce.steps ?? [])].flatMap(variablesOf))];
  const exports = used.filter((name) => info.tokens?.[name] !== undefined).map((name) => `export ${name}=${shellWord(info.tokens![name]!)}`);
  if (exports.length) reproduce.exports = exports;
  return reproduce;
}

/**
 * A failure's reproducer as a shell script a person can save beside the report and run: how to
 * start the reference (embedded runs), the exports, then each step as a numbered curl (or the one
 * curl), and the replay line as a comment. Ends with a newline.
 */
export function reproducerScript(failure: Pick<Failure, 'checkId' | 'operationId' | 'title' | 'reproduce'>): string {
  const { reproduce } = failure;
  const lines = ['#!/bin/sh', `# ${failure.checkId} on ${failure.operationId}: ${failure.title}`, 'set -e'];
  if (reproduce.serve) lines.push(`# first, in another terminal: ${reproduce.serve}`);
  lines.push(...(reproduce.exports ?? []));
  const steps = reproduce.steps?.length ? reproduce.steps : [reproduce.curl];
  steps.forEach((step, i) => {
    if (steps.length > 1) lines.push(`# ${i + 1}/${steps.length}`);
    lines.push(step);
  });
  if (reproduce.replay) lines.push(`# the whole cell again: ${reproduce.replay}`);
  return `${lines.join('\n')}\n`;
}
