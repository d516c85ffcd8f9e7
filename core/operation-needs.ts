/**
 * What an operation needs of a target, read from the document alone: whose credentials a valid
 * request carries (its role) and which fixtures name the resources its path points to. Checks,
 * the engine and the command line all ask these questions; the answers use nothing but the
 * operation and the target's fixture names.
 * @see https://spec.openapis.org/oas/v3.1.0#security-requirement-object
 */
import type { Operation, Parameter } from './spec/load.js';
import type { Target } from './target.js';
import type { Role } from './types.js';

/** Methods that change no state (RFC 9110 section 9.2.1), the only ones generic suites send with real fixtures. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The role whose credentials a valid request of the operation carries: none when the operation
 * takes no credentials (`security: []`, or an empty alternative); the customer or member session
 * for customer-portal schemes; otherwise the organization `admin` token (also for schemes of
 * other documents, whose bearer token the target's config supplies as admin).
 * @see docs/platform.md (Authentication: the token kinds and their schemes)
 */
export function roleFor(operation: Operation): Role | null {
  const alternatives = operation.security;
  if (alternatives.length === 0 || alternatives.some((alt) => Object.keys(alt).length === 0)) return null;
  const schemes = new Set(alternatives.flatMap((alt) => Object.keys(alt)));
  if (['pat', 'oat', 'oidc'].some((s) => schemes.has(s))) return 'admin';
  if (schemes.has('customer_session')) return 'customer_session';
  if (schemes.has('member_session')) return 'member_session';
  return 'admin';
}

/** Whether the operation accepts an organization token (pat or oat), as the `no_scope` role's token is. */
export function acceptsOrganizationToken(operation: Operation): boolean {
  return operation.security.some((alt) => 'pat' in alt || 'oat' in alt);
}

function singular(segment: string): string {
  const word = segment.replace(/-/g, '_');
  return word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.endsWith('s') ? word.slice(0, -1) : word;
}

/**
 * The fixture name that holds a usable value of a path parameter: its `x-fixture`, or for `{id}`
 * `<singular of the segment before it>_id` (`/v1/orders/{id}/receipt` → `order_id`), or its name.
 */
export function fixtureName(operation: Operation, param: Parameter): string {
  if (param.fixture) return param.fixture;
  if (param.name !== 'id') return param.name;
  const segments = operation.path.split('/');
  const at = segments.indexOf(`{${param.name}}`);
  const before = at > 0 ? segments[at - 1] : undefined;
  return before ? `${singular(before)}_id` : 'id';
}

/** The path parameters an operation needs that the target's fixtures lack, by fixture name. */
export function missingFixtures(operation: Operation, target: Target): string[] {
  return operation.parameters
    .filter((p) => p.in === 'path' && !target.fixtures[fixtureName(operation, p)])
    .map((p) => fixtureName(operation, p));
}
