import type { Check } from '../core/types.js';
import { expectUnauthorized, requiresCredentials } from './auth-support.js';

/**
 * An operation that requires credentials answers a request without any with 401 and the body
 * `{error: "Unauthorized", detail}`.
 * @see spec/rules.yaml auth.missing_credentials (401: missing or unacceptable credentials)
 */
export const missingAuthRejected: Check = {
  id: 'missing_auth_rejected',
  title: 'Missing credentials not rejected',
  severity: 'critical',
  rule: 'auth.missing_credentials',
  layer: 'generic',
  evidence: 'probe',
  conformanceClass: 'auth',
  level: 'must',
  needs: 'anonymous',
  appliesTo: requiresCredentials,
  run(ctx, exchange) {
    return exchange.response ? expectUnauthorized(ctx, exchange.response, 'without credentials') : [];
  },
};
