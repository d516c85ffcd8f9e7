import type { Check, Finding } from '../core/types.js';
import { successJson } from './response-objects.js';
import { answerDateMs, CLOCK_SKEW_MS, requestFields, secretIdentity } from './support.js';

/** A scope string as a set of scope names (space-separated, RFC 6749 section 3.3). */
function scopes(value: unknown): string {
  return typeof value === 'string' ? value.split(' ').filter(Boolean).sort().join(' ') : '';
}

/**
 * A token answer and an introspection that says its access token is active agree: the token is
 * of the client that asked for it, with the scope granted, an access token, and it expires
 * `expires_in` seconds after it was issued: the introspection's `exp` is the token answer's time
 * (its Date header) plus `expires_in`, within {@link CLOCK_SKEW_MS}. An `expires_in` in
 * milliseconds, minutes or any other unit is seen there. Judged on any token answer whose token its
 * client then introspected (`token_then_introspection`); a refresh token's introspection on its
 * client only, and an inactive answer not at all (the token may have expired or been revoked since).
 * @see spec/rules.yaml oauth2.expires_in_seconds; RFC 6749 section 5.1 (expires_in: the lifetime in seconds); RFC 7662 section 2.2
 */
export const tokenLifetimeMatchesIntrospection: Check = {
  id: 'token_lifetime_matches_introspection',
  title: 'A token answer and its introspection disagree',
  severity: 'high',
  rule: 'oauth2.expires_in_seconds',
  layer: 'api',
  evidence: 'pair',
  pair: 'token_then_introspection',
  conformanceClass: 'auth',
  level: 'must',
  needs: 'exchange',
  appliesTo: ({ spec, operation }) => {
    if (operation.method !== 'POST' || operation.path !== '/v1/oauth2/token') return 'not the token endpoint (POST /v1/oauth2/token)';
    return spec.operations.some((o) => o.method === 'POST' && o.path === '/v1/oauth2/introspect') || 'the document has no token introspection to read the token back';
  },
  run(_ctx, exchange, history) {
    const issued = successJson(exchange) as Record<string, unknown> | undefined;
    const introspection = history[0];
    const described = introspection ? (successJson(introspection) as Record<string, unknown> | undefined) : undefined;
    if (!issued || !described || !introspection) return [];
    // An inactive answer tells nothing to compare: the token may have expired, or been revoked by what
    // the pair does not show (a reused code, a refresh); the introspection of an unknown or expired token is another check's.
    if (described.active !== true) return [];
    const asked = requestFields(introspection).token;
    const access = typeof asked === 'string' && typeof issued.access_token === 'string' && secretIdentity(asked) === secretIdentity(issued.access_token);
    const problems: string[] = [];
    const clientId = requestFields(exchange).client_id;
    if (typeof clientId === 'string' && described.client_id !== undefined && described.client_id !== clientId) problems.push(`client_id ${JSON.stringify(described.client_id)}, not the ${JSON.stringify(clientId)} that asked for it`);
    if (access) {
      if (described.token_type !== undefined && described.token_type !== 'access_token') problems.push(`token_type ${JSON.stringify(described.token_type)} for the access token`);
      if (issued.scope !== undefined && described.scope !== undefined && scopes(issued.scope) !== scopes(described.scope)) problems.push(`scope ${JSON.stringify(described.scope)}, not the ${JSON.stringify(issued.scope)} granted`);
      const at = answerDateMs(exchange);
      if (typeof issued.expires_in === 'number' && typeof described.exp === 'number' && at !== undefined) {
        const expected = at / 1000 + issued.expires_in;
        if (Math.abs(described.exp - expected) > CLOCK_SKEW_MS / 1000) {
          problems.push(`exp ${described.exp}, while the token answered at ${Math.floor(at / 1000)} (its Date header) said expires_in ${issued.expires_in}: it should expire about ${Math.floor(expected)}, so expires_in is not its lifetime in seconds or exp is not a NumericDate`);
        }
      }
    }
    if (problems.length === 0) return [];
    const finding: Finding = {
      kind: 'token_introspection_mismatch',
      title: 'A token answer and its introspection disagree',
      message: `The introspection of a token the token endpoint had issued answered it active with ${problems.join('; ')}. expires_in is the access token's lifetime in seconds (RFC 6749 section 5.1) and exp a NumericDate (RFC 7662 section 2.2).`,
      expected: { active: true, exp: 'issued at + expires_in', client_id: clientId, scope: issued.scope },
      actual: { active: described.active, exp: described.exp, client_id: described.client_id, scope: described.scope, expires_in: issued.expires_in },
    };
    return [finding];
  },
};
