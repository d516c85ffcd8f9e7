import type { Check } from '../core/types.js';
import { brief } from './support.js';

/**
 * Management endpoints accept a personal access token: the `pat` role (a personal access token
 * with every scope of the admin's organization) is served, i.e. not refused with 401 or 403, by
 * every operation whose security names `pat`. Organization access tokens are what the `admin` role
 * holds in the reference (an `oat`), on which every other check's valid requests depend.
 * @see spec/rules.yaml auth.bearer_tokens_management ("pat (personal access token): accepted on management endpoints")
 */
export const patTokenAccepted: Check = {
  id: 'pat_token_accepted',
  title: 'Personal access token refused',
  severity: 'high',
  rule: 'auth.bearer_tokens_management',
  layer: 'api',
  evidence: 'probe',
  conformanceClass: 'auth',
  level: 'must',
  needs: 'roles',
  roles: ['pat'],
  appliesTo: ({ operation }) => operation.security.some((alternative) => 'pat' in alternative) || 'the operation does not accept personal access tokens',
  run(ctx, exchange) {
    const response = exchange.response;
    if (!response || (response.status !== 401 && response.status !== 403)) return [];
    return [{
      kind: 'pat_refused',
      title: 'Personal access token refused',
      message: `A personal access token with every scope got ${response.status} ${brief(response.json ?? response.body, 100)} from ${ctx.operation.operationId}, a management endpoint, which accepts pat tokens.`,
      expected: 'not 401 or 403',
      actual: response.status,
    }];
  },
};
