/**
 * The two layers of checks. Generic checks follow from OpenAPI alone (status codes, content types,
 * schemas, headers, negative and positive data, credentials where `securitySchemes` ask for them,
 * sorting and filters where the document declares `x-sort-keys` and `x-filter`) and run on any
 * document. The bundled API's checks enforce rules of spec/rules.yaml that no schema states (page
 * sizes and counts, version precision, masking, embedded references, scopes and roles, tenancy, the
 * rate limit) and apply only where the document has those rules: the bundled documents, or one that
 * opts in with `x-conformance-api-rules` (core/spec/load.ts); elsewhere they are not applicable.
 * @see docs/decisions.md (Any OpenAPI document: "Two layers of checks")
 */
import type { Check, CheckContext } from '../core/types.js';
import { API_RULES_EXTENSION } from '../core/spec/load.js';

/** The not-applicable reason of an API-rule check on a document without the bundled API's rules. */
export const NOT_THIS_API = `a rule of the bundled API (spec/rules.yaml), not of this document (opt in with ${API_RULES_EXTENSION})`;

/** Whether the bundled API's rules apply in a check's context: `true`, or the not-applicable reason. */
export function apiRulesApply(ctx: CheckContext): true | string {
  return ctx.operation.apiRules === true || NOT_THIS_API;
}

/**
 * A check placed in its layer (`Check.layer`): an API-rule check's `appliesTo` first asks whether the document has
 * the bundled API's rules; a generic check is returned as it is.
 */
export function inLayer(check: Check): Check {
  if (check.layer === 'generic') return check;
  const own = check.appliesTo?.bind(check);
  return {
    ...check,
    appliesTo(ctx) {
      const rules = apiRulesApply(ctx);
      if (rules !== true) return rules;
      return own ? own(ctx) : true;
    },
  };
}
