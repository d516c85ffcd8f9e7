/**
 * The 401 answer every credential check expects: status 401 and `{error: "Unauthorized", detail}`.
 * @see api-description.md, Errors
 */
import type { Finding, HttpResponse } from '../harness/types.js';
import { brief } from './support.js';

/** Findings for a response that should be the API's 401; `why` says what the request lacked. */
export function expectUnauthorized(response: HttpResponse, why: string): Finding[] {
  if (response.status !== 401) {
    return [{
      kind: response.status < 300 ? 'ignored_auth' : 'wrong_status_for_missing_auth',
      title: response.status < 300 ? 'Authentication ignored' : 'Unacceptable credentials not answered with 401',
      message: `A request ${why} got ${response.status}; it must get 401.`,
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
}

/** `appliesTo` of the credential checks: the operation requires credentials. */
export function requiresCredentials({ operation }: { operation: { security: Record<string, string[]>[] } }): true | string {
  return (operation.security.length > 0 && !operation.security.some((alt) => Object.keys(alt).length === 0)) || 'the operation does not require credentials';
}
