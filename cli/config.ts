/**
 * Target configuration: the embedded reference, or a remote URL with credentials named by
 * environment variable (never inline) in `conformance.config.json`.
 * @see docs/design.md (Targets, roles and verdicts); docs/usage.md (Pointing it at a target)
 */
import { readFile } from 'node:fs/promises';
import { HarnessError } from '../core/errors.js';
import { problemsMessage, schemaProblems } from '../core/input-schema.js';
import { didYouMean } from '../core/suggest.js';
import { defaultTokenEnv, ROLES, type RoleCredential, type Target } from '../core/target.js';
import type { Role } from '../core/types.js';

/** Requests per second the harness sends to a remote target by default (the API allows 100). */
export const DEFAULT_REMOTE_RATE = 80;
/** Timeout of every request by default, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** The shape of `conformance.config.json`. */
export interface ConfigFile {
  /** Base URL of the target; `--target` overrides it. */
  target?: string;
  /** Role to the environment variable holding its token: `{ "admin": { "tokenEnv": "BILLING_ADMIN_TOKEN" } }`. */
  roles?: Partial<Record<Role, { tokenEnv: string }>>;
  /** Ids of fixtures that exist on the target. */
  fixtures?: Record<string, string>;
  /** Pacing; null for none. Default 80 for every remote target (the embedded reference is not paced). */
  requestsPerSecond?: number | null;
  timeoutMs?: number;
  readOnly?: boolean;
  /** Send the rate-limit burst of `rate_limit_enforced` (`--rate-limit-check`); default false. */
  rateLimitCheck?: boolean;
}

/** What {@link readConfigFile} checks beyond the schema. */
export interface ConfigCheckOptions {
  /**
   * Fixture names the run knows (engine/fixture-names.ts); a name outside them is a problem,
   * reported with the nearest known one. Absent: fixture names are not checked.
   */
  fixtureNames?: readonly string[];
}

/**
 * Checks a parsed config against core/schemas/config.schema.json (and the known fixture names).
 * @returns every problem as one readable line, an unknown key with the nearest known one; empty when valid
 * @see docs/usage.md (Pointing it at a target: the config file)
 */
export function configProblems(parsed: unknown, options: ConfigCheckOptions = {}): string[] {
  const problems = schemaProblems('config.schema.json', parsed);
  const fixtures = (parsed as { fixtures?: unknown } | null)?.fixtures;
  if (options.fixtureNames && fixtures && typeof fixtures === 'object' && !Array.isArray(fixtures)) {
    for (const name of Object.keys(fixtures)) {
      if (!options.fixtureNames.includes(name)) problems.push(`fixtures.${name}: no operation, scenario or family uses a fixture of this name${didYouMean(name, options.fixtureNames)}`);
    }
  }
  return problems;
}

/**
 * Reads and checks a config file: JSON, then the schema and fixture names, all problems in one error.
 * @throws HarnessError CNF_ERR_CONFIG_INVALID when it cannot be read, is not JSON, or has problems (each on its own line)
 */
export async function readConfigFile(file: string, options: ConfigCheckOptions = {}): Promise<ConfigFile> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `cannot read config ${file}: ${(error as Error).message}`, { cause: error });
  }
  const problems = configProblems(parsed, options);
  if (problems.length) throw new HarnessError('CNF_ERR_CONFIG_INVALID', problemsMessage(`config ${file}`, problems));
  return parsed as ConfigFile;
}

/** Options that override the config file when resolving a remote target. */
export interface RemoteTargetOptions {
  url: string;
  config?: ConfigFile;
  rate?: number | null;
  readOnly?: boolean;
  timeoutMs?: number;
  /** Opt in to the rate-limit burst (`--rate-limit-check`), sent from the default source address. */
  rateLimitCheck?: boolean;
  env?: NodeJS.ProcessEnv;
}

/**
 * Builds a remote target: credentials from the environment variables the config names (or
 * `CONFORMANCE_<ROLE>_TOKEN` when it names none; roles whose variable is unset are left out),
 * pacing at 80 requests per second (loopback too: a local `conformance serve` enforces the API's
 * rate limit) unless `rate` or the config says otherwise; the rate-limit burst only when
 * `rateLimitCheck` or the config's `rateLimitCheck` asks for it.
 * @throws HarnessError CNF_ERR_CONFIG_INVALID for a URL that is not http(s);
 *   CNF_ERR_SECRET_MISSING when variables the config names are not set (all of them in the message)
 */
export function resolveRemoteTarget(options: RemoteTargetOptions): Target {
  const env = options.env ?? process.env;
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--target ${options.url} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HarnessError('CNF_ERR_CONFIG_INVALID', `--target must be an http or https URL, not ${url.protocol}`);
  const roles: Partial<Record<Role, RoleCredential>> = {};
  const named = options.config?.roles;
  const unset: string[] = [];
  for (const role of ROLES) {
    const variable = named ? named[role]?.tokenEnv : defaultTokenEnv(role);
    if (!variable) continue;
    const token = env[variable];
    if (token) roles[role] = { token, env: variable };
    else if (named) unset.push(`export ${variable}=…   # role ${role}`);
  }
  // Every variable at once, so that one attempt shows all that is missing.
  if (unset.length) {
    throw new HarnessError('CNF_ERR_SECRET_MISSING', `the config names ${unset.length === 1 ? 'a variable that is' : `${unset.length} variables that are`} not set:\n${unset.map((line) => `  ${line}`).join('\n')}`);
  }
  const configured = options.rate !== undefined ? options.rate : options.config?.requestsPerSecond;
  return {
    baseUrl: url.href.replace(/\/+$/, ''),
    kind: 'remote',
    roles,
    fixtures: options.config?.fixtures ?? {},
    // Loopback targets are paced too: `conformance serve` enforces the API's rate limit by default.
    requestsPerSecond: configured !== undefined ? configured : DEFAULT_REMOTE_RATE,
    timeoutMs: options.timeoutMs ?? options.config?.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    readOnly: options.readOnly ?? options.config?.readOnly ?? false,
    // A burst far above the API's limit is not something to send to someone's API unasked.
    ...((options.rateLimitCheck ?? options.config?.rateLimitCheck) ? { burst: {} } : {}),
  };
}

/**
 * Checks that a target answers HTTP at all (any status counts).
 * @throws HarnessError CNF_ERR_TARGET_UNREACHABLE when no answer comes within the timeout
 */
export async function probeTarget(target: Target): Promise<void> {
  try {
    const response = await fetch(`${target.baseUrl}/`, { signal: AbortSignal.timeout(Math.min(target.timeoutMs, 5_000)) });
    await response.arrayBuffer();
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new HarnessError('CNF_ERR_TARGET_UNREACHABLE', `target ${target.baseUrl} did not answer: ${cause}`, { cause: error });
  }
}
