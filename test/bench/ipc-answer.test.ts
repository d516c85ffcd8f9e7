// A child of the benchmark that answers over IPC is heard whole even when its answer is larger than
// the IPC socket's buffer and the parent is busy when it comes: it leaves once the answer is
// written, not when process.send() returns (the paced load generator's answer was lost so).
// @see bench/ipc-answer.mjs
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exitText, keepOutputTail } from '../../bench/child-output.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/large-answer.mjs', import.meta.url));

/** Forks the fixture, tells it to answer, keeps this process busy for `busyMs`, then waits for the answer or the child's end. */
async function askWhileBusy(env: Record<string, string>, busyMs: number): Promise<{ answer?: number[]; ended?: string }> {
  const child = fork(FIXTURE, [], { execArgv: [], serialization: 'advanced', stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: { ...process.env, ...env } });
  const output = keepOutputTail(child);
  return await new Promise((resolve) => {
    child.on('message', (message) => {
      if (message !== 'ready') {
        resolve({ answer: (message as { latencies: number[] }).latencies });
        return;
      }
      child.send('go');
      // Busy, as the benchmark's process is when a collection or the machine's load holds it: nothing reads the channel meanwhile.
      const until = performance.now() + busyMs;
      while (performance.now() < until);
    });
    child.once('close', (code, signal) => resolve({ ended: exitText(code, signal, output.text()) }));
  });
}

describe('answerParent', () => {
  it('is heard whole although the answer is larger than the socket buffer and the parent was busy when it came', async () => {
    const { answer, ended } = await askWhileBusy({}, 300);
    expect(ended).toBeUndefined();
    expect(answer).toHaveLength(120_000);
    expect(answer!.at(-1)).toBe(119_999.5);
  });

  it('is needed: sending and disconnecting at once loses the same answer, and the child exits 0 (as the paced load generator did)', async () => {
    const { answer, ended } = await askWhileBusy({ NAIVE: '1' }, 300);
    expect(answer).toBeUndefined();
    expect(ended).toBe('exit code 0, no signal; it wrote nothing');
  });
});

describe('exitText', () => {
  it.each([
    [0, null, '', 'exit code 0, no signal; it wrote nothing'],
    [null, 'SIGKILL', 'a\nb\n', 'exit code none, signal SIGKILL; its last lines: a | b'],
    [1, null, '1\n2\n3\n4\n5\n6\n\n', 'exit code 1, no signal; its last lines: 2 | 3 | 4 | 5 | 6'],
  ] as const)('exit %s, signal %s', (code, signal, tail, want) => {
    expect(exitText(code, signal, tail)).toBe(want);
  });
});
