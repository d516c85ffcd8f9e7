/**
 * What a generic case of an operation needs besides its query: whose credentials to send and
 * which values to put in its path, derived from the document so that any OpenAPI target works.
 */
import fc from 'fast-check';
import type { Operation, Parameter } from '../spec/load.js';
import { schemaArbitrary } from '../generators/schema-value.js';
import { validParameterValue } from '../generators/parameter-value.js';
import type { Target } from './target.js';
import type { Role } from './types.js';

/** Methods that change no state (RFC 9110 section 9.2.1), the only ones generic suites send with real fixtures. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The role whose credentials a valid request of the operation carries: none when the operation
 * takes no credentials (`security: []`, or an empty alternative); the customer or member session
 * for customer-portal schemes; otherwise the organization `admin` token (also for schemes of
 * other documents, whose bearer token the target's config supplies as admin).
 * @see api-description.md, Authentication
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

/**
 * A value for a path parameter that names nothing on the target: drawn from its schema with a
 * fixed seed; a free-form string gets a random-looking word of 8 to 16 characters (never empty,
 * never a word a target may reserve), but a string the schema constrains itself (enum, const,
 * pattern) keeps its own constraints. A schema no value satisfies gives its documented value, or `1`.
 */
export function randomPathValue(param: Parameter): string {
  const schema = param.schema;
  const constrained = schema.enum !== undefined || schema.const !== undefined || schema.pattern !== undefined || schema.format !== undefined;
  const free = schema.type === 'string' && !constrained ? { minLength: 1, pattern: '^[a-z0-9_]{8,16}$' } : {};
  try {
    const [drawn] = fc.sample(schemaArbitrary({ ...schema, ...free }, { direction: 'request' }), { seed: 1, numRuns: 1 });
    if (drawn !== null && drawn !== undefined && typeof drawn !== 'object') return String(drawn);
  } catch {
    // A schema the generators cannot satisfy: its documented value, below.
  }
  const value = validParameterValue(param);
  return Array.isArray(value) ? value.join(',') : (value ?? '1');
}

/**
 * Path values for a case. `fixtures: true` takes the target's fixtures (for valid requests of
 * safe methods); otherwise each value is drawn from the parameter's schema with a fixed seed, so
 * that probes which must be refused (no credentials, no scope) never name a real resource of an
 * operation that could change it.
 */
export function pathValues(operation: Operation, target: Target, fixtures: boolean): Record<string, string> {
  const values: Record<string, string> = {};
  for (const param of operation.parameters) {
    if (param.in !== 'path') continue;
    const known = target.fixtures[fixtureName(operation, param)];
    if (fixtures && known) {
      values[param.name] = known;
    } else {
      values[param.name] = randomPathValue(param);
    }
  }
  return values;
}
