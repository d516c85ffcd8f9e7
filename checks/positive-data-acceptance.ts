import type { Check } from '../harness/types.js';
import { MAX_LIMIT, brief, queryValues } from './support.js';

/** Whether page and limit, when given, are integers the schema accepts (limit above 100 may be refused). */
function pagingValid(query: Record<string, string | string[]>): boolean {
  for (const name of ['page', 'limit']) {
    const [value] = queryValues(query, name);
    if (value === undefined) continue;
    if (!/^\d+$/.test(value) || Number(value) < 1) return false;
    if (name === 'limit' && Number(value) > MAX_LIMIT) return false;
  }
  return true;
}

/**
 * A list request whose every parameter is valid against its schema is not refused as invalid
 * (400 or 422). Other answers are left to the status-code check: a valid filter value may name
 * nothing, and a documented 404 for it conforms.
 * @see api-description.md, Errors (422 only when the request fails validation)
 */
export const positiveDataAcceptance: Check = {
  id: 'positive_data_acceptance',
  title: 'Valid data rejected',
  severity: 'high',
  rule: 'errors.validation',
  needs: 'exchange',
  appliesTo: ({ operation }) => operation.paginated || 'not a paginated list',
  run(_ctx, exchange) {
    const response = exchange.response;
    if (!response || !pagingValid(exchange.case.query)) return [];
    if (response.status !== 400 && response.status !== 422) return [];
    return [{
      kind: 'valid_data_rejected',
      title: 'Valid data rejected',
      message: `A request whose parameters are all valid against their schemas got ${response.status} ${brief(response.json ?? response.body, 160)}.`,
      expected: 'not 400 or 422',
      actual: response.status,
    }];
  },
};
