import type { Check, Finding } from '../core/types.js';
import { documentsObject, listed, objectsIn, own, successJson, type JsonObject, type LocatedObject, type ObjectSchemaView } from './response-objects.js';
import { brief } from './support.js';

/** The path of a place followed by a dot (`items[0].`), or nothing for the body itself. */
function prefixOf(place: LocatedObject): string {
  return place.path ? `${place.path}.` : '';
}

function sameId(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** Whether an object is a product: it has is_recurring and its prices. @see spec/openapi.yaml, schema ProductBase */
function isProduct(object: JsonObject): boolean {
  return Object.hasOwn(object, 'is_recurring') && Array.isArray(own(object, 'prices'));
}

/** Whether a schema can hold an embedded object beside the `*_id` field naming it, or a product with prices. */
function documentsReference(object: ObjectSchemaView): boolean {
  return (object.has('is_recurring') && object.has('prices')) || object.names().some((name) => name.endsWith('_id') && object.has(name.slice(0, -3)));
}

/**
 * An embedded object is the one its `*_id` field names: wherever an object has a field `x` holding
 * an object with an id and a field `x_id` (a subscription's customer and customer_id, product and
 * product_id, discount and discount_id; a license key's customer; a subscription meter's meter),
 * the two ids are equal (UUIDs compared without regard to case); an embedded object beside a null
 * `x_id` names none and fails too. A product's prices carry the product's id as product_id. A null
 * embedded object, or one without an id, is not judged.
 * @see spec/rules.yaml references.embedded_consistent
 */
export const embeddedReferencesConsistent: Check = {
  id: 'embedded_references_consistent',
  title: 'Embedded object is not the one its id names',
  severity: 'high',
  rule: 'references.embedded_consistent',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'core',
  level: 'must',
  needs: 'exchange',
  appliesTo: ({ operation }) => documentsObject(operation, documentsReference) || 'no embedded object beside the *_id field naming it in its responses',
  run(_ctx, exchange) {
    const body = successJson(exchange);
    if (body === undefined) return [];
    const mismatches: string[] = [];
    const foreignPrices: string[] = [];
    for (const place of objectsIn(body)) {
      const { object } = place;
      for (const key in object) {
        if (!Object.hasOwn(object, key)) continue;
        const embedded = object[key];
        if (embedded === null || typeof embedded !== 'object' || Array.isArray(embedded) || !Object.hasOwn(object, `${key}_id`)) continue;
        const embeddedId = own(embedded as JsonObject, 'id');
        const named = object[`${key}_id`];
        if (typeof embeddedId !== 'string' || (named !== null && typeof named !== 'string')) continue;
        if (named === null || !sameId(embeddedId, named)) mismatches.push(`${prefixOf(place)}${key}.id ${brief(embeddedId)} but ${prefixOf(place)}${key}_id ${brief(named)}`);
      }
      const productId = own(object, 'id');
      if (!isProduct(object) || typeof productId !== 'string') continue;
      (object.prices as unknown[]).forEach((price, i) => {
        const priceProductId = price !== null && typeof price === 'object' ? own(price as JsonObject, 'product_id') : undefined;
        if (typeof priceProductId === 'string' && !sameId(priceProductId, productId)) {
          foreignPrices.push(`${prefixOf(place)}prices[${i}].product_id ${brief(priceProductId)} in product ${brief(productId)}`);
        }
      });
    }
    const findings: Finding[] = [];
    if (mismatches.length) {
      findings.push({
        kind: 'embedded_object_mismatch',
        title: 'Embedded object is not the one its id names',
        message: `An embedded object must be the one its *_id field names: ${listed(mismatches)}.`,
        expected: 'x.id equal to x_id',
        actual: mismatches.slice(0, 10),
      });
    }
    if (foreignPrices.length) {
      findings.push({
        kind: 'price_of_another_product',
        title: 'Price of a product names another product',
        message: `A product's prices carry its id as product_id: ${listed(foreignPrices)}.`,
        expected: 'prices[].product_id equal to the product id',
        actual: foreignPrices.slice(0, 10),
      });
    }
    return findings;
  },
};
