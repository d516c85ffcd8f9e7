/**
 * `conformance merge REPORT.json...`: joins the report.json files of the shards of one run
 * (`conformance run --shard K/N`) into the report of the whole run (console, JSON, JUnit, HTML),
 * with the whole run's exit code. The merged results are made the way a run makes its own
 * (engine/results.ts `finishResults`): the cells of every shard, their harness problems, and the
 * coverage, transitions and conformance statement computed again over all the cells.
 * @see docs/usage.md (Sharded runs)
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import { loadSpec, specPath, API_VERSIONS, type ApiVersion } from '../core/spec/load.js';
import { exitCodeFor, finishResults, type HarnessProblem, type ReportCell, type RunResults } from '../engine/results.js';
import { documentDigest, type ShardRun, type ShardStamp } from '../engine/shard.js';
import type { FailOn } from '../engine/conformance.js';
import { createReporters, type ReportInfo } from '../reporters/index.js';
import type { JsonReport } from '../reporters/json.js';
import { skippedForLack } from './run.js';

/** Options of {@link mergeShardReports}. */
export interface MergeOptions {
  /** The report.json files of every shard of one run, in any order. */
  reports: readonly string[];
  /** The run's document when it was not a bundled one (`--spec` of the run); default the bundled document of the reports' version. */
  spec?: string;
  /** Reporter names: console, json, junit, html; default console and junit. */
  reporters?: string[];
  /** Where the merged report files go; default `conformance-report`. */
  outputDir?: string;
  out?: NodeJS.WritableStream;
  color?: boolean;
  verbose?: boolean;
}

/** What a merge ends with: the whole run's exit code (0, 1 or 2, as `conformance run` gives it) and results. */
export interface MergeOutcome {
  exitCode: 0 | 1 | 2;
  results: RunResults;
  shards: number;
}

/** A shard's report as read: its file, the report, and its stamp. */
interface ShardReport {
  file: string;
  report: JsonReport;
  shard: ShardStamp;
}

const invalid = (message: string) => new HarnessError('CNF_ERR_CONFIG_INVALID', message);

/**
 * Reads one shard's report.json.
 * @throws HarnessError CNF_ERR_CONFIG_INVALID when it cannot be read, is not JSON, is not a report, or is not a shard's
 */
async function readShardReport(file: string): Promise<ShardReport> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw invalid(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let report: JsonReport;
  try {
    report = JSON.parse(text) as JsonReport;
  } catch (error) {
    throw invalid(`${file} is not JSON (${(error as Error).message}): give the report.json files of \`conformance run --shard K/N --reporter json\``);
  }
  if (!report || typeof report !== 'object' || !Array.isArray(report.cells) || !Array.isArray(report.errors)) {
    throw invalid(`${file} is not a report.json of \`conformance run\` (no cells and errors)`);
  }
  const shard = report.shard;
  if (!shard || typeof shard !== 'object' || !Number.isInteger(shard.index) || !Number.isInteger(shard.count) || !shard.run) {
    throw invalid(`${file} is the report of a whole run, not of a shard: only the reports of \`conformance run --shard K/N\` are merged`);
  }
  return { file, report, shard };
}

/** The first way two runs' stamps differ, for a person: `seed 1 and 2`, `document`, `option runs: 5 and 50`. */
function runDifference(a: ShardRun, b: ShardRun): string {
  if (a.seed !== b.seed) return `seed ${a.seed} and ${b.seed}`;
  if (a.document !== b.document) return `document (SHA-256 ${a.document.slice(0, 12)}… and ${b.document.slice(0, 12)}…)`;
  const keys = [...new Set([...Object.keys(a.options), ...Object.keys(b.options)])].sort();
  const key = keys.find((k) => JSON.stringify(a.options[k]) !== JSON.stringify(b.options[k]));
  return key === undefined ? 'options' : `option ${key}: ${JSON.stringify(a.options[key]) ?? '(not set)'} and ${JSON.stringify(b.options[key]) ?? '(not set)'}`;
}

/**
 * Checks that the reports are every shard of one run, once each.
 * @throws HarnessError CNF_ERR_CONFIG_INVALID naming the reports of different runs, a shard given twice, or the shards missing
 */
