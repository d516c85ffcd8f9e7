/**
 * Replacing the set of benefits a product grants. The body is a set: duplicates collapse and order
 * does not matter (the product keeps the order of first appearance), so the same request twice
 * leaves the same product. Every benefit must exist, not be deleted, and belong to the product's
 * organization; otherwise nothing changes.
 * @see operationId products:update_benefits; spec/rules.yaml products.benefits_replaced, products.benefits_same_organization
 */
import { emitEvent, type MachineContext } from '../../events.js';
import type { ProductRecord } from '../../records.js';
import { fail, ok, type Result } from '../../result.js';
import { nowTimestamp } from '../../store.js';
import { serializeProduct } from './serializer.js';

/** A benefit id of the body that the product cannot grant, by its index in the body. */
export interface RejectedBenefit {
  index: number;
  id: string;
}

/**
 * Replaces the product's benefits; emits product.updated when the set changes (modified_at too).
 * @param benefitIds benefit uuids as sent
 * @param ctx.faults `benefits_foreign_accepted` accepts benefits of another organization;
 *   `benefits_update_not_persisted` answers the new set without storing it
 * @returns the product, or every rejected benefit (unknown, deleted or of another organization)
 */
export function replaceBenefits(ctx: MachineContext, product: ProductRecord, benefitIds: readonly string[]): Result<ProductRecord, RejectedBenefit[]> {
  const ids = benefitIds.map((id) => id.toLowerCase());
  const rejected: RejectedBenefit[] = [];
  ids.forEach((id, index) => {
    const benefit = ctx.store.benefits.get(id);
    const sameOrganization = benefit?.organization_id === product.organization_id || ctx.faults.has('benefits_foreign_accepted');
    if (!benefit || benefit.is_deleted || !sameOrganization) rejected.push({ index, id: benefitIds[index]! });
  });
  if (rejected.length > 0) return fail(rejected);
  const next = [...new Set(ids)];
  // benefits_update_not_persisted: the answer shows the new set, the store keeps the old one.
  if (ctx.faults.has('benefits_update_not_persisted')) return ok({ ...product, benefit_ids: next });
  const current = new Set(product.benefit_ids);
  const changed = next.length !== current.size || next.some((id) => !current.has(id));
  if (changed) {
    ctx.store.products.update(product, { benefit_ids: next, modified_at: nowTimestamp(ctx.store) });
    emitEvent(ctx.store, 'product.updated', serializeProduct(ctx, product));
  }
  return ok(product);
}
