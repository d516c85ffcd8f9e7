/**
 * Case building: the test case a check's evidence is sent with, from what a generated case varies
 * (its query, the negative mutation behind it), the role the check's `needs` calls for, the
 * target's fixtures in its path and a valid body where a probe needs one; and which evidence the
 * harness expects to be refused.
 * @see spec/rules.yaml auth.missing_credentials, auth.invalid_credentials, auth.scopes, errors.not_found;
 *   docs/decisions.md (Harness: "Evidence by `needs`", "Who calls, with what")
 */
import type { Operation } from '../../core/spec/load.js';
import type { Target } from '../../core/target.js';
import type { Check, QueryValues, Role, TestCase } from '../../core/types.js';
import type { NegativeCase } from '../../generators/negative/index.js';
import { acceptsOrganizationToken, roleFor, SAFE_METHODS } from '../../core/operation-needs.js';
import { pathValues } from '../operation-inputs.js';
import { validRequestBody } from '../probe-body.js';

/** Evidence that is one plain request (for `roles`, one per role): sent once, without a query (`roles` asks a list for its largest page). */
export const PROBES: ReadonlySet<Check['needs']> = new Set(['anonymous', 'invalid_credentials', 'no_scope', 'reader', 'other_org', 'roles', 'not_found']);

/** The bearer token of `invalid_credentials` cases: well-formed, and no target's. */
export const INVALID_TOKEN = 'cnf_invalid_token_00000000000000000000000000000000';

/** Evidence whose requests the harness expects to be refused (probes and invalid data): their status is judged by the probing check, not by status_code_conformance. */
export const REFUSED: ReadonlySet<Check['needs']> = new Set(['anonymous', 'invalid_credentials', 'no_scope', 'negative', 'not_found', 'other_org']);

/** What a generated case varies: its query, and for negative cases the mutation behind it. */
export interface CaseInput {
  query: QueryValues;
  negative?: NegativeCase;
}

/** Whose credentials the evidence a check needs carries (for `roles`, the last role's: the checked exchange). */
export function roleOfNeeds(check: Check, operation: Operation): Role | null {
  const { needs } = check;
  if (needs === 'anonymous' || needs === 'invalid_credentials') return null;
  // The customer portal's counterpart of a token without scopes is a customer session without them.
  if (needs === 'no_scope') return acceptsOrganizationToken(operation) ? 'no_scope' : 'portal_no_scope';
  if (needs === 'other_org' || needs === 'reader') return needs;
  if (needs === 'roles') return check.roles?.at(-1) ?? roleFor(operation);
  return roleFor(operation);
}

/** The query of `roles` evidence: the largest page of a paginated list, so that comparisons see the most records. */
export function rolesQuery(operation: Operation): QueryValues {
  return operation.paginated && operation.parameters.some((p) => p.in === 'query' && p.name === 'limit') ? { limit: '100' } : {};
}

/** The test case of one generated input of a check's evidence (`n` numbers it within the cell). */
export function testCase(operation: Operation, target: Target, input: CaseInput, role: Role | null, needs: Check['needs'], n: number): TestCase {
  const probing = ['anonymous', 'invalid_credentials', 'no_scope', 'reader', 'negative'].includes(needs);
  // not_found names what does not exist, on every method.
  const fixtures = needs !== 'not_found' && (!probing || SAFE_METHODS.has(operation.method));
  const { query, negative } = input;
  const pathParams = { ...pathValues(operation, target, fixtures), ...negative?.path };
  // Probes of another API's document carry a valid body too, so that a target validating the body first answers the probe's question.
  const body = negative?.body ?? (needs === 'not_found' || (PROBES.has(needs) && operation.apiRules !== true) ? validRequestBody(operation) : undefined);
  return {
    id: `${operation.operationId}#${n}`,
    operationId: operation.operationId,
    pathParams,
    query,
    ...(body ? { body } : {}),
    headers: needs === 'invalid_credentials' ? { authorization: `Bearer ${INVALID_TOKEN}` } : {},
    role,
    ...(REFUSED.has(needs) ? { refusal: true } : {}),
    ...(negative ? { negative: { location: negative.location, parameter: negative.parameter, mutation: negative.mutation, reason: negative.reason } } : {}),
  };
}
