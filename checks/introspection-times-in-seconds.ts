import type { Check, Finding } from '../core/types.js';
import { successJson } from './response-objects.js';
import { answerDateMs, CLOCK_SKEW_MS } from './support.js';

/** The longest token lifetime taken for seconds, in seconds (ten years): a lifetime in milliseconds of even an hour is longer. */
export const MAX_LIFETIME_SECONDS = 10 * 365 * 86_400;

/**
 * An active token's introspection gives `iat` and `exp` as NumericDates (integer seconds since the
 * epoch): `iat` not after the answer, `exp` after `iat` by at most {@link MAX_LIFETIME_SECONDS},
 * and not passed when the answer says the token is active (an expired token is not active).
 * Times are judged against the answer's Date header, with {@link CLOCK_SKEW_MS} of slack; an
 * inactive answer carries no times to judge (RFC 7662 section 2.2: only `active` is required then).
 * @see spec/rules.yaml oauth2.introspection_numeric_dates; RFC 7662 section 2.2; RFC 7519 section 2 (NumericDate)
 */
export const introspectionTimesInSeconds: Check = {
  id: 'introspection_times_in_seconds',
  title: 'Introspection times are not NumericDate seconds of an unexpired token',
  severity: 'high',
  rule: 'oauth2.introspection_numeric_dates',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'auth',
  level: 'must',
  needs: 'exchange',
  appliesTo: ({ operation }) => (operation.method === 'POST' && operation.path === '/v1/oauth2/introspect') || 'not the token introspection (POST /v1/oauth2/introspect)',
  run(_ctx, exchange) {
    const body = successJson(exchange) as { active?: unknown; iat?: unknown; exp?: unknown } | undefined;
    const at = answerDateMs(exchange);
    if (!body || typeof body !== 'object' || body.active !== true || at === undefined) return [];
    const { iat, exp } = body;
    if (typeof iat !== 'number' || typeof exp !== 'number') return [];
    const now = at / 1000;
    const skew = CLOCK_SKEW_MS / 1000;
    const problems: string[] = [];
    if (!Number.isInteger(iat) || !Number.isInteger(exp)) problems.push(`iat ${iat} and exp ${exp} are not both whole seconds`);
    if (iat > now + skew) problems.push(`iat ${iat} is after the answer (${Math.floor(now)} by its Date header): not seconds since the epoch, or a token from the future`);
    if (exp <= iat) problems.push(`exp ${exp} is not after iat ${iat}`);
    else if (exp - iat > MAX_LIFETIME_SECONDS) problems.push(`exp ${exp} is ${exp - iat} s after iat ${iat}, more than ten years: not seconds`);
    if (exp < now - skew) problems.push(`the token is active but its exp ${exp} has passed (the answer is at ${Math.floor(now)})`);
    if (problems.length === 0) return [];
    const finding: Finding = {
      kind: 'introspection_times_not_seconds',
      title: 'Introspection times are not NumericDate seconds of an unexpired token',
      message: `An active token's introspection answered ${problems.join('; ')}. iat and exp are NumericDates, seconds since the epoch (RFC 7662 section 2.2, RFC 7519 section 2), and an active token has not expired.`,
      expected: `iat <= ${Math.floor(now)} < exp, exp - iat <= ${MAX_LIFETIME_SECONDS}`,
      actual: { iat, exp },
    };
    return [finding];
  },
};
