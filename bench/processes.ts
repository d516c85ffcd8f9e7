/**
 * Server processes for the benchmark: spawned on a free loopback port, timed from spawn to their
 * first 200, and always stopped, even when the benchmark fails or is interrupted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { exitText, keepOutputTail } from './child-output.js';

/** A spawned server and how long it took to answer its first 200. */
export interface ServerProcess {
  name: string;
  /** Base URL without a trailing slash. */
  url: string;
  /** Milliseconds from spawn to the first 200 of the probe request. */
  firstResponseMs: number;
  child: ChildProcess;
}

const running = new Set<ChildProcess>();

function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
}

function killAllAndExit(): void {
  killAll();
  process.exit(130);
}

// Whatever happens to the benchmark, no server outlives it: while a server runs, the process's
// exit and its signals kill it. The handlers are there only then, so that a process that imports
// this module (a test) keeps its own handling of signals once its servers are stopped.
function track(child: ChildProcess): void {
  if (running.size === 0) {
    process.on('exit', killAll);
    process.on('SIGINT', killAllAndExit);
    process.on('SIGTERM', killAllAndExit);
  }
  running.add(child);
}

function untrack(child: ChildProcess): void {
  if (!running.delete(child) || running.size > 0) return;
  process.off('exit', killAll);
  process.off('SIGINT', killAllAndExit);
  process.off('SIGTERM', killAllAndExit);
}

/** A free TCP port on 127.0.0.1 (the port is released before it is returned; another process could take it in between). */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Spawns `command` (which must listen on 127.0.0.1:`port`) and polls `probePath` every 10 ms
 * until it answers 200.
 * @param headers sent with the probe
 * @param timeoutMs how long to wait for the first 200
 * @throws Error when the process exits or does not answer 200 in time (the process is killed), with
 *   its exit code, signal and the last lines of its standard error (bench/child-output.ts)
 */
export async function startServer(name: string, command: string, args: readonly string[], port: number, probePath: string, headers: Record<string, string>, timeoutMs: number): Promise<ServerProcess> {
  const started = performance.now();
  // Standard output ignored: a server under load would have this process read what it logs.
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: process.cwd() });
  track(child);
  const output = keepOutputTail(child);
  let exited = false;
  child.once('exit', () => {
    exited = true;
    untrack(child);
  });
  const url = `http://127.0.0.1:${port}`;
  while (performance.now() - started < timeoutMs) {
    if (exited) throw new Error(`${name} ended before answering (${exitText(child.exitCode, child.signalCode, output.text())})`);
    try {
      const response = await fetch(`${url}${probePath}`, { headers, signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (response.status === 200) return { name, url, firstResponseMs: performance.now() - started, child };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await stopServer({ name, url, firstResponseMs: NaN, child });
  throw new Error(`${name} did not answer 200 on ${probePath} within ${timeoutMs} ms (${exitText(child.exitCode, child.signalCode, output.text())})`);
}

/** Stops a server: SIGTERM, then SIGKILL after 2 s. */
export async function stopServer(server: ServerProcess): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
  await exited;
  clearTimeout(timer);
}
