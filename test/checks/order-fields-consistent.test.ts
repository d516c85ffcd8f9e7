// order_fields_consistent on hand-made exchanges: an order whose paid flag agrees with its status
// and whose deprecated amount is its net_amount passes; each contradiction fails with its exact
// kind; statuses the description does not state, an answer without amount, objects that are no
// order and error bodies are not judged; and its applicability.
import { describe } from 'vitest';
import { orderFieldsConsistent } from '../../checks/order-fields-consistent.js';
import { testApplicability, testExchangeCases, type ExchangeCase } from './cases.js';

const ORDER = 'orders:get';
const FLAG = 'order_paid_flag_contradicts_status';
const AMOUNT = 'order_amount_differs_from_net_amount';

/** A paid order of 401.00 net, 477.19 with taxes, still carrying the deprecated amount; `fields` override. */
function order(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'd6ad361b-2b16-416c-880d-34081fce7457', status: 'paid', paid: true, subtotal_amount: 40100, net_amount: 40100, amount: 40100, tax_amount: 7619, total_amount: 47719, currency: 'usd', metadata: {}, ...fields };
}

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['paid and flagged paid passes', orderFieldsConsistent, ORDER, { body: order() }, []],
  ['pending and not flagged paid passes', orderFieldsConsistent, ORDER, { body: order({ status: 'pending', paid: false }) }, []],
  ['refunded and flagged paid is not stated, not judged', orderFieldsConsistent, ORDER, { body: order({ status: 'refunded', paid: true }) }, []],
  ['partially refunded and not flagged paid is not stated, not judged', orderFieldsConsistent, ORDER, { body: order({ status: 'partially_refunded', paid: false }) }, []],
  ['paid but flagged not paid fails', orderFieldsConsistent, ORDER, { body: order({ paid: false }) }, [FLAG]],
  ['pending but flagged paid fails', orderFieldsConsistent, ORDER, { body: order({ status: 'pending', paid: true }) }, [FLAG]],
  ['paid with the flag as the string "true" fails', orderFieldsConsistent, ORDER, { body: order({ paid: 'true' }) }, [FLAG]],
  ['paid with a null flag fails', orderFieldsConsistent, ORDER, { body: order({ paid: null }) }, [FLAG]],
  ['amount with the total, not the net, fails', orderFieldsConsistent, ORDER, { body: order({ amount: 47719 }) }, [AMOUNT]],
  ['amount as the string of the net fails', orderFieldsConsistent, ORDER, { body: order({ amount: '40100' }) }, [AMOUNT]],
  ['an answer without the deprecated amount passes', orderFieldsConsistent, ORDER, { body: order({ amount: undefined }) }, []],
  ['both contradictions are two findings', orderFieldsConsistent, ORDER, { body: order({ paid: false, amount: 47719 }) }, [FLAG, AMOUNT]],
  ['an embedded order is judged too', orderFieldsConsistent, ORDER, { body: order({ subscription: { id: 's', latest: order({ id: 'o-2', status: 'pending', paid: true }) } }) }, [FLAG]],
  ['an object without the order fields is no order', orderFieldsConsistent, ORDER, { body: { id: 'x', status: 'paid', paid: false, amount: 1, net_amount: 2 } }, []],
  ['an error body is not judged', orderFieldsConsistent, ORDER, { status: 404, body: { error: 'ResourceNotFound', detail: 'x', status: 'paid', paid: false, net_amount: 1, total_amount: 1 } }, []],
  ['the portal order is judged as well', orderFieldsConsistent, 'customer_portal:orders:get', { operationId: 'customer_portal:orders:get', body: order({ status: 'pending', paid: true }) }, [FLAG]],
];

describe('order_fields_consistent', () => {
  testExchangeCases(cases, { applies: true });
});

describe('applicability', () => {
  testApplicability([
    [orderFieldsConsistent, 'customer_portal:orders:get', true],
    [orderFieldsConsistent, 'products:list', 'no order (status, paid, net_amount, total_amount) in its responses'],
    // The description does not show the update's answer (an object); an order operation may still answer an order, which is judged.
    [orderFieldsConsistent, 'orders:update', true],
    [orderFieldsConsistent, 'orders:get_receipt', 'no order (status, paid, net_amount, total_amount) in its responses'],
  ]);
});
