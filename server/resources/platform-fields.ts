/**
 * Fields the API description leaves "not shown" that the platform's records always carry, derived
 * at serialization from what the store holds, so that the platform's own clients (whose schemas
 * require them) accept the reference's answers. Every value is a pure function of the record (and
 * of the store for references to other records): the same record always shows the same fields, in
 * every version, and the demo data's draws are untouched.
 * @see docs/platform.md (each field, the platform schema it comes from and how its value is derived)
 */
import { createHash } from 'node:crypto';
import type { BenefitRecord, MeterRecord, PriceRecord } from '../records.js';
import type { Store } from '../store.js';

/** A JSON object as it goes on the wire. */
type Json = Record<string, unknown>;

/** A number from 0 to 2^32 - 1 drawn from a record id: stable, and different from one record to the next. */
export function idNumber(id: string): number {
  return parseInt(id.replace(/-/g, '').slice(-8), 16) || 0;
}

/**
 * A version-4-shaped uuid derived from `seed` (sha256), for references the store does not hold
 * (a Slack integration of a benefit): the same seed always gives the same id.
 */
export function derivedUuid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The meter a metered price or a meter credit benefit counts: one of its organization's meters, chosen by its id; undefined when the organization has none. */
export function meterOf(store: Store, organizationId: string, recordId: string): MeterRecord | undefined {
  const meters = store.meters.inOrganization(organizationId);
  return meters.length === 0 ? undefined : meters[idNumber(recordId) % meters.length];
}

/** The platform's `ProductPriceMeter` of a meter: `{id, name, unit, custom_label, custom_multiplier}`. */
function priceMeter(meter: MeterRecord): Json {
  return { id: meter.id, name: meter.name, unit: meter.unit, custom_label: meter.custom_label, custom_multiplier: meter.custom_multiplier };
}

/** A per-unit amount in cents as the platform writes it: a decimal string (`"0.5"`, `"12"`). */
function unitAmount(cents: number): string {
  return String(cents);
}

/**
 * The amount fields of a non-legacy price beyond the common ones, by amount type, as the platform's
 * `ProductPriceSeatBased` (`seat_tiers`), `ProductPriceMeteredUnit` (`unit_amount`, `cap_amount`,
 * `meter_id`, `meter`), `ProductPriceUnitBased` and `ProductPriceMeteredTiers` (`tiers`, and their
 * own) have them; fixed and custom prices keep the stored amounts (none added). Amounts are cents.
 * @returns the fields to add (empty for fixed and custom prices, and for metered prices of an organization without meters)
 */
export function priceAmountFields(store: Store, price: PriceRecord): Json {
  const n = idNumber(price.id);
  switch (price.amount_type) {
    case 'seat_based': {
      const perSeat = 500 + (n % 20) * 100;
      return {
        seat_tiers: {
          seat_tier_type: 'volume',
          tiers: [
            { min_seats: 1, max_seats: 9, price_per_seat: perSeat },
            { min_seats: 10, max_seats: null, price_per_seat: Math.round(perSeat * 0.8) },
          ],
          minimum_seats: 1,
          maximum_seats: null,
        },
      };
    }
    case 'unit_based':
      return {
        tiers: { type: 'volume', tiers: [{ bound: null, unit_amount: unitAmount(100 + (n % 10) * 50) }] },
        minimum_units: 1,
        unit_label: null,
        maximum_units: null,
      };
    case 'metered_unit':
    case 'metered_tiers': {
      const meter = meterOf(store, price.organization_id, price.id);
      if (!meter) return {};
      const metered = { cap_amount: n % 3 === 0 ? 100_000 : null, meter_id: meter.id, meter: priceMeter(meter) };
      if (price.amount_type === 'metered_unit') return { unit_amount: unitAmount(1 + (n % 50)), ...metered };
      return {
        ...metered,
        tiers: { type: 'graduated', tiers: [{ bound: 1000, unit_amount: unitAmount(5 + (n % 10)) }, { bound: null, unit_amount: unitAmount(2 + (n % 3)) }] },
      };
    }
    default:
      return {};
  }
}

/**
 * A benefit's `properties` with the keys the platform's `Benefit<Type>Properties` require and the
 * store does not hold: discord `kick_member` and `guild_token`, meter_credit `meter_id`,
 * slack_shared_channel `slack_integration_id` and `channel_name_template`. Stored keys win.
 */
export function benefitProperties(store: Store, benefit: BenefitRecord): Json {
  const stored = structuredClone(benefit.properties);
  switch (benefit.type) {
    case 'discord':
      return { kick_member: false, guild_token: `reference-guild-token-${benefit.id.slice(0, 8)}`, ...stored };
    case 'meter_credit': {
      const meter = meterOf(store, benefit.organization_id, benefit.id);
      return { ...(meter ? { meter_id: meter.id } : {}), ...stored };
    }
    case 'slack_shared_channel':
      return { slack_integration_id: derivedUuid(`slack:${benefit.id}`), channel_name_template: 'customer-{customer_name}', ...stored };
    case 'downloadables':
      return { archived: {}, files: [], ...stored };
    case 'license_keys':
      return { prefix: null, expires: null, activations: null, limit_usage: null, ...stored };
    case 'custom':
      return { note: null, ...stored };
    default:
      return stored;
  }
}

/** Country codes of the European Union, whose VAT ids the platform formats as `eu_vat`. */
const EU = new Set(['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK']);

/** The platform's `TaxIDFormat` of other countries the demo data draws. */
const FORMATS: Record<string, string> = {
  US: 'us_ein', GB: 'gb_vat', CA: 'ca_bn', AU: 'au_abn', CH: 'ch_vat', NO: 'no_vat', JP: 'jp_cn', BR: 'br_cnpj', IN: 'in_gst', MX: 'mx_rfc', NZ: 'nz_gst', SG: 'sg_gst', ZA: 'za_vat', KR: 'kr_brn',
};

/**
 * A stored tax id as the platform shows it: the `[value, format]` tuple, the format from the id's
 * country prefix (`DE123456789` → `["DE123456789", "eu_vat"]`; another prefix → `eu_vat` too, the
 * platform's most common format), or null. An id already stored as a tuple is shown as it is.
 */
export function taxIdTuple(stored: unknown): [string, string] | null {
  if (stored === null || stored === undefined) return null;
  if (Array.isArray(stored)) return [String(stored[0]), String(stored[1])];
  const value = String(stored);
  const country = value.slice(0, 2).toUpperCase();
  return [value, EU.has(country) ? 'eu_vat' : (FORMATS[country] ?? 'eu_vat')];
}
