// The load generator of the proxy's paced rows (bench/load.ts `alternatingPacedLoad`), in a process
// of its own that loads undici alone, so that its pauses are short and few: the bench's own process
// holds the earlier rows' heap, and a collection there of 5 to 15 ms moved a window's p99 by as much.
// It takes one command over IPC, sends it, answers with the latencies, and ends once its answer is
// written whole (bench/ipc-answer.mjs: an answer larger than the IPC socket's buffer was lost when
// the channel was closed right after process.send()).
//
// The routes (origins) take turns in slices of `sliceMs`: each sends at `rate` requests per second
// over its `connections` connections during its slice, open loop (each request at its time whether
// or not earlier ones were answered), timed from its send to its body's end. First `warmUpS`
// seconds per route, not kept; then `blocks` blocks of `blockS` seconds per route.
import { Pool } from 'undici';
import { answerParent } from './ipc-answer.mjs';

process.once('message', async ({ origins, path, headers, connections, rate, sliceMs, warmUpS, blocks, blockS }) => {
  const pools = origins.map((origin) => new Pool(origin, { connections, pipelining: 1 }));
  const perSlice = Math.max(1, Math.round((rate * sliceMs) / 1000));
  /** One stretch of `seconds` per route; latencies per route when `keep`. */
  const stretch = async (seconds, keep) => {
    const perRoute = Math.round(rate * seconds);
    const total = perRoute * origins.length;
    const times = origins.map(() => new Float64Array(perRoute + perSlice));
    const counts = origins.map(() => 0);
    const failures = origins.map(() => 0);
    let open = 0;
    let sent = 0;
    let finished;
    const done = new Promise((resolve) => (finished = resolve));
    const one = async (route) => {
      const started = performance.now();
      try {
        const response = await pools[route].request({ method: 'GET', path, headers });
        await response.body.dump();
        if (response.statusCode < 200 || response.statusCode > 299) failures[route]++;
        else if (keep) times[route][counts[route]++] = performance.now() - started;
      } catch {
        failures[route]++;
      }
      if (--open === 0 && sent === total) finished();
    };
    const start = performance.now();
    while (sent < total) {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
      for (; sent < due; sent++) {
        open++;
        void one(Math.floor(sent / perSlice) % origins.length);
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    if (open > 0) await done;
    const rps = total / ((performance.now() - start) / 1000);
    return { latencies: times.map((t, i) => Array.from(t.subarray(0, counts[i]))), failures, rps };
  };
  let answer;
  try {
    await stretch(warmUpS, false);
    const measured = [];
    for (let i = 0; i < blocks; i++) measured.push(await stretch(blockS, true));
    answer = { blocks: measured };
  } catch (error) {
    answer = { error: String(error?.stack ?? error) };
  }
  await Promise.allSettled(pools.map((pool) => pool.close()));
  await answerParent(answer);
});
