/**
 * A judging thread of `conformance proxy` (one of a {@link JudgePool}'s): holds an observed judge
 * (and the recording, whose secrets it names) so that judging never holds up the thread that
 * forwards the traffic. Started by engine/observed/worker-judge.ts through bin/judge-worker.js,
 * which lets Node load these sources. Messages in: `{id, load, index, names, exchange, startedAt}`
 * or `{id, load, index, names, request, answer, startedAt}`, each with the `context` of its list
 * when other threads judged the list's last answers (adopt the pool's secret names, take the
 * context's answers as the list's, judge and record one exchange, count it in the shared progress; the reply is its verdict, none for id
 * -1), `{forget: true}` (a write elsewhere: forget the
 * walks and writes; no reply) and `{id, state: true}` (close the recording; the reply is what was
 * judged, engine/observed/judge.ts `ObservedState`).
 * @see docs/observed.md (Performance)
 */
import { stat } from 'node:fs/promises';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { loadSpec } from '../../core/spec/load.js';
import type { SecretRef } from '../../core/curl.js';
import type { Role } from '../../core/types.js';
import type { BaselineEntry } from '../baseline.js';
import type { ContextAnswer, ObservedExchange, RawAnswer } from './exchange.js';
import { HarRecorder } from './har.js';
import { ObservedJudge } from './judge.js';
import { JUDGE_NICE } from './priority.js';
import { RecentAnswers } from './response.js';


/** What the judging thread is started with. */
export interface JudgeWorkerData {
  /** Document files, in the order of `ObservedJudgeOptions.specs`. */
  specFiles: string[];
  basePaths?: readonly string[];
  /** The API's origins (`ObservedJudgeOptions.origins`). */
  origins?: readonly string[];
  roles?: readonly { token: string; role: Role; env: string }[];
  baseline?: readonly BaselineEntry[];
  /** The HAR file to record to. */
  record?: string;
  /** BigInt64Array of 2: the exchanges this thread judged, and their load (engine/observed/worker-judge.ts `load`). */
  progress: SharedArrayBuffer;
  /** Int32Array of 1, shared by the pool's threads: exchanges judged by any of them, notified at each one. */
  judged: SharedArrayBuffer;
}

/** Where an exchange stands in the pool's traffic: its number, the secret names given since the last message, and the answers of its list other threads judged last. */
interface Routing {
  index: number;
  names: SecretRef[];
  context?: ContextAnswer[];
}

/** An exchange to judge: `id` -1 asks for no verdict back; `load` is what it adds to the thread's load. */
type Message =
  | ({ id: number; load: number; exchange: ObservedExchange; startedAt: string } & Routing)
  | ({ id: number; load: number; request: ObservedExchange['request']; answer: RawAnswer; startedAt: string } & Routing)
  | { forget: true }
  | { id: number; state: true };

/**
 * Forwarding comes first: on Linux a thread has a nice value of its own (setpriority of thread 0
 * is the calling thread), so the judging thread yields the CPU to the proxy's forwarding thread
 * when they compete, and judging waits instead of the client. Elsewhere the call would lower the
 * whole process, so it is not made. A thread inherits its creator's nice value, and libuv's pool
 * threads, shared with the forwarding thread (its DNS lookups among others), are created at the
 * process's first asynchronous file operation, which could be this thread's: one is made here
 * first. Not SCHED_IDLE: it starved the judge on a busy machine (docs/decisions.md, Observed traffic).
 */
async function yieldToForwarding(): Promise<void> {
  if (process.platform !== 'linux') return;
  // Any answer will do, a failure too: what matters is that the pool exists.
  await stat(process.cwd()).catch(() => undefined);
  try {
    os.setPriority(0, JUDGE_NICE);
  } catch {
    // Not allowed here: judged at the process's priority.
  }
}

const data = workerData as JudgeWorkerData;
const progress = new BigInt64Array(data.progress);
const judged = new Int32Array(data.judged);
const recent = new RecentAnswers();
let judge: ObservedJudge;
let recorder: HarRecorder | undefined;
try {
  const specs = await Promise.all(data.specFiles.map((file) => loadSpec(file)));
  judge = new ObservedJudge({ specs, ...(data.basePaths ? { basePaths: data.basePaths } : {}), ...(data.origins ? { origins: data.origins } : {}), ...(data.roles ? { roles: data.roles } : {}), ...(data.baseline ? { baseline: data.baseline } : {}) });
  recorder = data.record ? await HarRecorder.open(data.record, (value) => judge.secretEnv(value)) : undefined;
} catch (error) {
  // A harness error keeps its code across the thread boundary.
  parentPort!.postMessage({ failed: { code: (error as { code?: string }).code, message: (error as Error).message } });
  process.exit(0);
}

parentPort!.on('message', (message: Message) => {
  if ('forget' in message) {
    judge.forget();
    return;
  }
  if ('state' in message) {
    void (async () => {
      await recorder?.close();
      parentPort!.postMessage({ id: message.id, state: judge.state() });
    })();
    return;
  }
  judge.adoptSecrets(message.names);
  // The list's last answers, judged on other threads: taken, not judged again.
  message.context?.forEach((entry, i) => judge.recall('exchange' in entry ? entry.exchange : { request: entry.request, response: recent.responseOf(entry.answer) }, entry.index, i === 0));
  // An answer as it came off the wire is decoded and parsed here, off the forwarding thread.
  const exchange: ObservedExchange = 'answer' in message ? { request: message.request, response: recent.responseOf(message.answer) } : message.exchange;
  recorder?.record(exchange, new Date(message.startedAt));
  const verdict = judge.judge(exchange, message.index);
  Atomics.add(progress, 1, BigInt(message.load));
  Atomics.add(progress, 0, 1n);
  Atomics.add(judged, 0, 1);
  Atomics.notify(judged, 0);
  if (message.id >= 0) parentPort!.postMessage({ id: message.id, verdict });
});
await yieldToForwarding();
parentPort!.postMessage({ ready: true });