export function checkShardSet(shards: readonly Pick<ShardReport, 'file' | 'shard'>[]): void {
  if (shards.length === 0) throw invalid('no report to merge: give the report.json of every shard');
  const first = shards[0]!;
  for (const other of shards.slice(1)) {
    if (other.shard.count !== first.shard.count) {
      throw invalid(`${first.file} is shard ${first.shard.index}/${first.shard.count} and ${other.file} shard ${other.shard.index}/${other.shard.count}: shards of runs cut differently are not merged`);
    }
    if (JSON.stringify(other.shard.run) !== JSON.stringify(first.shard.run)) {
      throw invalid(`${first.file} and ${other.file} are shards of different runs (${runDifference(first.shard.run, other.shard.run)}): merge the shards of one run, made with the same seed, document and options`);
    }
  }
  const byIndex = new Map<number, string>();
  for (const { file, shard } of shards) {
    const seen = byIndex.get(shard.index);
    if (seen !== undefined) throw invalid(`shard ${shard.index}/${shard.count} is given twice (${seen} and ${file})`);
    byIndex.set(shard.index, file);
  }
  const missing = Array.from({ length: first.shard.count }, (_, i) => i + 1).filter((index) => !byIndex.has(index));
  if (missing.length) {
    throw invalid(`shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${first.shard.count}`).join(', ')} missing: the whole run's verdict needs every shard's report`);
  }
}

/** The document the shards judged, loaded, after checking its digest against theirs. */
async function shardDocument(options: MergeOptions, shards: readonly ShardReport[]) {
  const run = shards[0]!.shard.run;
  const version = run.options['apiVersion'] ?? shards[0]!.report.specVersion;
  const bundled = API_VERSIONS.includes(version as ApiVersion) ? specPath(version as ApiVersion) : undefined;
  const file = options.spec ?? bundled;
  if (!file) throw invalid(`the shards judged a document of version ${String(version)}, which is not bundled: pass it with --spec`);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw invalid(`cannot read the document ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (documentDigest(text) !== run.document) {
    throw invalid(`${file} is not the document the shards judged (SHA-256 ${run.document.slice(0, 12)}…): pass the run's document with --spec`);
  }
  return loadSpec(file);
}

/**
 * Merges the shards' reports into the whole run's report and writes it with the reporters.
 * @returns the whole run's exit code: 1 when a cell failed (as `--fail-on` of the run counts it) or
 *   coverage is below the run's `--min-coverage`, 2 for a harness problem of any shard, else 0
 * @throws HarnessError CNF_ERR_CONFIG_INVALID for a report that cannot be read or is not a shard's,
 *   shards of different runs, a shard given twice or missing, or a document other than the shards' (exit 2)
 */
export async function mergeShardReports(options: MergeOptions): Promise<MergeOutcome> {
  const shards = await Promise.all(options.reports.map((file) => readShardReport(file)));
  checkShardSet(shards);
  shards.sort((a, b) => a.shard.index - b.shard.index);
  const spec = await shardDocument(options, shards);
  const run = shards[0]!.shard.run;
  const count = shards[0]!.shard.count;
  const cells: ReportCell[] = shards.flatMap(({ report }) => report.cells as ReportCell[]);
  const errors: HarnessProblem[] = shards.flatMap(({ report, shard }) => report.errors.map((e) => ({ ...e, where: `shard ${shard.index}/${count}: ${e.where}` })));
  const minCoverage = typeof run.options['minCoverage'] === 'number' ? run.options['minCoverage'] : undefined;
  const results = finishResults({ cells, errors }, { spec, ...(minCoverage !== undefined ? { minCoverage } : {}) });
  const targets = [...new Set(shards.map(({ report }) => report.target))];
  const info: ReportInfo = {
    target: targets.length === 1 ? targets[0]! : String(run.options['target'] ?? targets[0]),
    specVersion: shards[0]!.report.specVersion,
    ...(shards[0]!.report.specNotes?.length ? { specNotes: shards[0]!.report.specNotes } : {}),
    seed: run.seed,
    title: `Conformance report (${count} shards merged)`,
    startedAt: shards.map(({ report }) => report.startedAt).sort()[0]!,
    // The shards ran side by side: the whole run took as long as its longest shard.
    durationMs: Math.max(...shards.map(({ report }) => report.durationMs)),
    merged: { shards: count, run },
  };
  const reporters = createReporters(options.reporters ?? ['console', 'junit'], {
    ...info,
    outputDir: path.resolve(options.outputDir ?? 'conformance-report'),
    spec,
    ...(minCoverage !== undefined ? { minCoverage } : {}),
    ...(options.out ? { out: options.out } : {}),
    ...(options.color !== undefined ? { color: options.color } : {}),
    ...(options.verbose !== undefined ? { verbose: options.verbose } : {}),
  });
  for (const reporter of reporters) await reporter.report(results, info);
  let exitCode = exitCodeFor(results, results.coverage, (run.options['failOn'] as FailOn | undefined) ?? 'should');
  if (run.options['failOnSkipped'] && exitCode === 0 && results.cells.some(skippedForLack)) exitCode = 1;
  return { exitCode, results, shards: count };
}
