/**
 * Customers and their payment methods as the API answers them.
 * @see spec/openapi.yaml, schemas Customer, CustomerPaymentMethod
 */
import { createHash } from 'node:crypto';
import { renderNullableTimestamp as nullableTs, renderTimestamp as ts, type RenderContext } from '../../render.js';
import type { CustomerRecord, PaymentMethodRecord } from '../../records.js';
import type { Json } from '../products/serializer.js';
import { taxIdTuple } from '../platform-fields.js';

/** Avatar URLs derived from e-mail addresses, by address (a pure function, asked for on every serialization of a customer). */
const derivedAvatars = new Map<string, string>();

/**
 * A customer's avatar_url: the one stored, else, as the platform derives it, the Gravatar URL of
 * the SHA-256 of its trimmed, lower-cased e-mail address with `d=404` (no image when none is
 * registered), else null (a deleted customer, whose personal data may be anonymized, shows none). `@polar-sh/sdk` 0.32, which
 * `@polar-sh/express` 0.3.0 bundles, requires a string here to parse order and subscription events.
 * @see the platform's public OpenAPI document (Polar API 2026-10), schema Customer, avatar_url's example; docs/platform.md (Webhook payloads)
 */
export function avatarUrlOf(customer: Pick<CustomerRecord, 'avatar_url' | 'email' | 'deleted_at'>): string | null {
  if (customer.avatar_url !== null) return customer.avatar_url;
  if (!customer.email || customer.deleted_at !== null) return null;
  let url = derivedAvatars.get(customer.email);
  if (url === undefined) {
    if (derivedAvatars.size >= 10_000) derivedAvatars.clear();
    url = `https://www.gravatar.com/avatar/${createHash('sha256').update(customer.email.trim().toLowerCase()).digest('hex')}?d=404`;
    derivedAvatars.set(customer.email, url);
  }
  return url;
}

/**
 * A customer; a deleted one carries its deleted_at; tax_id is the platform's `[value, format]` tuple or null.
 * @see spec/openapi.yaml, schema Customer; docs/platform.md (tax ids)
 */
export function serializeCustomer(ctx: RenderContext, customer: CustomerRecord): Json {
  return {
    id: customer.id,
    created_at: ts(ctx, customer.created_at),
    modified_at: nullableTs(ctx, customer.modified_at),
    metadata: { ...customer.metadata },
    email_verified: customer.email_verified,
    type: customer.type,
    name: customer.name,
    billing_name: customer.billing_name,
    billing_address: customer.billing_address && { ...customer.billing_address },
    tax_id: taxIdTuple(customer.tax_id),
    organization_id: customer.organization_id,
    deleted_at: nullableTs(ctx, customer.deleted_at),
    first_user_event_at: nullableTs(ctx, customer.first_user_event_at),
    avatar_url: avatarUrlOf(customer),
    external_id: customer.external_id,
    email: customer.email,
    locale: customer.locale,
    default_payment_method_id: customer.default_payment_method_id,
  };
}

/**
 * A payment method; is_default when it is its customer's default_payment_method_id.
 * @see spec/openapi.yaml, schema CustomerPaymentMethod
 */
export function serializePaymentMethod(ctx: RenderContext, method: PaymentMethodRecord): Json {
  return {
    id: method.id,
    created_at: ts(ctx, method.created_at),
    modified_at: nullableTs(ctx, method.modified_at),
    processor: method.processor,
    customer_id: method.customer_id,
    type: method.type,
    method_metadata: { ...method.method_metadata },
    is_default: ctx.store.customers.get(method.customer_id)?.default_payment_method_id === method.id,
  };
}
