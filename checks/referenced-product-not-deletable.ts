import type { Check } from '../core/types.js';
import { documentsObject, isSubscription, isSubscriptionSchema, listed, namedProduct, objectsIn, own, successJson } from './response-objects.js';
import { brief } from './support.js';

/**
 * A product referenced by a subscription is not deletable: the product a subscription embeds
 * (when it is the one its product_id names) has is_deletable false. is_deletable is optional on
 * the embedded product (the earlier version leaves it out): judged only when present. Products
 * referenced by orders, trials or discounts are not visible as such, so not judged.
 * @see spec/rules.yaml products.is_deletable_when_referenced (false when referenced by an order, subscription, trial or discount)
 */
export const referencedProductNotDeletable: Check = {
  id: 'referenced_product_not_deletable',
  title: 'Referenced product is deletable',
  severity: 'medium',
  rule: 'products.is_deletable_when_referenced',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'core',
  level: 'must',
  needs: 'exchange',
  appliesTo: ({ operation }) =>
    documentsObject(operation, (object) => isSubscriptionSchema(object, 'is_deletable')) || 'no subscription embedding a product with is_deletable in its responses',
  run(_ctx, exchange) {
    const body = successJson(exchange);
    if (body === undefined) return [];
    const deletable: string[] = [];
    for (const place of objectsIn(body)) {
      const { object } = place;
      if (!isSubscription(object)) continue;
      const product = namedProduct(object);
      if (product && own(product, 'is_deletable') === true) deletable.push(`${place.path || 'body'}.product ${brief(product.id)}`);
    }
    if (!deletable.length) return [];
    return [{
      kind: 'referenced_product_deletable',
      title: 'Referenced product is deletable',
      message: `A product a subscription references has is_deletable false, but these subscriptions embed their product with is_deletable true: ${listed(deletable)}.`,
      expected: { is_deletable: false },
      actual: deletable.slice(0, 10),
    }];
  },
};
