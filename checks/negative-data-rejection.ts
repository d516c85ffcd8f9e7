import type { Check } from '../harness/types.js';
import { brief } from './support.js';

/**
 * A request with one query parameter its schema rejects is refused. Where the operation documents
 * 422 (this API: "request fails validation"), the answer must be 422 with a validation entry whose
 * `loc` names that parameter (`["query", name, ...]`); a document without a 422 is held to any 4xx.
 * @see api-description.md, Errors (422 and the validation entry)
 */
export const negativeDataRejection: Check = {
  id: 'negative_data_rejection',
  title: 'Invalid data accepted',
  severity: 'high',
  rule: 'errors.validation',
  needs: 'negative',
  run(ctx, exchange) {
    const response = exchange.response;
    const negative = exchange.case.negative;
    if (!response || !negative) return [];
    const what = `${negative.parameter}=${brief(exchange.case.query[negative.parameter])} (${negative.reason})`;
    if (!ctx.operation.responseStatuses.includes('422')) {
      if (response.status >= 400 && response.status < 500) return [];
      return [{
        kind: response.status < 300 ? 'negative_data_accepted' : 'wrong_status_for_invalid_data',
        title: response.status < 300 ? 'Invalid data accepted' : 'Invalid data not answered with a 4xx',
        message: `The invalid query parameter ${what} got ${response.status}; it must get a 4xx.`,
        expected: '4xx',
        actual: response.status,
      }];
    }
    if (response.status !== 422) {
      return [{
        kind: response.status < 300 ? 'negative_data_accepted' : 'wrong_status_for_invalid_data',
        title: response.status < 300 ? 'Invalid data accepted' : 'Invalid data not answered with 422',
        message: `The invalid query parameter ${what} got ${response.status}; it must get 422.`,
        expected: 422,
        actual: response.status,
      }];
    }
    const detail = (response.json as { detail?: unknown } | undefined)?.detail;
    const entries = Array.isArray(detail) ? (detail as { loc?: unknown }[]) : [];
    const points = entries.some((e) => Array.isArray(e.loc) && e.loc[0] === 'query' && e.loc[1] === negative.parameter);
    if (points) return [];
    return [{
      kind: 'validation_loc_mismatch',
      title: 'Validation error does not point at the invalid parameter',
      message: `The 422 for ${what} has no detail entry with loc ["query", "${negative.parameter}", …]; got ${brief(entries.map((e) => e.loc))}.`,
      expected: ['query', negative.parameter],
      actual: entries.map((e) => e.loc),
    }];
  },
};
