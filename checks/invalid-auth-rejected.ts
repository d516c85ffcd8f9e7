import type { Check } from '../core/types.js';
import { expectUnauthorized, requiresCredentials } from './auth-support.js';

/**
 * An operation that requires credentials answers a request with an unknown bearer token with 401
 * and the body `{error: "Unauthorized", detail}`.
 * @see spec/rules.yaml auth.invalid_credentials (401: missing or unacceptable credentials)
 */
export const invalidAuthRejected: Check = {
  id: 'invalid_auth_rejected',
  title: 'Invalid credentials not rejected',
  severity: 'critical',
  rule: 'auth.invalid_credentials',
  layer: 'generic',
  evidence: 'probe',
  conformanceClass: 'auth',
  level: 'must',
  needs: 'invalid_credentials',
  appliesTo: requiresCredentials,
  run(ctx, exchange) {
    return exchange.response ? expectUnauthorized(ctx, exchange.response, 'with an unknown bearer token') : [];
  },
};
