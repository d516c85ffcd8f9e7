/**
 * License keys as the customer portal answers them: `key` is the secret value (shown to its own
 * customer), `display_key` its masked form.
 * @see spec/openapi.yaml, schema LicenseKey; spec/rules.yaml license_keys.display_key_masked
 */
import type { LicenseKeyRecord } from '../../records.js';
import { renderNullableTimestamp as nullableTs, renderTimestamp as ts, type RenderContext } from '../../render.js';
import { serializeCustomer } from '../customers/serializer.js';
import type { Json } from '../products/serializer.js';

/** The masked form of a key: `****-` and its last six characters. */
export function displayKey(key: string): string {
  return `****-${key.slice(-6)}`;
}

/** A license key with its customer. @see spec/openapi.yaml, schema LicenseKey */
export function serializeLicenseKey(ctx: RenderContext, licenseKey: LicenseKeyRecord): Json {
  return {
    id: licenseKey.id,
    created_at: ts(ctx, licenseKey.created_at),
    modified_at: nullableTs(ctx, licenseKey.modified_at),
    organization_id: licenseKey.organization_id,
    customer_id: licenseKey.customer_id,
    customer: serializeCustomer(ctx, ctx.store.customers.get(licenseKey.customer_id)!),
    benefit_id: licenseKey.benefit_id,
    key: licenseKey.key,
    // The `display_key_unmasked` fault shows the secret itself.
    display_key: ctx.faults?.has('display_key_unmasked') ? licenseKey.key : displayKey(licenseKey.key),
    status: licenseKey.status,
    limit_activations: licenseKey.limit_activations,
    usage: licenseKey.usage,
    limit_usage: licenseKey.limit_usage,
    validations: licenseKey.validations,
    last_validated_at: nullableTs(ctx, licenseKey.last_validated_at),
    expires_at: nullableTs(ctx, licenseKey.expires_at),
  };
}
