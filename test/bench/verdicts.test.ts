// A benchmark's verdicts: a row that cannot be measured says why, lets the next row run and makes
// the run exit 2; a judged bar that fails makes it exit 1; a bounded one is not judged.
// @see bench/verdicts.ts
import { describe, expect, it } from 'vitest';
import { Verdicts } from '../../bench/verdicts.js';

const silent = () => undefined;

describe('Verdicts', () => {
  const table: [string, (v: Verdicts) => void, { statuses: string[]; exitCode: number }][] = [
    ['every bar met', (v) => v.judge(true, 'a'), { statuses: ['PASS'], exitCode: 0 }],
    ['a bar failed', (v) => (v.judge(true, 'a'), v.judge(false, 'b')), { statuses: ['PASS', 'FAIL'], exitCode: 1 }],
    ['a bar and its ceiling both missed: bounded, not judged', (v) => v.judgeRow(false, false, 'a', 'ceiling 3 ms'), { statuses: ['BOUNDED'], exitCode: 0 }],
    ['a bar its ceiling meets, missed', (v) => v.judgeRow(false, true, 'a', 'ceiling 3 ms'), { statuses: ['FAIL'], exitCode: 1 }],
    ['a row not measured, beside a failed bar', (v) => (v.judge(false, 'a'), v.notMeasured('b', 'why')), { statuses: ['FAIL', 'NOT MEASURED'], exitCode: 2 }],
  ];
  it.each(table)('%s', (_name, given, want) => {
    const verdicts = new Verdicts(silent);
    given(verdicts);
    expect(verdicts.all().map((v) => v.status)).toEqual(want.statuses);
    expect(verdicts.exitCode()).toBe(want.exitCode);
  });

  it('measure: a row that throws is printed and kept NOT MEASURED with its reason, and the next row runs', async () => {
    const lines: string[] = [];
    const verdicts = new Verdicts((line = '') => lines.push(line));
    const first = await verdicts.measure('the paced rows', async () => {
      throw new Error('the paced load generator ended without answering (exit code 0, no signal; it wrote nothing)');
    });
    const second = await verdicts.measure('the judge\'s rate', async () => verdicts.judge(true, 'judged'));
    expect([first, second]).toEqual([false, true]);
    expect(lines).toEqual(['  the paced rows: NOT MEASURED: the paced load generator ended without answering (exit code 0, no signal; it wrote nothing)']);
    expect(verdicts.all()).toEqual([
      { status: 'NOT MEASURED', text: 'the paced rows: the paced load generator ended without answering (exit code 0, no signal; it wrote nothing)' },
      { status: 'PASS', text: 'judged' },
    ]);
    expect(verdicts.summary().slice(-3)).toEqual(['1 bars judged.', '1 row(s) could not be measured: NOT MEASURED above.', 'Every judged bar is met.']);
  });

  it('measure: a row that does not end by its deadline is NOT MEASURED', async () => {
    const verdicts = new Verdicts(silent);
    expect(await verdicts.measure('a hanging row', () => new Promise(() => undefined), 20)).toBe(false);
    expect(verdicts.all()).toEqual([{ status: 'NOT MEASURED', text: 'a hanging row: did not finish within 20 ms' }]);
  });
});
