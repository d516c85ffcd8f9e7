/**
 * `conformance proxy --target URL`: the conformance proxy as a command. It judges every exchange
 * that passes through, records them with `--record`, and on SIGINT or SIGTERM (or `stop()`) writes
 * the reports of what it saw and gives the exit code.
 * @see docs/observed.md (conformance proxy)
 */
import { HarnessError } from '../core/errors.js';
import { JudgePool } from '../engine/observed/judge-pool.js';
import { startProxy, type RunningProxy } from '../engine/observed/proxy.js';
import type { ExitCode, RunResults } from '../engine/results.js';
import { RunClock } from '../reporters/index.js';
import { listenFailure } from './listen-error.js';
import { observedRoles, observedSpecs, reportObserved, type ObservedCommandOptions } from './observed.js';

/** Options of {@link runProxy}. */
export interface ProxyCommandOptions extends ObservedCommandOptions {
  /** Base URL of the target (http or https). */
  target: string;
  /** Port to listen on (default 0: a free one; the command line's default is 4020). */
  port?: number;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** Record every exchange to this HAR file, redacted. */
  record?: string;
  /** Answer 502 with the findings for an exchange that failed a must-level check. */
  strict?: boolean;
  /** Deadline of each exchange with the target in milliseconds (default 30000). */
  timeoutMs?: number;
  /**
   * Judging threads (engine/observed/judge-pool.ts): default one per core, at most four; one when
   * recording, which must have one.
   */
  judgeThreads?: number;
}

/** A running proxy command. */
export interface ProxyCommand {
  proxy: RunningProxy;
  /** The judging threads it started. */
  judgeThreads: number;
  /** Stops the proxy, closes the recording, writes the reports; the exit code says whether a finding was seen. */
  stop(): Promise<{ exitCode: ExitCode; results: RunResults }>;
}

/**
 * Starts the proxy in front of `options.target`.
 * @throws HarnessError CNF_ERR_CONFIG_INVALID for a target that is not an http(s) URL, a
 *   recording that cannot be written, or a recording with more than one judging thread; CNF_ERR_PORT_UNAVAILABLE when it cannot listen;
 *   CNF_ERR_SPEC_INVALID as a run does
 */
export async function runProxy(options: ProxyCommandOptions): Promise<ProxyCommand> {
  let url: URL;
  try {
    url = new URL(options.target);
  } catch {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--target ${options.target} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--target must be an http or https URL, not ${url.protocol}`);
  if (options.judgeThreads !== undefined && (!Number.isInteger(options.judgeThreads) || options.judgeThreads < 1)) throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--judge-threads must be a positive integer, not ${options.judgeThreads}`);
  if (options.record && (options.judgeThreads ?? 1) !== 1) throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--record writes the exchanges in traffic order from one judging thread: drop --judge-threads ${options.judgeThreads} or make it 1`);
  const clock = new RunClock();
  const specs = await observedSpecs(options);
  // The judges (and the recording) on threads of their own: judging never holds up forwarding.
  const judge = await JudgePool.start({ specs, basePaths: [url.pathname], origins: [url.origin], roles: await observedRoles(options, url.href), ...(options.record ? { record: options.record } : {}), ...(options.judgeThreads ? { threads: options.judgeThreads } : {}) });
  const host = options.host ?? '127.0.0.1';
  let proxy: RunningProxy;
  try {
    proxy = await startProxy({ target: url.href, port: options.port ?? 0, host, judge, ...(options.strict ? { strict: true } : {}), ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) });
  } catch (error) {
    await judge.results().catch(() => undefined);
    await judge.close();
    throw listenFailure(error, { host, port: options.port ?? 0 }) ?? error;
  }
  let stopped: Promise<{ exitCode: ExitCode; results: RunResults }> | undefined;
  return {
    proxy,
    judgeThreads: judge.threads,
    stop() {
      stopped ??= (async () => {
        await proxy.close();
        const results = await judge.results();
        await judge.close();
        const exitCode = await reportObserved(results, specs[0]!, clock, { ...options, target: `${url.origin}${url.pathname.replace(/\/+$/, '')} (through the proxy ${proxy.url})`, title: `conformance proxy --target ${url.href}` });
        return { exitCode, results };
      })();
      return stopped;
    },
  };
}
