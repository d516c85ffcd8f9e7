import type { Check, Finding } from '../core/types.js';
import { documentsObject, listed, objectsIn, own, successJson, successSchemas } from './response-objects.js';

/** Whether an object is an order: it carries an order's status, paid flag and amounts. @see spec/openapi.yaml, schema Order */
function isOrder(has: (key: string) => boolean): boolean {
  return has('status') && has('paid') && has('net_amount') && has('total_amount');
}

/**
 * An order's fields agree with each other where the description says they stand for the same
 * thing: its `paid` flag with its status (true once `paid`, false while `pending`; other statuses
 * are not stated and not judged), and the deprecated `amount`, where an answer still carries it,
 * with `net_amount` ("replaces the deprecated amount, same value"). Judged on every order an answer
 * holds (an order, a list of orders, an order embedded elsewhere).
 * @see spec/rules.yaml orders.paid_flag, deprecations.order_net_amount
 */
export const orderFieldsConsistent: Check = {
  id: 'order_fields_consistent',
  title: "An order's fields contradict each other",
  severity: 'high',
  rule: 'orders.paid_flag',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'core',
  level: 'must',
  needs: 'exchange',
  // An order operation whose answer the document leaves open (an object without properties) may hold an order too.
  appliesTo: ({ operation }) =>
    documentsObject(operation, (object) => isOrder((key) => object.has(key)))
    || (/\/orders(\/|$)/.test(operation.path) && successSchemas(operation).some((schema) => schema.properties === undefined && !schema.allOf && !schema.anyOf && !schema.oneOf))
    || 'no order (status, paid, net_amount, total_amount) in its responses',
  run(_ctx, exchange) {
    const body = successJson(exchange);
    if (body === undefined) return [];
    const flags: string[] = [];
    const amounts: string[] = [];
    for (const { object, path } of objectsIn(body)) {
      if (!isOrder((key) => Object.hasOwn(object, key))) continue;
      const status = own(object, 'status');
      const paid = own(object, 'paid');
      const where = `${path || 'body'} (order ${String(own(object, 'id'))})`;
      if ((status === 'paid' && paid !== true) || (status === 'pending' && paid !== false)) flags.push(`${where}: status ${JSON.stringify(status)}, paid ${JSON.stringify(paid)}`);
      if (Object.hasOwn(object, 'amount') && own(object, 'amount') !== own(object, 'net_amount')) amounts.push(`${where}: amount ${JSON.stringify(own(object, 'amount'))}, net_amount ${JSON.stringify(own(object, 'net_amount'))}`);
    }
    const findings: Finding[] = [];
    if (flags.length) findings.push({ kind: 'order_paid_flag_contradicts_status', title: "An order's paid flag contradicts its status", message: `An order's paid flag is true once its status is paid and false while it is pending, but: ${listed(flags)}.`, expected: { paid: true, pending: false }, actual: flags.slice(0, 10) });
    if (amounts.length) findings.push({ kind: 'order_amount_differs_from_net_amount', title: "An order's deprecated amount differs from its net_amount", message: `net_amount replaces the deprecated amount, with the same value, but: ${listed(amounts)}.`, expected: 'amount equal to net_amount', actual: amounts.slice(0, 10) });
    return findings;
  },
};
