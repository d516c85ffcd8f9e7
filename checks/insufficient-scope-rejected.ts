import type { Check } from '../core/types.js';
import { brief } from './support.js';
import { acceptsOrganizationToken } from '../core/operation-needs.js';

/**
 * A valid token that carries none of an operation's scopes is refused: the API description shows
 * no status for this case, so a 4xx with a JSON error body is required (the reference answers 403
 * NotPermitted), never a success. The token is the `no_scope` role's organization token, or on the
 * customer portal the `portal_no_scope` role's customer session: whichever scope a portal operation
 * needs (where the description shows none, one is inferred), a session with none must be refused.
 * @see spec/rules.yaml auth.scopes (each endpoint lists a read scope and a write scope)
 */
export const insufficientScopeRejected: Check = {
  id: 'insufficient_scope_rejected',
  title: 'Insufficient scope not rejected',
  severity: 'critical',
  rule: 'auth.scopes',
  layer: 'api',
  evidence: 'probe',
  conformanceClass: 'auth',
  level: 'must',
  needs: 'no_scope',
  appliesTo: ({ operation }) =>
    operation.scopes.length === 0
      ? 'the operation names no scopes'
      : acceptsOrganizationToken(operation) || operation.security.some((alternative) => 'customer_session' in alternative) || 'the operation accepts neither an organization token (no_scope) nor a customer session (portal_no_scope)',
  run(_ctx, exchange) {
    const response = exchange.response;
    if (!response) return [];
    if (response.status >= 400 && response.status < 500 && response.json !== undefined && typeof response.json === 'object') return [];
    return [{
      kind: response.status < 300 ? 'scope_ignored' : 'wrong_answer_for_insufficient_scope',
      title: response.status < 300 ? 'Scope not enforced' : 'Insufficient scope not answered with a 4xx error body',
      message: `A token without the operation's scopes got ${response.status} ${brief(response.json ?? response.body, 80)}; it must get a 4xx with a JSON error body.`,
      expected: '4xx with a JSON error body',
      actual: response.status,
    }];
  },
};
