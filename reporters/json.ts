/**
 * The JSON reporter: the whole run as one document for machines (CI artifacts, the HTML report,
 * diffing two runs). Failures carry their request, response, expected and actual values and
 * reproducer, with credentials in headers redacted and bodies cut to 1 MiB.
 */
import pkg from '../package.json' with { type: 'json' };
import { transitionCoverage, type TransitionCoverage } from '../engine/stateful/transitions.js';
import type { CellMeta, CellStatus, Failure, HttpRequest, HttpResponse } from '../core/types.js';
import { type Coverage } from '../engine/coverage.js';
import { buildMatrix } from './matrix.js';
import { statementOf } from './format.js';
import type { ConformanceStatement } from '../engine/conformance.js';
import { summarize, type HarnessProblem, type NotApiTraffic, type RunResults, type RunSummary } from '../engine/results.js';
import { type ReportInfo } from './run-info.js';
import type { RunTimings } from '../core/timings.js';
import type { ShardRun, ShardStamp } from '../engine/shard.js';
import { FileReporter, type FileReporterOptions } from './file-reporter.js';

/** Largest request or response body kept in a report, in bytes of UTF-8 (types.ts, HttpResponse). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Header names whose values are credentials; their values are replaced by {@link REDACTED}. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
]);

/** What a redacted credential reads as; an auth scheme (`Bearer`) is kept in front of it. */
export const REDACTED = '[redacted]';

/** A request or response body as reported: cut to {@link MAX_BODY_BYTES}, with `bodyTruncated` when it was. */
export type ReportedRequest = HttpRequest & { bodyTruncated?: true };
/** See {@link ReportedRequest}; `json` is dropped from a truncated response, since it would hold the whole body. */
export type ReportedResponse = HttpResponse & { bodyTruncated?: true };

/** A failure as reported: {@link Failure} with its request and response redacted and cut. */
export interface ReportedFailure extends Omit<Failure, 'request' | 'response'> {
  request: ReportedRequest;
  response?: ReportedResponse;
}

/** A cell as reported: {@link CellMeta} with reported failures and, when measured, its test's duration in milliseconds. */
export interface ReportedCell extends Omit<CellMeta, 'failures' | 'accepted'> {
  durationMs?: number;
  failures: ReportedFailure[];
  /** Failures the baseline accepts, redacted like failures. */
  accepted?: (ReportedFailure & { acceptedBecause: string })[];
}

/** The JSON report document; `matrix.statuses[row][column]` is `null` where a check did not run. */
export interface JsonReport {
  /** The npm package that wrote the report, and its version. */
  tool: string;
  version: string;
  target: string;
  specVersion: string;
  /** What loading the document changed or ignored (an OpenAPI 3.0 document upgraded, unknown formats); empty for none. */
  specNotes: string[];
  seed: number;
  /** ISO 8601, UTC. */
  startedAt: string;
  durationMs: number;
  /**
   * Where the run's time went (core/timings.ts): the main process's phases (its `reporting` is 0,
   * since the report is written inside it), the workers' work summed, and the exchanges judged;
   * `null` when the run did not measure it.
   */
  timings: RunTimings | null;
  /**
   * The shard of a sharded run this report holds (`--shard K/N`): its index and count, the run's
   * stamp (seed, document digest, options) and the units it ran; `null` for a whole run. A merged
   * report (`conformance merge`) has `null` here and the shards in `merged`.
   */
  shard: ShardStamp | null;
  /** A report of `conformance merge`: how many shards it was made of and their run's stamp; `null` otherwise. */
  merged: { shards: number; run: ShardRun } | null;
  /** Per conformance class, whether the target conforms (engine/conformance.ts). */
  conformance: ConformanceStatement;
  summary: RunSummary;
  /**
   * Spec coverage (`computeCoverage`), with `minPercent` and `belowMinimum` when `--min-coverage`
   * was given; `null` when the report was written without the document.
   */
  coverage: Coverage | null;
  /**
   * Transition coverage (`transitionCoverage`): per state machine of the reference, each edge
   * (`order: pending→paid`) with `exercised` true when a stateful scenario saw it happen through
   * the target, the counts `exercised` and `total` of edges, and `unknown`, the edges cells
   * recorded that no transition table has (a scenario bug); `null` when no stateful scenario ran.
   * @see docs/design.md, Reference server (state machines)
   */
  transitions: TransitionCoverage | null;
  matrix: { operations: string[]; checks: string[]; statuses: (CellStatus | null)[][] };
  cells: ReportedCell[];
  errors: HarnessProblem[];
  /**
   * Observed traffic only (`conformance proxy`, `conformance check`): the exchanges set aside as not
   * the API's (a page's document, scripts, styles, images, calls to other origins), never judged:
   * their count, the count by reason and the first 20 (method, URL without its query, why). Absent
   * from a run's report.
   * @see docs/observed.md (Not API traffic)
   */
  notApiTraffic?: NotApiTraffic;
}

