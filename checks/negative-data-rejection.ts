import type { Check } from '../core/types.js';
import { brief } from './support.js';
import { SAFE_METHODS } from '../core/operation-needs.js';

/**
 * A request with one query parameter, path parameter or body field its schema rejects is refused.
 * Generic layer (any document): any 4xx, since OpenAPI does not say which client error a server
 * picks. The bundled API's rules (spec/rules.yaml `errors.validation`, on the bundled documents or
 * one that opts in): where the operation documents 422 ("request fails validation"), the answer
 * must be 422 with a validation entry whose `loc` names it (`["query", name, ...]`, `["body",
 * field, ...]`). A state-changing request names a random id, so a 404 (the resource looked up
 * before the body was validated) is accepted there too.
 * @see spec/rules.yaml errors.validation (422 and the validation entry)
 */
export const negativeDataRejection: Check = {
  id: 'negative_data_rejection',
  title: 'Invalid data accepted',
  severity: 'high',
  rule: 'errors.validation',
  layer: 'generic',
  evidence: 'probe',
  conformanceClass: 'core',
  level: 'must',
  needs: 'negative',
  run(ctx, exchange) {
    const response = exchange.response;
    const negative = exchange.case.negative;
    if (!response || !negative) return [];
    const what =
      negative.location === 'query'
        ? `query parameter ${negative.parameter}=${brief(exchange.case.query[negative.parameter])} (${negative.reason})`
        : negative.location === 'path'
          ? `path parameter ${negative.parameter}=${brief(exchange.case.pathParams[negative.parameter])} (${negative.reason})`
          : `body field ${negative.parameter} (${negative.mutation}: ${negative.reason})`;
    // A malformed id names no resource, and a state-changing request names a random one: a 404
    // there is a defensible refusal too.
    if (response.status === 404 && (negative.location === 'path' || !SAFE_METHODS.has(ctx.operation.method))) return [];
    if (ctx.operation.apiRules !== true || !ctx.operation.responseStatuses.includes('422')) {
      if (response.status >= 400 && response.status < 500) return [];
      return [{
        kind: response.status < 300 ? 'negative_data_accepted' : 'wrong_status_for_invalid_data',
        title: response.status < 300 ? 'Invalid data accepted' : 'Invalid data not answered with a 4xx',
        message: `The invalid ${what} got ${response.status}; it must get a 4xx.`,
        expected: '4xx',
        actual: response.status,
      }];
    }
    if (response.status !== 422) {
      return [{
        kind: response.status < 300 ? 'negative_data_accepted' : 'wrong_status_for_invalid_data',
        title: response.status < 300 ? 'Invalid data accepted' : 'Invalid data not answered with 422',
        message: `The invalid ${what} got ${response.status}; it must get 422.`,
        expected: 422,
        actual: response.status,
      }];
    }
    const detail = (response.json as { detail?: unknown } | undefined)?.detail;
    const entries = Array.isArray(detail) ? (detail as { loc?: unknown }[]) : [];
    const points = entries.some((e) => Array.isArray(e.loc) && e.loc[0] === negative.location && e.loc[1] === negative.parameter);
    if (points) return [];
    return [{
      kind: 'validation_loc_mismatch',
      title: 'Validation error does not point at the invalid parameter',
      message: `The 422 for the ${what} has no detail entry with loc ["${negative.location}", "${negative.parameter}", …]; got ${brief(entries.map((e) => e.loc))}.`,
      expected: [negative.location, negative.parameter],
      actual: entries.map((e) => e.loc),
    }];
  },
};
