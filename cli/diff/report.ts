/**
 * The report of a diff: what comparing each family gave (same, different, without answers,
 * skipped), the shrunk difference with both sides' observations and its replay command, the
 * response checks' failures on the target's own answers, and the text printed.
 * @see docs/usage.md (Differential testing against the reference: the report and exit codes)
 */
import pc from 'picocolors';
import { answerText, type Observation } from '../../engine/stateful/real.js';
import { shrinkNote } from '../../engine/stateful/run-family.js';
import type { FamilyId } from '../../engine/stateful/registry.js';
import type { CellMeta } from '../../core/types.js';
import type { Difference } from './normalize.js';

/** The first step at which the two sides differed, after shrinking. */
export interface DiffReport {
  /** The shrunk sequence, `inviteSeat → claimSeat(s1) → claimSeat(s1)[reused]`. */
  commands: string;
  /** Number of commands in it. */
  length: number;
  /** The differing step: its 1-based position and the command. */
  step: { index: number; command: string };
  differences: Difference[];
  /** What each side observed at that step. */
  target: Observation[];
  reference: Observation[];
  seed: number;
  /** Replays it with `--seed seed --path path`. */
  path: string;
  shrinks: number;
}

/** What comparing one family gave. */
export interface FamilyDiff {
  family: FamilyId;
  /**
   * `unanswered`: no difference was found, but requests of the family to the target got no answer
   * (`unanswered` of them), so "same" would be a verdict without an answer.
   */
  status: 'same' | 'different' | 'unanswered' | 'skipped';
  skipReason?: string;
  /** Requests of the family to the target that got no answer (timeout, reset, not HTTP). */
  unanswered?: number;
  sequences: number;
  difference?: DiffReport;
}

/** What {@link runDiff} ends with: exit 0 when no family differs and the target's answers pass the response checks, 1 otherwise. */
export interface DiffOutcome {
  exitCode: 0 | 1;
  seed: number;
  families: FamilyDiff[];
  /**
   * The response checks' failures on the target's own answers during the sequences (engine/judge.ts):
   * a target whose answers break the document fails even where the reference answers the same.
   */
  judged: CellMeta[];
}

/** Most differences printed for one step. */
const MAX_PRINTED = 20;

/** The report of a diff, as printed. */
export function formatDiff(outcome: DiffOutcome, context: { target: string; referenceSeed: number; color?: boolean; replayOptions?: string }): string {
  const c = pc.createColors(context.color ?? false);
  const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  const lines = [`conformance diff: ${context.target} against the embedded reference (demo data of seed ${context.referenceSeed}), seed ${outcome.seed}`];
  const width = Math.max(...outcome.families.map((f) => f.family.length));
  for (const f of outcome.families) {
    const verdict =
      f.status === 'same' ? c.green(`same (${f.sequences} sequences)`)
      : f.status === 'different' ? c.red('DIFFERENT')
      : f.status === 'unanswered' ? c.red(`NO ANSWER (${f.unanswered} request${f.unanswered === 1 ? '' : 's'} to the target got none; no difference found in what was answered)`)
      : c.dim(`skipped: ${f.skipReason}`);
    lines.push(`  ${f.family.padEnd(width)}  ${verdict}`);
  }
  for (const f of outcome.families) {
    const d = f.difference;
    if (!d) continue;
    lines.push('', c.red(`✗ ${f.family}: the target and the reference answer differently`));
    lines.push(`  Commands (shrunk${shrinkNote(d.shrinks)}, ${d.length} command${d.length === 1 ? '' : 's'}): ${d.commands}`);
    lines.push(`  First differing step: ${d.step.index}. ${d.step.command}`);
    const count = Math.max(d.target.length, d.reference.length);
    for (let i = 0; i < count; i++) {
      const a = d.target[i];
      const b = d.reference[i];
      lines.push(`    ${a?.what ?? b?.what}`);
      lines.push(`      target:    ${describeObservation(a)}`);
      lines.push(`      reference: ${describeObservation(b)}`);
    }
    lines.push('    differences:');
    for (const difference of d.differences.slice(0, MAX_PRINTED)) lines.push(`      ${difference.kind.padEnd(6)} ${difference.where}: target ${show(difference.target)}, reference ${show(difference.reference)}`);
    if (d.differences.length > MAX_PRINTED) lines.push(`      … and ${d.differences.length - MAX_PRINTED} more`);
    lines.push(`  Replay: npx conformance diff --target ${context.target}${context.replayOptions ?? ''} --families ${f.family} --seed ${d.seed} --path "${d.path}"`);
  }
  for (const cell of outcome.judged ?? []) {
    for (const failure of cell.failures) {
      lines.push('', c.red(`✗ ${cell.operationId} ${cell.checkId}: ${failure.title}`), `  ${failure.message.split('\n').join('\n  ')}`, `  Reproduce with: ${failure.reproduce.curl}`);
    }
  }
  const different = outcome.families.filter((f) => f.status === 'different').length;
  const same = outcome.families.filter((f) => f.status === 'same').length;
  const unanswered = outcome.families.filter((f) => f.status === 'unanswered').length;
  const skipped = outcome.families.length - different - same - unanswered;
  const broken = (outcome.judged ?? []).length;
  lines.push('', `conformance diff: ${different} famil${different === 1 ? 'y differs' : 'ies differ'}, ${same} same, ${unanswered ? `${unanswered} without answers, ` : ''}${skipped} skipped; ${broken} response check${broken === 1 ? '' : 's'} failed on the target's answers (seed ${outcome.seed})`, '');
  return lines.join('\n');
}

/** An observation in a few words: the answer, the adapter's result, or the value noted. */
function describeObservation(observation: Observation | undefined): string {
  if (!observation) return 'nothing';
  if (observation.exchange) return answerText(observation.exchange);
  if (observation.adapter) return observation.adapter.refused !== undefined ? `refused: ${observation.adapter.refused}` : truncate(JSON.stringify(observation.adapter.result) ?? 'done');
  return truncate(JSON.stringify(observation.value) ?? 'undefined');
}

function truncate(text: string): string {
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}
