/**
 * Server processes for the benchmark: spawned on a free loopback port, timed from spawn to their
 * first 200, and always stopped, even when the benchmark fails or is interrupted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

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

// Whatever happens to the benchmark, no server outlives it.
process.once('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });
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
 * @throws Error when the process exits or does not answer 200 in time (the process is killed)
 */
export async function startServer(name: string, command: string, args: readonly string[], port: number, probePath: string, headers: Record<string, string>, timeoutMs: number): Promise<ServerProcess> {
  const started = performance.now();
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: process.cwd() });
  running.add(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
    running.delete(child);
  });
  const url = `http://127.0.0.1:${port}`;
  while (performance.now() - started < timeoutMs) {
    if (exited !== undefined) throw new Error(`${name} exited with ${exited} before answering: ${stderr.trim()}`);
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
  throw new Error(`${name} did not answer 200 on ${probePath} within ${timeoutMs} ms: ${stderr.trim()}`);
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
