/**
 * The preflight of `conformance run`: printed before the first request, it says what the run will
 * exercise (target, document, seed) and which roles it has, naming each missing role's environment
 * variable and what it unlocks, so that a run without credentials is never mistaken for a green one.
 * @see design.md, Targets and configuration; issue 12, Preflight
 */
import { SCENARIOS } from '../checks/stateful/index.js';
import { MODEL_FAMILIES } from '../generators/commands/index.js';
import type { LoadedSpec } from '../spec/load.js';
import { ROLES, defaultTokenEnv } from './config.js';
import { roleFor } from './operation-inputs.js';
import type { Target } from './target.js';
import type { Check, CheckNeeds, Role } from './types.js';

/** The roles a check's evidence is sent with beyond the operation's own (harness/types.ts `CheckNeeds`). */
const ROLE_OF_NEEDS: Partial<Record<CheckNeeds, Role>> = { no_scope: 'no_scope', other_org: 'other_org', reader: 'reader' };

/** One role as the preflight shows it. */
export interface RoleStatus {
  role: Role;
  present: boolean;
  /** The environment variable its token is (or would be) read from. */
  env: string;
  /** Selected operations whose valid requests carry this role's credentials. */
  operations: number;
  /** Selected check ids (checks, scenarios, model families) that send this role's credentials. */
  checks: string[];
}

/** What the run is about to do, for {@link formatPreflight}. */
export interface PreflightInput {
  target: Target;
  specFile: string;
  spec: LoadedSpec;
  seed: number;
  /** The selected operationIds (all of the document when the run names none). */
  operationIds: readonly string[];
  /** The selected checks of the generic suites. */
  checks: readonly Check[];
  /** The selected stateful scenario and model family check ids. */
  statefulIds: readonly string[];
  /** Environment variables named by the config, by role; the default `CONFORMANCE_<ROLE>_TOKEN` otherwise. */
  configuredEnv?: Partial<Record<Role, string>>;
  /** The adapter of the stateful suites, as the run resolved it. */
  adapter?: string;
}

/** The preflight's findings: every role's status and the roles whose absence stops the run. */
export interface Preflight {
  roles: RoleStatus[];
  /**
   * Roles the selected operations of the document need for their valid requests that the target
   * lacks; today only `admin` (the organization token of most operations), which stops a remote run
   * with exit 2 unless `--allow-missing-roles`.
   */
  missingRequired: RoleStatus[];
}

/**
 * Works out which roles the selection uses and which the target has.
 * @returns roles in documented order; a role nothing selected uses is still listed (operations 0, no checks)
 */
export function preflight(input: PreflightInput): Preflight {
  const operations = input.spec.operations.filter((o) => input.operationIds.includes(o.operationId));
  const roles: RoleStatus[] = ROLES.map((role) => {
    const checks = new Set<string>();
    for (const check of input.checks) if (ROLE_OF_NEEDS[check.needs] === role || check.roles?.includes(role)) checks.add(check.id);
    for (const scenario of SCENARIOS) if (input.statefulIds.includes(scenario.id) && scenario.roles.includes(role)) checks.add(scenario.id);
    for (const family of MODEL_FAMILIES) if (input.statefulIds.includes(family.checkId) && family.roles.includes(role)) checks.add(family.checkId);
    const credential = input.target.roles[role];
    return {
      role,
      present: credential !== undefined,
      env: credential?.env ?? input.configuredEnv?.[role] ?? defaultTokenEnv(role),
      operations: operations.filter((o) => roleFor(o) === role).length,
      checks: [...checks],
    };
  });
  // Only the document's own operations make admin required: a scenario or check of this API's
  // catalogue that names admin does not apply to another document's operations.
  const missingRequired = roles.filter((r) => r.role === 'admin' && !r.present && r.operations > 0);
  return { roles, missingRequired };
}

function unlocks(status: RoleStatus): string {
  const parts: string[] = [];
  if (status.operations) parts.push(`valid requests of ${status.operations} operation${status.operations > 1 ? 's' : ''}`);
  if (status.checks.length) {
    const shown = status.checks.slice(0, 3).join(', ');
    parts.push(`${status.checks.length > 3 ? `${shown} and ${status.checks.length - 3} more` : shown}`);
  }
  return parts.length ? parts.join('; ') : 'nothing selected uses it';
}

/**
 * The preflight as printed: one line each for target, spec, seed and adapter, then one per role
 * (`✓`/`✗`, the role, its variable, what it unlocks), ending with a newline.
 */
export function formatPreflight(input: PreflightInput, result: Preflight = preflight(input)): string {
  const kind = input.target.kind === 'embedded' ? 'embedded reference, started for this run' : 'remote';
  const lines = [
    'conformance preflight',
    `  target   ${input.target.baseUrl} (${kind})`,
    `  spec     ${input.specFile} (version ${input.spec.version}, ${input.operationIds.length} of ${input.spec.operations.length} operations selected)`,
    `  seed     ${input.seed}`,
    `  adapter  ${input.adapter ?? 'none: stateful scenarios that need one are skipped (--adapter FILE)'}`,
    '  roles',
  ];
  const width = Math.max(...result.roles.map((r) => r.role.length));
  const envWidth = Math.max(...result.roles.map((r) => r.env.length));
  for (const status of result.roles) {
    const source = input.target.kind === 'embedded' ? 'provided by the reference' : status.present ? 'set' : 'not set';
    lines.push(`    ${status.present ? '✓' : '✗'} ${status.role.padEnd(width)}  ${status.env.padEnd(envWidth)}  ${source.padEnd(9)}  unlocks ${unlocks(status)}`);
  }
  const missing = result.roles.filter((r) => !r.present && (r.operations > 0 || r.checks.length > 0));
  if (missing.length && input.target.kind === 'remote') {
    lines.push(`  ${missing.length} role${missing.length > 1 ? 's' : ''} missing: their cells are skipped; to provide them:`, ...missing.map((r) => `    export ${r.env}=…`));
  }
  return `${lines.join('\n')}\n`;
}
