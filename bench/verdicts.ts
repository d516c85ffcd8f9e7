/**
 * The verdicts of a benchmark run and its exit code. A bar is judged (PASS or FAIL), bounded
 * outside the process (BOUNDED, not judged: bench/row-verdict.ts), or NOT MEASURED: the row could
 * not be measured (a process that did not start or ended, a load generator that failed, a row
 * that did not finish in time), with the reason. A row that cannot be measured does not stop the
 * run: the benchmark goes on to the next row and exits 2 at the end.
 * @see docs/performance.md (Rows that cannot be measured)
 */
import { rowVerdict } from './row-verdict.js';

/** What a bar's line says. */
export type VerdictStatus = 'PASS' | 'FAIL' | 'BOUNDED' | 'NOT MEASURED';

/** One line of the summary. */
export interface Verdict {
  status: VerdictStatus;
  text: string;
}

/** Where a benchmark prints its rows (one line, newline added). */
export type Out = (line?: string) => void;

/** The first line of an error's message (or of what was thrown), for a row's reason. */
export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.trim() || (error instanceof Error ? error.name : 'unknown error');
}

/** The verdicts of one run, in the order given. */
export class Verdicts {
  readonly #list: Verdict[] = [];
  readonly #out: Out;

  /** @param out where {@link measure} prints the line of a row it could not measure */
  constructor(out: Out) {
    this.#out = out;
  }

  /** A judged bar: PASS when `pass`, else FAIL. */
  judge(pass: boolean, text: string): void {
    this.#list.push({ status: pass ? 'PASS' : 'FAIL', text });
  }

  /**
   * A bar with its ceiling (bench/row-verdict.ts `rowVerdict`): PASS when met, BOUNDED (not judged)
   * when the ceiling misses it too, else FAIL; `beside` (the ceiling's figure) is added to a line
   * whose ceiling missed the bar.
   */
  judgeRow(meets: boolean, ceilingMeets: boolean, text: string, beside: string): void {
    const verdict = rowVerdict(meets, ceilingMeets);
    if (verdict === 'bounded') this.#list.push({ status: 'BOUNDED', text: `${text}: bounded outside the process; ${beside}` });
    else this.#list.push({ status: verdict === 'pass' ? 'PASS' : 'FAIL', text: ceilingMeets ? text : `${text}; ${beside}` });
  }

  /** A row that could not be measured, and why. */
  notMeasured(row: string, reason: string): void {
    this.#list.push({ status: 'NOT MEASURED', text: `${row}: ${reason}` });
  }

  /**
   * Runs the measurement of `row`; when it throws or does not end within `timeoutMs`, prints
   * `  ROW: NOT MEASURED: REASON`, adds that verdict and resolves all the same (a measurement cut
   * by its deadline goes on in the background; its servers are stopped by the caller's cleanup).
   * @param timeoutMs the row's deadline, milliseconds (none when undefined)
   * @returns whether the row was measured
   */
  async measure(row: string, measure: () => Promise<void>, timeoutMs?: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = timeoutMs === undefined ? undefined : new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`did not finish within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}`)), timeoutMs);
    });
    try {
      await (deadline ? Promise.race([measure(), deadline]) : measure());
      return true;
    } catch (error) {
      const reason = reasonOf(error);
      this.#out(`  ${row}: NOT MEASURED: ${reason}`);
      this.notMeasured(row, reason);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Every verdict so far, in order. */
  all(): readonly Verdict[] {
    return this.#list;
  }

  /**
   * The summary: one line per verdict (status, then text), then the counts: judged, bounded, not
   * measured, and whether every judged bar is met.
   */
  summary(): string[] {
    const count = (status: VerdictStatus) => this.#list.filter((v) => v.status === status).length;
    const [failed, bounded, unmeasured] = [count('FAIL'), count('BOUNDED'), count('NOT MEASURED')];
    const judged = failed + count('PASS');
    const lines = this.#list.map((v) => `  ${v.status.padEnd(12)}  ${v.text}`);
    lines.push(`${judged} bars judged${bounded > 0 ? `; ${bounded} not judged, bounded outside the process (their ceiling misses the bar too): BOUNDED above` : ''}.`);
    if (unmeasured > 0) lines.push(`${unmeasured} row(s) could not be measured: NOT MEASURED above.`);
    lines.push(failed === 0 ? 'Every judged bar is met.' : `${failed} of ${judged} judged bars failed.`);
    return lines;
  }

  /** The run's exit code: 2 when a row could not be measured, else 1 when a judged bar failed, else 0. */
  exitCode(): 0 | 1 | 2 {
    if (this.#list.some((v) => v.status === 'NOT MEASURED')) return 2;
    return this.#list.some((v) => v.status === 'FAIL') ? 1 : 0;
  }
}
