/**
 * Benefit sets of products: the ids a product grants, compared as sets (the replacement endpoint
 * takes a set; order and duplicates do not matter).
 * @see spec/rules.yaml products.benefits_replaced; operation products:update_benefits (POST /v1/products/{id}/benefits)
 */

/** The ids of the benefits a product (as the API shows it) grants, in its order; [] when it has no benefits array. */
export function benefitIdsOf(product: Record<string, unknown>): string[] {
  const benefits = Array.isArray(product.benefits) ? (product.benefits as unknown[]) : [];
  return benefits.flatMap((benefit) => (typeof benefit === 'object' && benefit !== null && typeof (benefit as { id?: unknown }).id === 'string' ? [(benefit as { id: string }).id.toLowerCase()] : []));
}

/** Whether two lists hold the same ids, ignoring order, duplicates and case. */
export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a.map((id) => id.toLowerCase()));
  const right = new Set(b.map((id) => id.toLowerCase()));
  return left.size === right.size && [...left].every((id) => right.has(id));
}

/** Whether a product's benefit ids are exactly the set `wanted`: the same ids, each once. */
export function isExactly(ids: readonly string[], wanted: readonly string[]): boolean {
  return new Set(ids.map((id) => id.toLowerCase())).size === ids.length && sameSet(ids, wanted);
}
