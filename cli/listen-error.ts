/**
 * Why `conformance serve` could not listen, as a harness error a person can act on, instead of
 * Node's stack trace.
 * @see https://nodejs.org/api/net.html#serverlisten (the `error` event codes); docs/design.md (Command line)
 */
import { HarnessError } from '../core/errors.js';

/** The highest TCP port number (RFC 793: ports are 16-bit). */
export const MAX_PORT = 65_535;

/**
 * Parses `--port`: an integer from 0 (a free port) to 65535.
 * @throws HarnessError CNF_ERR_CONFIG_INVALID for anything else, naming the value
 */
export function parsePort(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0 || n > MAX_PORT) {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--port must be an integer from 0 to ${MAX_PORT} (0 = a free one), not ${JSON.stringify(value)}`);
  }
  return n;
}

/**
 * Turns an error of listening on `host:port` into CNF_ERR_PORT_UNAVAILABLE with the cause and what
 * to do: EADDRINUSE (another process has the port), EACCES (a port below 1024 needs privileges),
 * EADDRNOTAVAIL or ENOTFOUND (the host is not an address of this machine).
 * @returns the harness error, or undefined for an error that is not about the address
 */
export function listenFailure(error: unknown, where: { host: string; port: number }): HarnessError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const at = `${where.host}:${where.port}`;
  const why: Record<string, string> = {
    EADDRINUSE: `port ${where.port} on ${where.host} is already in use; stop what listens there or pick another with --port (0 = a free one)`,
    EACCES: `not allowed to listen on ${at} (ports below 1024 need privileges); pick another with --port`,
    EADDRNOTAVAIL: `${where.host} is not an address of this machine; use --host 127.0.0.1 or 0.0.0.0`,
    ENOTFOUND: `host ${where.host} does not resolve; use --host 127.0.0.1 or 0.0.0.0`,
  };
  if (typeof code !== 'string' || !(code in why)) return undefined;
  return new HarnessError('CNF_ERR_PORT_UNAVAILABLE', `${why[code]!} (${code})`, { cause: error });
}
