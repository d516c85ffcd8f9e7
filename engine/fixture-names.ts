/**
 * The fixture names a run can use, so that a config's `fixtures` key with a typo (`prodcut_id`)
 * is refused with the nearest name rather than silently ignored.
 * @see docs/design.md (Targets, roles and verdicts); docs/stateful.md (What the target must offer)
 */
import { SCENARIOS } from './stateful/registry.js';
import { MODEL_FAMILIES } from './stateful/registry.js';
import type { LoadedSpec } from '../core/spec/load.js';
import { fixtureName } from '../core/operation-needs.js';

/**
 * Fixtures the reference server hands out beyond the path parameters of the document: the second
 * organization's records (`other_*`, for the tenant checks), the order still pending, the OAuth
 * client's secret (the `oauth_client` role's token), and ids of resources the document has no
 * path of, so that a config copied from `conformance serve`'s banner is valid.
 */
export const EXTRA_FIXTURE_NAMES: readonly string[] = [
  'organization_id',
  'benefit_id',
  'subscription_id',
  'discount_id',
  'refund_id',
  'webhook_endpoint_id',
  'file_id',
  'license_key_id',
  'other_organization_id',
  'other_product_id',
  'other_subscription_id',
  'other_customer_id',
  'other_order_id',
  'other_organization_benefit_id',
  'pending_order_id',
  'oauth_client_id',
  'oauth_client_secret',
];

/**
 * Every fixture name a run against this document can use: the fixture name of each path parameter
 * (engine/operation-inputs.ts `fixtureName`), those the stateful scenarios and model families
 * need, and {@link EXTRA_FIXTURE_NAMES}; sorted, without repeats.
 */
export function knownFixtureNames(spec: LoadedSpec): string[] {
  const names = new Set<string>(EXTRA_FIXTURE_NAMES);
  for (const operation of spec.operations) {
    for (const param of operation.parameters) if (param.in === 'path') names.add(fixtureName(operation, param));
  }
  for (const scenario of SCENARIOS) for (const name of scenario.fixtures) names.add(name);
  for (const family of MODEL_FAMILIES) for (const name of family.fixtures) names.add(name);
  return [...names].sort();
}
