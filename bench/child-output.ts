/**
 * What the benchmark says when a child process it started fails: how it ended (exit code and
 * signal) and the last lines it wrote, so that a row that cannot be measured says why.
 */
import type { Readable } from 'node:stream';

/** The last output of a child, standard output and standard error interleaved as they came. */
export interface OutputTail {
  /** The last `maxChars` characters the child wrote (both streams), trimmed; empty when it wrote nothing. */
  text(): string;
}

/**
 * Keeps the last `maxChars` characters a child writes on its streams that are pipes (a
 * ChildProcess, or only some of its streams); the streams then flow, nothing else needs to read them.
 * @param maxChars characters kept (default 2,000)
 */
export function keepOutputTail(streams: { stdout?: Readable | null; stderr?: Readable | null }, maxChars = 2000): OutputTail {
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-maxChars);
  };
  streams.stdout?.on('data', keep);
  streams.stderr?.on('data', keep);
  return { text: () => tail.trim() };
}

/**
 * How a child ended, in words: `exit code 0, no signal; its last lines: ...` (at most `lines`
 * lines, joined by ` | `), or `...; it wrote nothing`.
 * @param code the exit code (null when a signal ended it)
 * @param signal the signal that ended it (null when it exited)
 * @param tail what it wrote last ({@link keepOutputTail}'s text)
 */
export function exitText(code: number | null, signal: NodeJS.Signals | null, tail: string, lines = 5): string {
  const how = `exit code ${code ?? 'none'}, ${signal ? `signal ${signal}` : 'no signal'}`;
  const last = tail.split('\n').map((line) => line.trimEnd()).filter((line) => line.length > 0).slice(-lines);
  return last.length > 0 ? `${how}; its last lines: ${last.join(' | ')}` : `${how}; it wrote nothing`;
}
