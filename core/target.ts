/**
 * A target: a base URL plus what the suites need to exercise it (docs/design.md, Targets, roles and verdicts).
 */
import type { Role } from './types.js';

/** A credential of one role; `env` names the environment variable it came from, for reproducers. */
export interface RoleCredential {
  token: string;
  env?: string;
}

/** Everything a suite knows about the target it runs against; JSON-serializable (crosses to workers). */
export interface Target {
  /** Base URL without a trailing slash (`http://127.0.0.1:4010`). */
  baseUrl: string;
  /** `embedded`: the reference server started by the harness; `remote`: anything else. */
  kind: 'embedded' | 'remote';
  /** Credentials per role; a missing role makes the cases that need it skipped with the reason. */
  roles: Partial<Record<Role, RoleCredential>>;
  /** Ids of fixtures that exist on the target, by name (`product_id`, `organization_id`). */
  fixtures: Record<string, string>;
  /** Pacing in requests per second, or null for none (loopback targets). */
  requestsPerSecond: number | null;
  /** Timeout of every request in milliseconds; a request over it is a failure of the target. */
  timeoutMs: number;
  /** When true, no request that may change state is sent. */
  readOnly: boolean;
  /**
   * Set when the rate-limit burst (`rate_limit_enforced`) may be sent: always to the embedded
   * reference, from `sourceAddress` (127.0.0.2; the reference exempts the harness's own 127.0.0.1);
   * to a remote target only with `--rate-limit-check`, from the default address. Absent: skipped.
   */
  burst?: { sourceAddress?: string };
  /**
   * Headers sent with every request, lower-case names: for the bundled API's documents
   * `polar-version` with the document's version, so that a target whose default is another
   * version (the platform's is 2026-04) answers in the one the run judges against.
   * @see docs/platform.md (Versions)
   */
  headers?: Record<string, string>;
  /**
   * The environment variable each role's token is read from, for the roles the run lacks as well
   * (the config's `roles.<role>.tokenEnv`, else `CONFORMANCE_<ROLE>_TOKEN`): a skipped cell's fix
   * names it. Absent: the default names.
   */
  roleEnv?: Partial<Record<Role, string>>;
  /**
   * A local socket of the target's own (the embedded reference's: server/index.ts,
   * `StartOptions.socketPath`): requests to `origin` (`http://127.0.0.1:4010`) are sent over the
   * socket at `path` instead of TCP, the same bytes to the same HTTP server. Reports and reproducers
   * still name `baseUrl`. Absent: every request over TCP.
   * @see docs/decisions.md (Harness: "The embedded reference is reached over a local socket")
   */
  localSocket?: { origin: string; path: string };
}

/** Roles a target may provide, in the order they are documented. */
export const ROLES: readonly Role[] = ['admin', 'reader', 'writer', 'no_scope', 'other_org', 'pat', 'customer_session', 'member_session', 'portal_no_scope', 'oauth_client'];

/** The environment variable a role's token is read from when no config file names one. */
export function defaultTokenEnv(role: Role): string {
  return `CONFORMANCE_${role.toUpperCase()}_TOKEN`;
}

/** Whether a URL's host is on this machine (loopback), which needs no pacing. */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}
