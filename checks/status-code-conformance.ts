import type { Check } from '../core/types.js';
import type { LoadedSpec, Operation } from '../core/spec/load.js';

/**
 * Whether a status code is documented for an operation: by its responses (exactly, as a range
 * such as `4XX`, or through `default`), or, for 429, by the document's declared rate limit
 * (`x-rate-limit`), whose refusal RFC 6585 names. Shared with the coverage report, so that a status
 * listed there as undocumented is exactly one this check fails.
 * @see https://spec.openapis.org/oas/v3.1.0#responses-object; RFC 6585 section 4
 */
export function isDocumentedStatus(spec: LoadedSpec, operation: Operation, status: number): boolean {
  return spec.matchStatus(operation, status) !== undefined || (status === 429 && spec.rateLimit !== undefined);
}

/**
 * The status code of a response is one the operation documents (exactly, as a range such as
 * `4XX`, or through `default`; 429 where the document declares a rate limit).
 * @see https://spec.openapis.org/oas/v3.1.0#responses-object
 */
export const statusCodeConformance: Check = {
  id: 'status_code_conformance',
  title: 'Undocumented HTTP status code',
  severity: 'medium',
  rule: 'openapi.responses',
  layer: 'generic',
  evidence: 'exchange',
  conformanceClass: 'core',
  level: 'must',
  needs: 'exchange',
  run(ctx, exchange) {
    const response = exchange.response;
    if (!response) return [];
    if (isDocumentedStatus(ctx.spec, ctx.operation, response.status)) return [];
    return [{
      kind: 'undocumented_status_code',
      title: 'Undocumented HTTP status code',
      message: `${ctx.operation.operationId} answered ${response.status}, which it does not document (documented: ${ctx.operation.responseStatuses.join(', ')}).`,
      expected: ctx.operation.responseStatuses,
      actual: response.status,
    }];
  },
};
