import type { Check } from '../core/types.js';
import { documentsObject, isSubscription, isSubscriptionSchema, listed, namedProduct, objectsIn, own, successJson } from './response-objects.js';
import { brief } from './support.js';

/**
 * A subscription is for a recurring product: the product a subscription embeds (when it is the
 * one its product_id names) has is_recurring true. Judged only when is_recurring is present.
 * @see spec/rules.yaml subscriptions.recurring_product (a purchase leads, for recurring products, to subscriptions)
 */
export const subscriptionProductRecurring: Check = {
  id: 'subscription_product_recurring',
  title: 'Subscription to a one-time product',
  severity: 'medium',
  rule: 'subscriptions.recurring_product',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'core',
  level: 'must',
  needs: 'exchange',
  appliesTo: ({ operation }) =>
    documentsObject(operation, (object) => isSubscriptionSchema(object, 'is_recurring')) || 'no subscription embedding its product in its responses',
  run(_ctx, exchange) {
    const body = successJson(exchange);
    if (body === undefined) return [];
    const oneTime: string[] = [];
    for (const place of objectsIn(body)) {
      const { object } = place;
      if (!isSubscription(object)) continue;
      const product = namedProduct(object);
      if (product && own(product, 'is_recurring') === false) oneTime.push(`${place.path || 'body'} (id ${brief(own(object, 'id'))}): product ${brief(product.id)}`);
    }
    if (!oneTime.length) return [];
    return [{
      kind: 'subscription_product_not_recurring',
      title: 'Subscription to a one-time product',
      message: `A subscription is for a recurring product, but these embed a product with is_recurring false: ${listed(oneTime)}.`,
      expected: { product: { is_recurring: true } },
      actual: oneTime.slice(0, 10),
    }];
  },
};
