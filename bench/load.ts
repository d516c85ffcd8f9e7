/**
 * The two measurements of the benchmark: throughput under concurrent load (autocannon) and the
 * latency of one request at a time (undici, one kept-alive connection).
 */
import autocannon from 'autocannon';
import { Client } from 'undici';

/** What a load run measured. */
export interface LoadResult {
  /** Mean requests per second. */
  rps: number;
  /** Latency percentiles in milliseconds (autocannon's resolution: 1 ms). */
  p50: number;
  p99: number;
  /** Mean response size, in bytes. */
  bytesPerResponse: number;
  /** Responses that were not 2xx, plus connection errors and timeouts. */
  failures: number;
}

/**
 * Runs autocannon against one URL: `warmUpS` seconds unmeasured, then `durationS` seconds measured.
 * @param headers sent with every request
 */
export async function measureLoad(url: string, headers: Record<string, string>, connections: number, warmUpS: number, durationS: number): Promise<LoadResult> {
  const run = (duration: number) => autocannon({ url, headers, connections, duration, pipelining: 1 });
  if (warmUpS > 0) await run(warmUpS);
  const result = await run(durationS);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytesPerResponse: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * The latencies of `count` requests sent one at a time over one kept-alive connection.
 * @returns milliseconds, in the order sent
 * @throws Error when a response is not 200
 */
export async function latencies(origin: string, path: string, headers: Record<string, string>, count: number): Promise<number[]> {
  const client = new Client(origin, { pipelining: 1 });
  try {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const response = await client.request({ method: 'GET', path, headers });
      await response.body.arrayBuffer();
      if (response.statusCode !== 200) throw new Error(`GET ${path} answered ${response.statusCode}`);
      times.push(performance.now() - started);
    }
    return times;
  } finally {
    await client.close();
  }
}

/** The median of a non-empty list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
