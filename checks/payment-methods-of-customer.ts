import type { Check, CheckContext } from '../core/types.js';
import type { Parameter } from '../core/spec/load.js';
import { documentsObject, listed } from './response-objects.js';
import { brief, listBody } from './support.js';

/** The path parameter that names the customer of a list nested under one (`/customers/{id}/...`), if any. */
function customerParameter({ operation }: CheckContext): Parameter | undefined {
  const segments = operation.path.split('/');
  return operation.parameters.find((p) => p.in === 'path' && segments.indexOf(`{${p.name}}`) > 0 && segments[segments.indexOf(`{${p.name}}`) - 1] === 'customers');
}

/**
 * The items of a list nested under a customer (`GET /v1/customers/{id}/payment-methods`) are that
 * customer's: each item's customer_id equals the path's id (UUIDs compared without regard to
 * case). Items without a string customer_id are not judged.
 * @see spec/rules.yaml customers.payment_methods_of_customer; operation customers:list_payment_methods (path id, customer uuid)
 */
export const paymentMethodsOfCustomer: Check = {
  id: 'payment_methods_of_customer',
  title: 'Listed item of another customer',
  severity: 'high',
  rule: 'customers.payment_methods_of_customer',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'core',
  level: 'must',
  needs: 'exchange',
  appliesTo: (ctx) => {
    if (!ctx.operation.paginated || !customerParameter(ctx)) return 'not a list under a customer (/customers/{id}/...)';
    return documentsObject(ctx.operation, (object) => object.has('customer_id')) || 'no customer_id in its items';
  },
  run(ctx, exchange) {
    const body = listBody(exchange);
    const parameter = customerParameter(ctx);
    const customerId = parameter ? exchange.case.pathParams[parameter.name] : undefined;
    if (!body || exchange.response!.status !== 200 || customerId === undefined) return [];
    const foreign = body.items
      .filter((item) => typeof item.customer_id === 'string' && item.customer_id.toLowerCase() !== customerId.toLowerCase())
      .map((item) => `${brief(item.id)} of customer ${brief(item.customer_id)}`);
    if (!foreign.length) return [];
    return [{
      kind: 'item_of_another_customer',
      title: 'Listed item of another customer',
      message: `The list of customer ${customerId} holds items of other customers: ${listed(foreign)}.`,
      expected: { customer_id: customerId },
      actual: foreign.slice(0, 10),
    }];
  },
};
