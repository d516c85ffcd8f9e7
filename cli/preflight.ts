/**
 * The preflight of `conformance run`: printed before the first request, it says what the run will
 * exercise (target, document, seed) and which roles it has, naming each missing role's environment
 * variable and what it unlocks, so that a run without credentials is never mistaken for a green one.
 * @see docs/design.md (Targets, roles and verdicts); docs/usage.md (Pointing it at a target: roles and their variables)
 */
import { SCENARIOS } from '../engine/stateful/registry.js';
import { MODEL_FAMILIES } from '../engine/stateful/registry.js';
import type { LoadedSpec } from '../core/spec/load.js';
import { ROLES, defaultTokenEnv } from '../core/target.js';
import { roleFor } from '../core/operation-needs.js';
import type { Target } from '../core/target.js';
import type { Check, CheckNeeds, Role } from '../core/types.js';

/** The roles a check's evidence is sent with beyond the operation's own (core/types.ts `CheckNeeds`). */
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

/** What a role unlocks, in at most `width` characters: operations, then check ids, the rest counted. */
export function unlocks(status: RoleStatus, width = 72): string {
  const head = status.operations ? `valid requests of ${status.operations} operation${status.operations > 1 ? 's' : ''}` : '';
  if (!status.checks.length) return head || 'nothing selected uses it';
  for (let shown = status.checks.length; shown >= 0; shown--) {
    const rest = status.checks.length - shown;
    const names = status.checks.slice(0, shown).join(', ');
    const tail = rest ? `${names ? `${names} and ` : ''}${rest} ${names ? 'more' : `check${rest > 1 ? 's' : ''}`}` : names;
    const text = [head, tail].filter(Boolean).join('; ');
    if (text.length <= width || shown === 0) return text;
  }
  return head;
}

/**
 * The preflight as printed, within 80 columns: one line each for target, spec, seed and adapter,
 * then the roles: for the embedded reference one line (it provides them all); for a remote target
 * one line per role (`✓`/`✗`, the role, set or not, its variable) and under a missing one what it
 * unlocks, then the exports that provide the missing ones. Ends with a newline.
 */
export function formatPreflight(input: PreflightInput, result: Preflight = preflight(input)): string {
  const kind = input.target.kind === 'embedded' ? 'embedded reference, started for this run' : 'remote';
  const lines = [
    'conformance preflight',
    `  target   ${input.target.baseUrl} (${kind})`,
    `  spec     ${input.specFile}`,
    `           version ${input.spec.version}, ${input.operationIds.length} of ${input.spec.operations.length} operations selected`,
    `  seed     ${input.seed}`,
    `  adapter  ${input.adapter ?? 'none: scenarios that need one are skipped (--adapter FILE)'}`,
  ];
  if (input.target.kind === 'embedded') {
    lines.push(`  roles    all ${result.roles.filter((r) => r.present).length} provided by the embedded reference`);
    return `${lines.join('\n')}\n`;
  }
  lines.push('  roles');
  const width = Math.max(...result.roles.map((r) => r.role.length));
  for (const status of result.roles) {
    lines.push(`    ${status.present ? '✓' : '✗'} ${status.role.padEnd(width)}  ${(status.present ? 'set' : 'not set').padEnd(7)}  ${status.env}`);
    if (!status.present) lines.push(`        unlocks ${unlocks(status)}`);
  }
  const missing = result.roles.filter((r) => !r.present && (r.operations > 0 || r.checks.length > 0));
  if (missing.length) {
    lines.push(`  ${missing.length} role${missing.length > 1 ? 's' : ''} missing: their cells are skipped; to provide them:`, ...missing.map((r) => `    export ${r.env}=…`));
  }
  return `${lines.join('\n')}\n`;
}
