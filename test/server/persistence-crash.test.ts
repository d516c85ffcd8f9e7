// kill -9 during a stream of writes: every write whose answer arrived is there after a restart,
// and no id handed out before the kill is handed out again. The server runs as a child process
// with --state on a temporary file, small journal generations so that background snapshots run
// mid-stream too; bounded to 3 kills of about a second of writes each.
// @see server/state-journal.ts; docs/reference-server.md (Durability (--state))
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnUntilLine } from '../../bench/child-line.js';
import { recoverState } from '../../server/state-journal.js';

const CHILD = fileURLToPath(new URL('./persistence-child.ts', import.meta.url));
const CLI = fileURLToPath(new URL('../../bin/conformance.js', import.meta.url));
const ROUNDS = 3;
const STREAM_MS = 1000;
const WRITERS = 6;

const children = new Set<ChildProcess>();
const agent = new Agent({ connections: WRITERS * 2, headersTimeout: 5000, bodyTimeout: 5000 });

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await agent.close();
});

/** Starts the child on `file`; resolves with its URL, admin token and pid once it listens. */
async function startChild(file: string): Promise<{ child: ChildProcess; url: string; admin: string; pid: number }> {
  const { child, first } = await spawnUntilLine<{ url: string; admin: string; pid: number }>([CHILD, file, String(64 * 1024)], 30_000);
  children.add(child);
  return { child, ...first };
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  children.delete(child);
}

/** One acknowledged write: the id the answer gave and what the record is. */
interface Acked {
  id: string;
  kind: 'customers' | 'files';
}

/** Sends writes from WRITERS loops until `stop()`: control API customers and API file creations; returns the acknowledged ones. */
function streamWrites(url: string, admin: string, tag: string): { stop: () => void; done: Promise<Acked[]> } {
  let stopped = false;
  const acked: Acked[] = [];
  const loop = async (writer: number) => {
    for (let n = 0; !stopped; n++) {
      try {
        if (n % 3 === 2) {
          const answer = await request(`${url}/v1/files/`, {
            method: 'POST',
            dispatcher: agent,
            headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name: `${tag}-${writer}-${n}.txt`, mime_type: 'text/plain', size: 3, service: 'downloadable', upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 2 }] } }),
          });
          const body = (await answer.body.json()) as { id: string };
          if (answer.statusCode === 200) acked.push({ id: body.id, kind: 'files' });
        } else {
          const answer = await request(`${url}/__control/customers`, {
            method: 'POST',
            dispatcher: agent,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ external_id: `${tag}-${writer}-${n}` }),
          });
          const body = (await answer.body.json()) as { id: string };
          if (answer.statusCode === 201) acked.push({ id: body.id, kind: 'customers' });
        }
      } catch {
        // The kill: this write was not acknowledged.
        return;
      }
    }
  };
  const done = Promise.all(Array.from({ length: WRITERS }, (_, writer) => loop(writer))).then(() => acked);
  return { stop: () => (stopped = true), done };
}

describe('--state under kill -9', () => {
  it(`keeps every acknowledged write and reuses no id across ${ROUNDS} kills during writes`, async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'cnf-crash-')), 'state.json');
    const everyId = new Set<string>();
    let ackedTotal = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const { child, url, admin, pid } = await startChild(file);
      const stream = streamWrites(url, admin, `r${round}`);
      if (round === 0) {
        // A second server on the same file is refused: exit 2, the error code, no stack trace.
        const second = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--state', file], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stderr = '';
        second.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
        expect({ code, stderr: stderr.trim() }).toEqual({ code: 2, stderr: expect.stringMatching(new RegExp(`^conformance: error CNF_ERR_STATE_IN_USE: the state file .* is in use by process ${pid} `)) });
        expect(stderr).not.toMatch(/\n\s+at /);
      }
      await new Promise((resolve) => setTimeout(resolve, STREAM_MS));
      // Killed with writes in flight; the loops stop at their first failed request.
      await kill(child);
      stream.stop();
      const acked = await stream.done;
      expect(acked.length).toBeGreaterThan(20);
      ackedTotal += acked.length;

      const recovered = await recoverState(file);
      expect(recovered?.crashed).toBe(true);
      const lost = acked.filter((write) => recovered!.store[write.kind].get(write.id) === undefined);
      expect(lost).toEqual([]);
      // Ids handed out in this round must be new: none seen in an earlier round.
      const reused = acked.filter((write) => everyId.has(write.id));
      expect(reused).toEqual([]);
      for (const write of acked) everyId.add(write.id);
    }
    // After the last kill, new records get ids never handed out before.
    const { child, url, admin } = await startChild(file);
    const stream = streamWrites(url, admin, 'after');
    await new Promise((resolve) => setTimeout(resolve, 200));
    stream.stop();
    const after = await stream.done;
    await kill(child);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((write) => everyId.has(write.id))).toEqual([]);
    expect(ackedTotal).toBeGreaterThan(ROUNDS * 20);
  }, 120_000);
});
