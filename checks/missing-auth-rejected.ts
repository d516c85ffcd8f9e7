import type { Check } from '../harness/types.js';
import { brief } from './support.js';

/**
 * An operation that requires credentials answers a request without any with 401 and the body
 * `{error: "Unauthorized", detail}`.
 * @see api-description.md, Authentication and Errors (401: missing or unacceptable credentials)
 */
export const missingAuthRejected: Check = {
  id: 'missing_auth_rejected',
  title: 'Missing credentials not rejected',
  severity: 'critical',
  rule: 'auth.missing_credentials',
  needs: 'anonymous',
  appliesTo: ({ operation }) =>
    (operation.security.length > 0 && !operation.security.some((alt) => Object.keys(alt).length === 0)) ||
    'the operation does not require credentials',
  run(_ctx, exchange) {
    const response = exchange.response;
    if (!response) return [];
    if (response.status !== 401) {
      return [{
        kind: response.status < 300 ? 'ignored_auth' : 'wrong_status_for_missing_auth',
        title: response.status < 300 ? 'Authentication ignored' : 'Missing credentials not answered with 401',
        message: `A request without credentials got ${response.status}; it must get 401.`,
        expected: 401,
        actual: response.status,
      }];
    }
    const body = response.json as { error?: unknown; detail?: unknown } | undefined;
    if (body?.error === 'Unauthorized' && typeof body.detail === 'string') return [];
    return [{
      kind: 'wrong_error_body',
      title: 'Wrong 401 error body',
      message: `The 401 body must be {"error":"Unauthorized","detail":string}; got ${brief(response.json ?? response.body)}.`,
      expected: { error: 'Unauthorized', detail: 'string' },
      actual: response.json ?? response.body.slice(0, 200),
    }];
  },
};
