/**
 * A child process that announces itself with one line on standard output (a JSON object with its
 * URL, tokens and so on), as bench/mixed-server.ts and the persistence test's child do.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { exitText, keepOutputTail } from './child-output.js';

/**
 * Spawns `node --import tsx <args>` and waits for the first line the child writes to standard output.
 * @param args the script and its options
 * @param timeoutMs how long to wait for the line (the child is killed when it does not come)
 * @param options.ipc open an IPC channel to the child (`child.send`, `message` events)
 * @returns the child and its first line parsed as JSON
 * @throws Error when the child exits first (with its exit code, signal and last lines of standard error) or the line does not come in time
 */
export async function spawnUntilLine<T>(args: readonly string[], timeoutMs: number, options: { ipc?: boolean } = {}): Promise<{ child: ChildProcess; first: T }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const errors = keepOutputTail({ stderr: child.stderr });
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args[0]} did not write its first line within ${timeoutMs} ms: ${errors.text()}`));
    }, timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const end = output.indexOf('\n');
      if (end >= 0) {
        clearTimeout(timer);
        resolve(output.slice(0, end));
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${args[0]} ended before its first line (${exitText(code, signal, errors.text())})`));
    });
  });
  return { child, first: JSON.parse(line) as T };
}
