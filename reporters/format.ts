/**
 * Formatting shared by the reporters: failure de-duplication, compact JSON, the replay line,
 * durations and the account of observed traffic that was not the API's. Plain text only; colours
 * belong to the console reporter.
 */
import { conformanceStatement, type ConformanceStatement } from '../engine/conformance.js';
import type { NotApiExchange, NotApiReason, NotApiTraffic, RunResults } from '../engine/results.js';
import type { CellMeta, Failure, Reproducer } from '../core/types.js';

/** Failures that share a de-duplication key: the first one stands for all `count` occurrences. */
export interface FailureGroup {
  /** `<checkId>|<operationId>|<kind>`. */
  key: string;
  first: Failure;
  count: number;
}

/** The de-duplication key of a failure: same check, same operation, same kind (after Schemathesis). */
export function failureKey(failure: Pick<Failure, 'checkId' | 'operationId' | 'kind'>): string {
  return `${failure.checkId}|${failure.operationId}|${failure.kind}`;
}

/** Groups the failures of every cell by {@link failureKey}, in first-seen order. */
export function groupFailures(cells: readonly CellMeta[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const cell of cells) {
    for (const failure of cell.failures) {
      const key = failureKey(failure);
      const group = groups.get(key);
      if (group) group.count += 1;
      else groups.set(key, { key, first: failure, count: 1 });
    }
  }
  return [...groups.values()];
}

/**
 * One-line JSON of `value`, cut to `maxChars` characters with a trailing `…`; values that JSON
 * cannot show (undefined, functions, cycles) are shown with `String()`.
 */
export function compactJson(value: unknown, maxChars = 200): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return truncate(text, maxChars);
}

/** `text` cut to at most `maxChars` characters, the last one `…` when it was cut. */
export function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, Math.max(0, maxChars - 1))}…`;
}

/** How to replay a property run: `seed 42 path 0:1:3`, or `seed 42` without a counterexample path. */
export function replayLine(reproduce: Pick<Reproducer, 'seed' | 'path' | 'replay'>): string {
  if (reproduce.replay) return `Replay the cell: ${reproduce.replay}`;
  return reproduce.path ? `seed ${reproduce.seed} path ${reproduce.path}` : `seed ${reproduce.seed}`;
}

/**
 * The lines that reproduce a failure, as every reporter prints them: the `conformance serve`
 * command of an embedded run (to run first, in another terminal), the token exports, then the
 * request (a multi-step failure: every step, numbered, the failing one last), and the line that
 * replays the cell.
 */
export function reproducerLines(reproduce: Reproducer): string[] {
  const lines: string[] = [];
  if (reproduce.serve) lines.push(`# first, in another terminal: ${reproduce.serve}`);
  lines.push(...(reproduce.exports ?? []));
  const steps = reproduce.steps && reproduce.steps.length > 1 ? reproduce.steps : [reproduce.curl];
  if (steps.length === 1) lines.push(steps[0]!);
  else steps.forEach((step, i) => lines.push(`# ${i + 1}/${steps.length}${i === steps.length - 1 ? ' (fails)' : ''}`, step));
  return lines;
}

/** A duration in milliseconds as seconds with one decimal (`3.2s`), minutes above 60 s (`2m 5.0s`). */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m ${(seconds - minutes * 60).toFixed(1)}s`;
}

/** `n` followed by the noun, plural unless `n` is 1 (`1 failure`, `3 failures`). */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : pluralForm}`;
}

/** The conformance statement of `results`: the one the run made, or (hand-made results) the statement of their cells. */
export function statementOf(results: Pick<RunResults, 'cells' | 'conformance'>): ConformanceStatement {
  return results.conformance ?? conformanceStatement(results.cells);
}

/** One line per class of a statement: `  core        conformant       412 cells judged`, `  pagination  not conformant   2 must-level failed, 1 should-level`. */
export function statementLines(statement: ConformanceStatement): string[] {
  const width = Math.max(...statement.classes.map((c) => c.conformanceClass.length));
  return statement.classes.map((c) => {
    const counts = c.verdict === 'not shown'
      ? 'no cell ran'
      : c.mustFailed + c.shouldFailed === 0
        ? `${plural(c.judged, 'cell')} judged`
        : `${c.mustFailed} must-level failed, ${c.shouldFailed} should-level, of ${c.judged} judged`;
    return `  ${c.conformanceClass.padEnd(width)}  ${c.verdict.padEnd(14)}  ${counts}`;
  });
}

/** The statement's first line: `Conformance: conformant in 6 classes, 2 not shown` or `Conformance: not conformant (pagination, auth)`. */
export function statementHeadline(statement: ConformanceStatement): string {
  const failing = statement.classes.filter((c) => c.verdict === 'not conformant').map((c) => c.conformanceClass);
  const shown = statement.classes.filter((c) => c.verdict !== 'not shown').length;
  const hidden = statement.classes.length - shown;
  if (failing.length) return `Conformance: not conformant (${failing.join(', ')})`;
  return `Conformance: conformant in ${plural(shown, 'class', 'classes')}${hidden ? `, ${hidden} not shown` : ''}`;
}

/** What each reason for setting an exchange aside as not API traffic reads as in a report (engine/results.ts `NotApiReason`). */
export const NOT_API_REASON_LABELS: Readonly<Record<NotApiReason, string>> = {
  other_origin: 'another origin than the API\'s',
  cors_preflight: 'a CORS preflight',
  browser_resource: 'a browser\'s page, script, style, image or font',
  outside_base_path: 'outside the API\'s base path',
  static_answer: 'answered with a page or a static file',
};

/**
 * The one-line account of the exchanges set aside as not API traffic, for a heading, the commonest
 * reason first: `4 exchanges, not judged: 3 a browser's page, script, style, image or font, 1 another origin than the API's`.
 */
export function notApiTrafficHeadline(traffic: NotApiTraffic): string {
  const count = (reason: NotApiReason) => traffic.byReason[reason] ?? 0;
  // A stable sort: reasons of equal count keep the order of the labels.
  const reasons = (Object.keys(NOT_API_REASON_LABELS) as NotApiReason[]).filter((reason) => count(reason) > 0).sort((a, b) => count(b) - count(a));
  return `${plural(traffic.count, 'exchange')}, not judged: ${reasons.map((reason) => `${traffic.byReason[reason]} ${NOT_API_REASON_LABELS[reason]}`).join(', ')}`;
}

/** One exchange set aside, as a line of text: `#1 GET http://host/ — a browser's document request (Sec-Fetch-Dest: document)`. */
export function notApiExchangeLine(exchange: NotApiExchange): string {
  return `#${exchange.exchange} ${exchange.method} ${exchange.url} — ${exchange.why}`;
}