/** Options of {@link JsonReporter}: the run's info, the document for coverage, and the file to write. */
export interface JsonReporterOptions extends FileReporterOptions {
  /** Path of the JSON file; missing directories are created. */
  outputFile: string;
}

/**
 * Builds the {@link JsonReport} of a run (pure; redacts credentials and cuts bodies); `coverage`
 * is null without one, `transitions` null when no cell records transitions.
 */
export function jsonReport(results: RunResults, info: ReportInfo, coverage?: Coverage): JsonReport {
  const matrix = buildMatrix(results.cells);
  return {
    tool: pkg.name,
    version: pkg.version,
    target: info.target,
    specVersion: info.specVersion,
    specNotes: info.specNotes ?? [],
    seed: info.seed,
    startedAt: info.startedAt,
    durationMs: info.durationMs,
    timings: info.timings ?? null,
    shard: info.shard ?? null,
    merged: info.merged ?? null,
    conformance: statementOf(results),
    summary: summarize(results),
    coverage: coverage ?? null,
    transitions: (results.transitions ?? transitionCoverage(results.cells)) ?? null,
    matrix: {
      operations: matrix.operations,
      checks: matrix.checks,
      statuses: matrix.statuses.map((row) => row.map((status) => status ?? null)),
    },
    cells: results.cells.map((cell) => ({
      ...cell,
      failures: cell.failures.map(reportFailure),
      ...(cell.accepted ? { accepted: cell.accepted.map((f) => ({ ...reportFailure(f), acceptedBecause: f.acceptedBecause })) } : {}),
    })),
    errors: results.errors,
    ...(results.notApiTraffic ? { notApiTraffic: results.notApiTraffic } : {}),
  };
}

/** {@link jsonReport} as pretty-printed JSON (two-space indent) ending with a newline. */
export function renderJson(results: RunResults, info: ReportInfo, coverage?: Coverage): string {
  return `${JSON.stringify(jsonReport(results, info, coverage), null, 2)}\n`;
}

/** Writes {@link renderJson} to `outputFile` of the run's results (with their coverage, when measured). */
export class JsonReporter extends FileReporter {
  constructor(options: JsonReporterOptions) {
    super(options, renderJson);
  }
}

function reportFailure(failure: Failure): ReportedFailure {
  const { request, response, ...rest } = failure;
  const reported: ReportedFailure = { ...rest, request: reportRequest(request) };
  if (response) reported.response = reportResponse(response);
  return reported;
}

function reportRequest(request: HttpRequest): ReportedRequest {
  const reported: ReportedRequest = { ...request, headers: redactHeaders(request.headers) };
  if (request.body !== undefined) {
    const body = cutBody(request.body);
    reported.body = body.text;
    if (body.truncated) reported.bodyTruncated = true;
  }
  return reported;
}

function reportResponse(response: HttpResponse): ReportedResponse {
  const body = cutBody(response.body);
  const reported: ReportedResponse = { ...response, headers: redactHeaders(response.headers), body: body.text };
  if (body.truncated) {
    reported.bodyTruncated = true;
    delete reported.json;
  }
  return reported;
}

/** Headers with credential values replaced, keeping the auth scheme (`Bearer [redacted]`). */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const redacted: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!SECRET_HEADERS.has(name.toLowerCase())) {
      redacted[name] = value;
      continue;
    }
    const scheme = /^(Bearer|Basic|Token)\s+/i.exec(value)?.[1];
    redacted[name] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
  }
  return redacted;
}

function cutBody(text: string): { text: string; truncated: boolean } {
  // Cheap test first: a string of n UTF-16 units is at most 3n bytes of UTF-8.
  if (text.length * 3 <= MAX_BODY_BYTES || Buffer.byteLength(text, 'utf8') <= MAX_BODY_BYTES) {
    return { text, truncated: false };
  }
  // Cutting bytes may split a character; the decoder turns the partial one into U+FFFD.
  return { text: Buffer.from(text, 'utf8').subarray(0, MAX_BODY_BYTES).toString('utf8'), truncated: true };
}
