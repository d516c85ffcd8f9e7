/**
 * Grows a reference store's product catalogue for the list-latency-at-scale benchmark, through the
 * store's own APIs (so that every index and kept order is maintained as in normal use). New
 * products copy the shape of the organization's demo products (prices, benefits, media, custom
 * fields), so that a page of them serializes to about as many bytes as a page of demo products.
 * @see docs/design.md (Performance: list latency at 100,000 stored products within 3x of 1,000)
 */
import { DEMO_NOW_MICROS } from '../server/demo-data.js';
import type { PriceRecord, ProductRecord, ProductVisibility } from '../server/records.js';
import { newId, type Store } from '../server/store.js';
import { formatTimestamp } from '../server/timestamps.js';

const MICROS_PER_DAY = 86_400_000_000;
const WORDS = ['Aurora', 'Basalt', 'Cobalt', 'Delta', 'Ember', 'Fjord', 'Granite', 'Harbor', 'Indigo', 'Juniper', 'Kestrel', 'Lumen', 'Meridian', 'Nimbus', 'Onyx', 'Prism', 'Quartz', 'Raven', 'Summit', 'Tundra'];
const KINDS = ['Plan', 'Pack', 'License', 'Course', 'Template', 'Kit', 'Membership', 'Bundle'];
const VISIBILITIES: ProductVisibility[] = ['public', 'public', 'public', 'private', 'draft'];

/** A small deterministic generator (mulberry32): the same seed, the same numbers in [0, 1). */
export function random(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Adds products (and their prices) to one organization until it holds `total` products.
 * Names, visibility (3 in 5 public), archiving and creation times (the demo's last three years)
 * are drawn from `seed`; the rest is copied from the organization's existing products in turn.
 * @returns how many products were added (0 when the organization already holds `total`)
 * @throws Error when the organization has no product to copy
 */
export function growProducts(store: Store, organizationId: string, total: number, seed = 1): number {
  const templates = store.products.inOrganization(organizationId).slice(0, 64);
  if (templates.length === 0) throw new Error(`organization ${organizationId} has no product to copy`);
  const draw = random(seed + store.products.inOrganization(organizationId).length);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(draw() * items.length)]!;
  let added = 0;
  while (store.products.inOrganization(organizationId).length < total) {
    const template = templates[added % templates.length]!;
    const created = formatTimestamp(Math.floor(DEMO_NOW_MICROS - draw() * 1095 * MICROS_PER_DAY));
    const id = newId(store);
    const priceIds = template.price_ids.map((priceId) => {
      const price = store.prices.get(priceId)!;
      const copy: PriceRecord = { ...price, id: newId(store), product_id: id, created_at: created, modified_at: null };
      return store.prices.insert(copy).id;
    });
    const product: ProductRecord = {
      ...template,
      id,
      created_at: created,
      modified_at: null,
      name: `${pick(WORDS)} ${pick(WORDS)} ${pick(KINDS)} ${Math.floor(draw() * 100_000)}`,
      visibility: pick(VISIBILITIES),
      is_archived: draw() < 0.1,
      metadata: { ...template.metadata },
      price_ids: priceIds,
      benefit_ids: [...template.benefit_ids],
      media_ids: [...template.media_ids],
      attached_custom_fields: template.attached_custom_fields.map((field) => ({ ...field })),
    };
    store.products.insert(product);
    added++;
  }
  return added;
}
