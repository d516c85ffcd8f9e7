/**
 * The scope matrix with the `reader` role (a valid organization token with every read scope and
 * no write scope): an operation that lists a read scope serves it; a write-only operation refuses
 * it. Operations whose scopes are inferred (`x-scopes-inferred`) are not judged.
 * @see spec/rules.yaml auth.scopes ("Each endpoint lists a read scope and a write scope
 *   where either suffices; write-only endpoints list only the write scope.")
 */
import type { Check, CheckContext } from '../core/types.js';
import { acceptsOrganizationToken } from '../core/operation-needs.js';
import { brief } from './support.js';

function judged(ctx: CheckContext): true | string {
  const { operation } = ctx;
  if (operation.scopes.length === 0) return 'the operation names no scopes';
  if (operation.raw['x-scopes-inferred']) return 'the API description shows no scope for the operation';
  return acceptsOrganizationToken(operation) || 'the reader role holds an organization token, which the operation does not accept';
}

/** A read scope alone is enough for an operation that lists one. */
export const readScopeAccepted: Check = {
  id: 'read_scope_accepted',
  title: 'Read scope refused',
  severity: 'high',
  rule: 'auth.scopes',
  layer: 'api',
  evidence: 'probe',
  conformanceClass: 'auth',
  level: 'must',
  needs: 'reader',
  appliesTo: (ctx) => {
    const base = judged(ctx);
    if (base !== true) return base;
    return ctx.operation.scopes.some((s) => s.endsWith(':read')) || 'the operation lists no read scope';
  },
  run(ctx, exchange) {
    const response = exchange.response;
    if (!response || (response.status !== 401 && response.status !== 403)) return [];
    return [{
      kind: 'read_scope_refused',
      title: 'Read scope refused',
      message: `A token with ${ctx.operation.scopes.filter((s) => s.endsWith(':read')).join(', ')} got ${response.status} ${brief(response.json ?? response.body, 100)}; the read scope suffices for this operation.`,
      expected: 'not 401 or 403',
      actual: response.status,
    }];
  },
};

/** A write-only operation refuses a token that has only read scopes. */
export const writeScopeRequired: Check = {
  id: 'write_scope_required',
  title: 'Write scope not required',
  severity: 'critical',
  rule: 'auth.scopes',
  layer: 'api',
  evidence: 'probe',
  conformanceClass: 'auth',
  level: 'must',
  needs: 'reader',
  appliesTo: (ctx) => {
    const base = judged(ctx);
    if (base !== true) return base;
    return ctx.operation.scopes.every((s) => s.endsWith(':write')) || 'the operation lists a read scope';
  },
  run(ctx, exchange) {
    const response = exchange.response;
    if (!response || response.status >= 300) return [];
    return [{
      kind: 'write_scope_ignored',
      title: 'Write scope not required',
      message: `A token with read scopes only got ${response.status} from ${ctx.operation.operationId}, which requires ${ctx.operation.scopes.join(' or ')}.`,
      expected: '401 or 403',
      actual: response.status,
    }];
  },
};
