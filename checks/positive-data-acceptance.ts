import type { Check, QueryValues } from '../core/types.js';
import type { Operation } from '../core/spec/load.js';
import { parameterAccepts } from '../core/spec/parameter-accepts.js';
import { MAX_LIMIT, brief, queryValues } from './support.js';

/** Whether page and limit, when given, are integers the schema accepts (limit above 100 may be refused). */
function pagingValid(query: QueryValues): boolean {
  for (const name of ['page', 'limit']) {
    const [value] = queryValues(query, name);
    if (value === undefined) continue;
    if (!/^\d+$/.test(value) || Number(value) < 1) return false;
    if (name === 'limit' && Number(value) > MAX_LIMIT) return false;
  }
  return true;
}

/**
 * Whether every query parameter of a case is valid against its schema and every required one is
 * there; a parameter the document does not declare (or a deepObject one) decides nothing, so the
 * case is not called valid.
 */
function queryValid(operation: Operation, query: QueryValues): boolean {
  const declared = new Map(operation.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p]));
  for (const param of declared.values()) if (param.required && query[param.name] === undefined) return false;
  for (const [name, value] of Object.entries(query)) {
    const param = declared.get(name);
    if (!param || param.style === 'deepObject' || !parameterAccepts(param, value)) return false;
  }
  return true;
}

/**
 * A request whose every parameter is valid against its schema (and carries the required ones) is
 * not refused as invalid (400 or 422). Other answers are left to the status-code check: a valid
 * filter value may name nothing, and a documented 404 for it conforms. On the bundled documents it
 * judges paginated lists, with `page` and `limit` as spec/rules.yaml limits.page_size reads them (a
 * `limit` above 100 may be refused); on another document, every operation whose valid cases the
 * harness sends.
 * @see spec/rules.yaml errors.validation (422 only when the request fails validation)
 * @see https://spec.openapis.org/oas/v3.1.0#parameter-object
 */
export const positiveDataAcceptance: Check = {
  id: 'positive_data_acceptance',
  title: 'Valid data rejected',
  severity: 'high',
  rule: 'errors.validation',
  layer: 'generic',
  evidence: 'probe',
  conformanceClass: 'core',
  level: 'should',
  needs: 'exchange',
  appliesTo: ({ operation }) => operation.apiRules !== true || operation.paginated || 'not a paginated list',
  run(ctx, exchange) {
    const response = exchange.response;
    if (!response || exchange.case.negative || exchange.case.body) return [];
    const valid = ctx.operation.apiRules === true ? pagingValid(exchange.case.query) : queryValid(ctx.operation, exchange.case.query);
    if (!valid) return [];
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
