import type { Check } from '../core/types.js';
import { mediaTypeOf } from './content-type-conformance.js';
import { brief } from './support.js';

/**
 * A request naming a resource that does not exist (path values drawn at random, the required query
 * parameters and a valid body sent) gets 404 with the body the operation documents for 404: for this
 * API `{error: "ResourceNotFound", detail}`. Generic: it applies to operations that document a 404
 * (a document that shows none says nothing of missing resources). An operation that takes a body
 * may answer 422 instead, since a target may validate the body (whose ids name nothing either)
 * before looking the resource up.
 * @see spec/rules.yaml errors.not_found (404: referenced resource does not exist (product, customer, order))
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-15.5.5
 */
export const notFoundErrorBody: Check = {
  id: 'not_found_error_body',
  title: 'A missing resource is not answered 404 ResourceNotFound',
  severity: 'medium',
  rule: 'errors.not_found',
  layer: 'generic',
  evidence: 'probe',
  conformanceClass: 'core',
  level: 'must',
  needs: 'not_found',
  appliesTo: ({ operation }) =>
    !operation.parameters.some((p) => p.in === 'path')
      ? 'no path parameter naming a resource'
      : operation.responseStatuses.includes('404') || 'the operation documents no 404',
  run(ctx, exchange) {
    const response = exchange.response;
    if (!response) return [];
    const shown = `${exchange.request.method} ${exchange.request.url.replace(/\?.*$/, '')}`;
    if (response.status === 422 && exchange.case.body) return [];
    if (response.status !== 404) {
      return [{
        kind: response.status < 300 ? 'missing_resource_served' : 'wrong_status_for_missing_resource',
        title: response.status < 300 ? 'A resource that does not exist is served' : 'A missing resource is not answered 404',
        message: `${shown} names a resource that does not exist and got ${response.status} ${brief(response.json ?? response.body, 100)}; it must get 404.`,
        expected: 404,
        actual: response.status,
      }];
    }
    const documented = ctx.operation.responseMediaTypes['404'] ?? [];
    const mediaType = documented.find((d) => d === mediaTypeOf(response.headers['content-type'])) ?? documented.find((d) => /json/i.test(d));
    if (!mediaType) return [];
    const result = response.json === undefined ? { ok: false as const, errors: [] } : ctx.spec.validateResponse(ctx.operation, '404', mediaType, response.json);
    if (!result || result.ok) return [];
    return [{
      kind: 'wrong_error_body',
      title: 'Wrong 404 error body',
      message: `The 404 of ${shown} does not match the documented body${ctx.operation.apiRules === true ? ' (for this API {"error":"ResourceNotFound","detail":string})' : ''}; got ${brief(response.json ?? response.body)}.`,
      expected: `the documented 404 ${mediaType} body`,
      actual: response.json ?? response.body.slice(0, 200),
    }];
  },
};
