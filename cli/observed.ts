/**
 * What `conformance proxy` and `conformance check` share: the documents observed traffic is judged
 * against, the roles whose tokens are known, and the reports of the judged traffic, written by the
 * run's own reporters from the run's own results model.
 * @see docs/observed.md
 */
import { API_VERSIONS, loadSpec, specPath, type ApiVersion, type LoadedSpec } from '../core/spec/load.js';
import { exitCodeFor, type ExitCode, type RunResults } from '../engine/results.js';
import type { FailOn } from '../engine/conformance.js';
import { createReporters, RunClock } from '../reporters/index.js';
import { readConfigFile, resolveRemoteTarget } from './config.js';
import type { Role } from '../core/types.js';

/** Options both commands take. */
export interface ObservedCommandOptions {
  /** An OpenAPI document to judge against (default: both bundled versions, chosen per exchange by `Polar-Version`). */
  spec?: string;
  /** One bundled version to judge every exchange against. */
  apiVersion?: ApiVersion;
  /** conformance.config.json: the variables of each role's token (scope judged for `no_scope` tokens; reproducers name the variables). */
  config?: string;
  /** Reporters (console, json, junit, html); default console,junit. */
  reporters?: string[];
  /** Directory of the report files (default `conformance-report`). */
  outputDir?: string;
  /** `should` (default) or `must`: which failures make the exit code 1. */
  failOn?: FailOn;
  /** The console reporter's stream (tests); default stdout. */
  out?: NodeJS.WritableStream;
  /** Environment of the role variables (tests); default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The documents to judge against: `--spec`, or the bundled one of `--api-version`, or both bundled
 * versions (2026-10 first, whose operations the matrix lists).
 * @throws HarnessError CNF_ERR_SPEC_INVALID when a document cannot be read or is not valid
 */
export async function observedSpecs(options: Pick<ObservedCommandOptions, 'spec' | 'apiVersion'>): Promise<LoadedSpec[]> {
  if (options.spec) return [await loadSpec(options.spec)];
  if (options.apiVersion) return [await loadSpec(specPath(options.apiVersion))];
  return Promise.all(API_VERSIONS.map((version) => loadSpec(specPath(version))));
}

/**
 * The tokens whose role is known, with their variables: those the config names, else
 * `CONFORMANCE_<ROLE>_TOKEN` where set.
 * @throws HarnessError CNF_ERR_CONFIG_INVALID, CNF_ERR_SECRET_MISSING as `conformance run` does for its config
 */
export async function observedRoles(options: Pick<ObservedCommandOptions, 'config' | 'env'>, url: string): Promise<{ token: string; role: Role; env: string }[]> {
  const config = options.config ? await readConfigFile(options.config) : undefined;
  const target = resolveRemoteTarget({ url, ...(config ? { config } : {}), ...(options.env ? { env: options.env } : {}) });
  return Object.entries(target.roles).map(([role, credential]) => ({ token: credential!.token, role: role as Role, env: credential!.env ?? `CONFORMANCE_${role.toUpperCase()}_TOKEN` }));
}

/**
 * Writes the reports of judged traffic with the run's reporters and gives the exit code: 1 when
 * a finding was seen (as `--fail-on` counts them), 2 for a harness problem alone (the target could
 * not be reached), else 0.
 * @param clock started when the traffic began
 * @param title the reports' heading (`conformance proxy`, `conformance check FILE`)
 */
export async function reportObserved(results: RunResults, spec: LoadedSpec, clock: RunClock, options: ObservedCommandOptions & { target: string; title: string }): Promise<ExitCode> {
  const run = { target: options.target, specVersion: spec.version, seed: 0, title: options.title, ...(spec.notes.length ? { specNotes: spec.notes } : {}) };
  const reporters = createReporters(options.reporters ?? ['console', 'junit'], { ...run, outputDir: options.outputDir ?? 'conformance-report', spec, ...(options.out ? { out: options.out } : {}) });
  const info = clock.stop(run);
  for (const reporter of reporters) await reporter.report(results, info);
  return exitCodeFor(results, undefined, options.failOn ?? 'should');
}
