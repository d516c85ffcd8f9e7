import type { Check } from '../core/types.js';
import { acceptsOrganizationToken } from '../core/operation-needs.js';
import { brief } from './support.js';

/**
 * The write half of the scope matrix: where an operation lists a write scope (beside a read scope,
 * or alone on an operation that changes state), the `writer` role (a valid organization token with
 * every write scope and no read scope) is served, i.e. not refused with 401 or 403; on an operation
 * that changes state it writes on a fixture made for it. Operations whose scopes are inferred
 * (`x-scopes-inferred`) are not judged, nor operations that do not accept an organization token.
 * @see spec/rules.yaml auth.write_scope_suffices ("Each endpoint lists a read scope and a write scope
 *   where either suffices; write-only endpoints list only the write scope")
 */
export const writeScopeAccepted: Check = {
  id: 'write_scope_accepted',
  title: 'Write scope refused',
  severity: 'high',
  rule: 'auth.write_scope_suffices',
  layer: 'api',
  evidence: 'probe',
  conformanceClass: 'auth',
  level: 'must',
  needs: 'roles',
  roles: ['writer'],
  appliesTo: ({ operation }) => {
    if (operation.scopes.length === 0) return 'the operation names no scopes';
    if (operation.raw['x-scopes-inferred']) return 'the API description shows no scope for the operation';
    if (!operation.scopes.some((s) => s.endsWith(':write'))) return 'the operation lists no write scope';
    return acceptsOrganizationToken(operation) || 'the writer role holds an organization token, which the operation does not accept';
  },
  run(ctx, exchange) {
    const response = exchange.response;
    if (!response || (response.status !== 401 && response.status !== 403)) return [];
    const writes = ctx.operation.scopes.filter((s) => s.endsWith(':write'));
    return [{
      kind: 'write_scope_refused',
      title: 'Write scope refused',
      message: `A token with ${writes.join(', ')} (and no read scope) got ${response.status} ${brief(response.json ?? response.body, 100)}; the operation lists ${ctx.operation.scopes.join(' or ')}, either of which suffices.`,
      expected: 'not 401 or 403',
      actual: response.status,
    }];
  },
};
