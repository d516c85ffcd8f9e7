/**
 * The 401 answer every credential check expects: status 401 (RFC 9110 section 15.5.2), and a body
 * valid against the 401 response the operation documents (for this API: `{error: "Unauthorized",
 * detail}`); a document that documents no 401 body is held to the status alone.
 * @see spec/rules.yaml auth.missing_credentials, auth.invalid_credentials
 */
import type { CheckContext, Finding, HttpResponse } from '../core/types.js';
import { mediaTypeOf } from './content-type-conformance.js';
import { brief } from './support.js';

/**
 * Findings for a response that should refuse the request's credentials; `why` says what the
 * request lacked. The bundled API's rules ask for 401 (spec/rules.yaml auth.missing_credentials,
 * auth.invalid_credentials); on another document 401 or 403 is a refusal (RFC 9110 sections 15.5.2
 * and 15.5.4: a server may answer 403 to credentials it will not accept, as API-key schemes often do).
 */
export function expectUnauthorized(ctx: CheckContext, response: HttpResponse, why: string): Finding[] {
  const refused = ctx.operation.apiRules === true ? response.status === 401 : response.status === 401 || response.status === 403;
  if (!refused) {
    const wanted = ctx.operation.apiRules === true ? '401' : '401 or 403';
    return [{
      kind: response.status < 300 ? 'ignored_auth' : 'wrong_status_for_missing_auth',
      title: response.status < 300 ? 'Authentication ignored' : 'Unacceptable credentials not answered with 401',
      message: `A request ${why} got ${response.status}; it must get ${wanted}.`,
      expected: ctx.operation.apiRules === true ? 401 : [401, 403],
      actual: response.status,
    }];
  }
  const key = ctx.spec.matchStatus(ctx.operation, response.status);
  const documented = key ? (ctx.operation.responseMediaTypes[key] ?? []) : [];
  const mediaType = documented.find((d) => d === mediaTypeOf(response.headers['content-type'])) ?? documented.find((d) => /json/i.test(d));
  if (!key || !mediaType) return [];
  const result = response.json === undefined ? { ok: false as const, errors: [] } : ctx.spec.validateResponse(ctx.operation, key, mediaType, response.json);
  if (!result || result.ok) return [];
  return [{
    kind: 'wrong_error_body',
    title: `Wrong ${response.status} error body`,
    message: `The ${response.status} body does not match the documented one${ctx.operation.apiRules === true ? ' (for this API {"error":"Unauthorized","detail":string})' : ''}; got ${brief(response.json ?? response.body)}.`,
    expected: `the documented ${key} ${mediaType} body`,
    actual: response.json ?? response.body.slice(0, 200),
  }];
}

/** `appliesTo` of the credential checks: the operation requires credentials. */
export function requiresCredentials({ operation }: { operation: { security: Record<string, string[]>[] } }): true | string {
  return (operation.security.length > 0 && !operation.security.some((alt) => Object.keys(alt).length === 0)) || 'the operation does not require credentials';
}
