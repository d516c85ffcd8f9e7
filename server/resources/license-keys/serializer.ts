/**
 * License keys as the customer portal answers them: `key` is the secret value (shown to its own
 * customer), `display_key` its masked form.
 * @see spec/openapi.yaml, schema LicenseKey; spec/rules.yaml license_keys.display_key_masked
 */
import { createHash } from 'node:crypto';
import type { LicenseKeyRecord } from '../../records.js';
import { renderNullableTimestamp as nullableTs, renderTimestamp as ts, type RenderContext } from '../../render.js';
import { serializeCustomer } from '../customers/serializer.js';
import { serializeBenefit, type Json } from '../products/serializer.js';

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

/**
 * The id of the benefit grant that gave a license key: a UUID (version 4 in form) made from the
 * key's id, so that every event of one grant names it alike without a record of its own.
 */
export function grantIdOf(licenseKeyId: string): string {
  const hex = createHash('sha1').update(`benefit_grant ${licenseKeyId}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The data of a `benefit_grant.*` event of a license key's grant, as the platform sends it: the
 * grant with its customer, its license_keys benefit, and the key in its properties (the key's id
 * and its masked form, never the key itself).
 * @see the platform's public OpenAPI document (Polar API 2026-10), schemas WebhookBenefitGrantRevokedPayload and BenefitGrantLicenseKeysWebhook (copy: spec/platform/2026-10.json)
 */
export function benefitGrantEventData(ctx: RenderContext, licenseKey: LicenseKeyRecord): Json {
  const revoked = licenseKey.status === 'revoked';
  return {
    created_at: ts(ctx, licenseKey.created_at),
    modified_at: nullableTs(ctx, licenseKey.modified_at),
    id: grantIdOf(licenseKey.id),
    granted_at: ts(ctx, licenseKey.created_at),
    is_granted: !revoked,
    revoked_at: revoked ? nullableTs(ctx, licenseKey.modified_at) : null,
    is_revoked: revoked,
    subscription_id: null,
    order_id: null,
    customer_id: licenseKey.customer_id,
    member_id: null,
    benefit_id: licenseKey.benefit_id,
    error: null,
    customer: serializeCustomer(ctx, ctx.store.customers.get(licenseKey.customer_id)!),
    member: null,
    benefit: serializeBenefit(ctx, ctx.store.benefits.get(licenseKey.benefit_id)!),
    properties: { license_key_id: licenseKey.id, display_key: displayKey(licenseKey.key) },
    previous_properties: null,
  };
}
