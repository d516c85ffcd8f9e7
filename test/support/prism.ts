// Prism, the mock server the project compares itself with, started for a test on 127.0.0.1 and a
// free port, and stopped by the test that started it (corpus runs, the spec's Prism test, the
// harness against a Prism target).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** How Prism answers: `static` from the document's examples, `dynamic` (`-d`) from values it generates from the schemas. */
export type PrismMode = 'static' | 'dynamic';

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Longest wait for Prism to answer after its start, in milliseconds. */
export const PRISM_START_MS = 180_000;

/** A running Prism mock. */
export interface PrismMock {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts Prism on a document (127.0.0.1, a free port) and waits until it answers, at most {@link PRISM_START_MS}.
 * @throws Error when Prism exits or does not answer in time
 */
export async function startPrism(file: string, mode: PrismMode = 'static'): Promise<PrismMock> {
  const port = await freePort();
  const args = ['mock', '--host', '127.0.0.1', '--port', String(port), ...(mode === 'dynamic' ? ['-d'] : []), file];
  const child: ChildProcess = spawn(path.join(ROOT, 'node_modules/.bin/prism'), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  };
  // Prism parses and dereferences the whole document before it listens: seconds for a large one, more on a loaded machine.
  const deadline = Date.now() + PRISM_START_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`prism exited (${child.exitCode}) on ${file}: ${stderr}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return { url, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  await stop();
  throw new Error(`prism did not answer within ${PRISM_START_MS / 1000} s on ${file}: ${stderr}`);
}
