import type { Check } from '../harness/types.js';

/**
 * The status code of a response is one the operation documents (exactly, as a range such as
 * `4XX`, or through `default`).
 * @see https://spec.openapis.org/oas/v3.1.0#responses-object
 */
export const statusCodeConformance: Check = {
  id: 'status_code_conformance',
  title: 'Undocumented HTTP status code',
  severity: 'medium',
  rule: 'openapi.responses',
  needs: 'exchange',
  run(ctx, exchange) {
    const response = exchange.response;
    if (!response) return [];
    if (ctx.spec.matchStatus(ctx.operation, response.status) !== undefined) return [];
    return [{
      kind: 'undocumented_status_code',
      title: 'Undocumented HTTP status code',
      message: `${ctx.operation.operationId} answered ${response.status}, which it does not document (documented: ${ctx.operation.responseStatuses.join(', ')}).`,
      expected: ctx.operation.responseStatuses,
      actual: response.status,
    }];
  },
};
