/**
 * Products and what they embed (prices, benefits, media files, custom fields) as the API answers them.
 * @see spec/openapi.yaml, schemas Product, Price, Benefit, ProductMediaFile, AttachedCustomField and CustomField
 */
import { renderNullableTimestamp as nullableTs, renderTimestamp as ts, type RenderContext } from '../../render.js';
import { benefitProperties, priceAmountFields } from '../platform-fields.js';
import type { BenefitRecord, CustomFieldRecord, MediaRecord, PriceRecord, ProductRecord } from '../../records.js';
import { isProductDeletable } from '../../store.js';
import { formatTimestamp, MICROS_PER_DAY, parseTimestamp } from '../../timestamps.js';

/** A JSON object as it goes on the wire. */
export type Json = Record<string, unknown>;

const LEGACY_FIELDS = ['type', 'recurring_interval', 'legacy', 'price_amount', 'minimum_amount', 'maximum_amount', 'preset_amount'] as const;

/**
 * A price: the common fields, then the legacy and amount fields it has, then the amount fields of
 * its type that the description does not show and the platform requires (platform-fields.ts).
 * @see spec/openapi.yaml, schema Price; docs/platform.md (prices)
 */
export function serializePrice(ctx: RenderContext, price: PriceRecord): Json {
  const body: Json = {
    id: price.id,
    created_at: ts(ctx, price.created_at),
    modified_at: nullableTs(ctx, price.modified_at),
    source: price.source,
    amount_type: price.amount_type,
    price_currency: price.price_currency,
    tax_behavior: price.tax_behavior,
    is_archived: price.is_archived,
    product_id: price.product_id,
  };
  for (const field of LEGACY_FIELDS) if (price[field] !== undefined) body[field] = price[field];
  return Object.assign(body, priceAmountFields(ctx.store, price));
}

/**
 * A benefit; its properties complete for its type as the platform has them.
 * @see spec/openapi.yaml, schema Benefit; docs/platform.md (benefits)
 */
export function serializeBenefit(ctx: RenderContext, benefit: BenefitRecord): Json {
  return {
    id: benefit.id,
    created_at: ts(ctx, benefit.created_at),
    modified_at: nullableTs(ctx, benefit.modified_at),
    type: benefit.type,
    description: benefit.description,
    selectable: benefit.selectable,
    deletable: benefit.deletable,
    is_deleted: benefit.is_deleted,
    organization_id: benefit.organization_id,
    metadata: { ...benefit.metadata },
    visibility: benefit.visibility,
    properties: benefitProperties(ctx.store, benefit),
    visibility_configurable: benefit.visibility_configurable,
  };
}

/** A size for people: `512 B`, `597.3 KB`, `2.1 MB`. */
export function readableSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}

/** A product media file. @see spec/openapi.yaml, schema ProductMediaFile */
export function serializeMedia(ctx: RenderContext, media: MediaRecord): Json {
  return {
    id: media.id,
    organization_id: media.organization_id,
    name: media.name,
    path: media.path,
    mime_type: media.mime_type,
    size: media.size,
    storage_version: media.storage_version,
    checksum_etag: media.checksum_etag,
    checksum_sha256_base64: media.checksum_sha256_base64,
    checksum_sha256_hex: media.checksum_sha256_hex,
    last_modified_at: nullableTs(ctx, media.last_modified_at),
    version: media.version,
    service: 'product_media',
    is_uploaded: media.is_uploaded,
    created_at: ts(ctx, media.created_at),
    size_readable: readableSize(media.size),
    public_url: `https://files.example.com/product_media/${media.path}`,
  };
}

/** A custom field. @see spec/openapi.yaml, schemas AttachedCustomField and CustomField */
export function serializeCustomField(ctx: RenderContext, field: CustomFieldRecord): Json {
  return {
    created_at: ts(ctx, field.created_at),
    modified_at: nullableTs(ctx, field.modified_at),
    id: field.id,
    metadata: { ...field.metadata },
    type: field.type,
    slug: field.slug,
    name: field.name,
    organization_id: field.organization_id,
    properties: { ...field.properties },
  };
}

/** Options of {@link serializeProduct}. */
export interface ProductSerializeOptions {
  /** The `missing_field` fault: leave out is_archived. */
  omitIsArchived?: boolean;
}

/**
 * A product with its prices, benefits, media files and attached custom fields resolved;
 * is_deletable is present in API version 2026-10 only (and in 2026-04 under the
 * `is_deletable_in_2026_04` fault).
 * @see spec/openapi.yaml, schema Product; spec/rules.yaml versioning.is_deletable
 */
export function serializeProduct(ctx: RenderContext, product: ProductRecord, options: ProductSerializeOptions = {}): Json {
  const { store } = ctx;
  const body: Json = {
    id: product.id,
    created_at: ts(ctx, product.created_at),
    modified_at: nullableTs(ctx, product.modified_at),
    trial_interval: product.trial_interval,
    trial_interval_count: product.trial_interval_count,
    name: product.name,
    description: product.description,
    visibility: product.visibility,
    recurring_interval: product.recurring_interval,
    recurring_interval_count: product.recurring_interval_count,
    meter_interval: product.meter_interval,
    meter_interval_count: product.meter_interval_count,
    is_recurring: product.recurring_interval !== null,
    is_archived: product.is_archived,
    organization_id: product.organization_id,
    metadata: { ...product.metadata },
    ...(ctx.apiVersion === '2026-10' || ctx.faults?.has('is_deletable_in_2026_04') ? { is_deletable: isProductDeletable(store, product.id) } : {}),
    prices: product.price_ids.map((id) => serializePrice(ctx, store.prices.get(id)!)),
    benefits: product.benefit_ids.map((id) => serializeBenefit(ctx, store.benefits.get(id)!)),
    medias: product.media_ids.map((id) => serializeMedia(ctx, store.medias.get(id)!)),
    attached_custom_fields: product.attached_custom_fields.map((attached) => ({
      custom_field_id: attached.custom_field_id,
      custom_field: serializeCustomField(ctx, store.customFields.get(attached.custom_field_id)!),
      order: attached.order,
      required: attached.required,
    })),
  };
  if (options.omitIsArchived) delete body.is_archived;
  applyProductFaults(ctx, product, body);
  return body;
}

/**
 * The product faults of serialization: `one_time_interval_count` and
 * `meter_interval_count_without_cycle` give a count of 1 where the interval is null;
 * `referenced_product_deletable` shows is_deletable true wherever it is shown.
 */
function applyProductFaults(ctx: RenderContext, product: ProductRecord, body: Json): void {
  const faults = ctx.faults;
  if (!faults || faults.size === 0) return;
  if (faults.has('one_time_interval_count') && product.recurring_interval === null) body.recurring_interval_count = 1;
  if (faults.has('meter_interval_count_without_cycle') && product.meter_interval === null) body.meter_interval_count = 1;
  if (faults.has('referenced_product_deletable') && Object.hasOwn(body, 'is_deletable')) body.is_deletable = true;
  if (faults.has('modified_before_created') && product.modified_at !== null) body.modified_at = ts(ctx, formatTimestamp(parseTimestamp(product.created_at)! - MICROS_PER_DAY));
}
