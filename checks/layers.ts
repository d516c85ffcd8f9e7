/**
 * The two layers of checks. Generic checks follow from OpenAPI alone (status codes, content types,
 * schemas, headers, negative and positive data, credentials where `securitySchemes` ask for them,
 * sorting and filters where the document declares `x-sort-keys` and `x-filter`) and run on any
 * document. The bundled API's checks enforce rules of spec/rules.yaml that no schema states (page
 * sizes and counts, version precision, masking, embedded references, scopes and roles, tenancy, the
 * rate limit) and apply only where the document has those rules: the bundled documents, or one that
 * opts in with `x-conformance-api-rules` (core/spec/load.ts); elsewhere they are not applicable.
 * @see issue 13, "Two layers of checks, visibly apart"
 */
import type { Check, CheckContext } from '../core/types.js';
import { API_RULES_EXTENSION } from '../core/spec/load.js';

/** A check's layer: `generic` (any OpenAPI document) or `api` (the bundled API's rules only). */
export type CheckLayer = 'generic' | 'api';

/** The checks of the bundled API's rules, by id; every other check is generic. */
export const API_RULE_CHECKS: ReadonlySet<string> = new Set([
  'pagination_limit_respected',
  'pagination_counts_consistent',
  'pagination_defaults',
  'pages_disjoint_and_complete',
  'version_fields',
  'timestamp_precision_of_version',
  'timestamps_utc',
  'embedded_references_consistent',
  'product_recurring_consistent',
  'product_meter_interval_count_null',
  'referenced_product_not_deletable',
  'subscription_product_recurring',
  'license_key_display_key_masked',
  'payment_methods_of_customer',
  'insufficient_scope_rejected',
  'read_scope_accepted',
  'write_scope_required',
  'write_scope_accepted',
  'pat_token_accepted',
  'member_session_acts_for_customer',
  'tenant_isolation',
  'tenant_isolation_lists',
  'rate_limit_enforced',
  'write_effect_visible',
]);

/** The layer of a check id. */
export function layerOf(checkId: string): CheckLayer {
  return API_RULE_CHECKS.has(checkId) ? 'api' : 'generic';
}

/** The not-applicable reason of an API-rule check on a document without the bundled API's rules. */
export const NOT_THIS_API = `a rule of the bundled API (spec/rules.yaml), not of this document (opt in with ${API_RULES_EXTENSION})`;

/** Whether the bundled API's rules apply in a check's context: `true`, or the not-applicable reason. */
export function apiRulesApply(ctx: CheckContext): true | string {
  return ctx.operation.apiRules === true || NOT_THIS_API;
}

/**
 * A check placed in its layer: an API-rule check's `appliesTo` first asks whether the document has
 * the bundled API's rules; a generic check is returned as it is.
 */
export function inLayer(check: Check): Check {
  if (layerOf(check.id) === 'generic') return check;
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
