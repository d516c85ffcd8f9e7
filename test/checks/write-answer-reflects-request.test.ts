// write_answer_reflects_request on hand-made writes: an order's billing update answered with the
// name and each address field sent, and a product's benefit update answered with the set sent
// (order and repeats aside), pass; an answer that shows otherwise fails with the exact kind; what
// the request did not send, error answers and answers that are no record are not judged; and its
// applicability.
import { describe, expect, test } from 'vitest';
import { writeAnswerReflectsRequest } from '../../checks/write-answer-reflects-request.js';
import type { Exchange } from '../../core/types.js';
import { testApplicability } from './cases.js';
import { context, exchange } from './fixtures.js';

const ORDER = '0b7f3c1e-5a2d-4c8e-9f10-2b3c4d5e6f70';
const PRODUCT = '6a1c1b54-0a5c-4a43-9d5e-4e3f0c1d2a11';
const [B1, B2, B3] = ['b0000000-0000-4000-8000-000000000001', 'b0000000-0000-4000-8000-000000000002', 'b0000000-0000-4000-8000-000000000003'];
const DIFFERS = ['write_answer_differs_from_request'];
const PARIS = { country: 'FR', line1: '1 rue de Rivoli', line2: null, postal_code: '75001', city: 'Paris', state: null };

/** A write of `operationId` to `path`, sent with the JSON `body`, answered `status` with `answered`. */
function write(operationId: string, method: string, path: string, body: unknown, answered: unknown, status = 200): Exchange {
  const made = exchange({ operationId, status, body: answered });
  return { ...made, case: { ...made.case, pathParams: { id: path.split('/')[3]! } }, request: { method, url: `http://127.0.0.1:1${path}`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } };
}

/** An order as stored before the update: named ACME, billed to Berlin; `fields` override. */
const order = (fields: Record<string, unknown> = {}) => ({ id: ORDER, status: 'paid', billing_name: 'ACME GmbH', billing_address: { country: 'DE', line1: 'Unter den Linden 1', line2: null, postal_code: '10117', city: 'Berlin', state: null }, ...fields });
const billing = (body: unknown, answered: unknown, status = 200) => write('orders:update', 'PATCH', `/v1/orders/${ORDER}`, body, answered, status);
const portalBilling = (body: unknown, answered: unknown) => write('customer_portal:orders:update', 'PATCH', `/v1/customer-portal/orders/${ORDER}`, body, answered);
/** A product with benefits of these ids. */
const product = (ids: string[]) => ({ id: PRODUCT, name: 'Pro', benefits: ids.map((id) => ({ id, type: 'custom' })) });
const benefits = (body: unknown, answered: unknown) => write('products:update_benefits', 'POST', `/v1/products/${PRODUCT}/benefits`, body, answered);

describe('write_answer_reflects_request', () => {
  // [name, write, expected kinds ([] = passes)]
  test.each<[string, Exchange, string[]]>([
    ['the name and address sent pass', billing({ billing_name: 'Rivoli SARL', billing_address: PARIS }, order({ billing_name: 'Rivoli SARL', billing_address: PARIS })), []],
    ['the name alone, the address kept, passes', billing({ billing_name: 'Rivoli SARL' }, order({ billing_name: 'Rivoli SARL' })), []],
    ['an address of some fields, the others shown too, passes', billing({ billing_address: { country: 'FR', city: 'Paris' } }, order({ billing_address: PARIS })), []],
    ['a name cleared with null passes', billing({ billing_name: null }, order({ billing_name: null })), []],
    ['an address cleared with null passes', billing({ billing_address: null }, order({ billing_address: null })), []],
    ['nothing sent of the billing details passes', billing({}, order()), []],
    ['another name fails', billing({ billing_name: 'Rivoli SARL' }, order()), DIFFERS],
    ['the address kept as it was fails', billing({ billing_name: 'Rivoli SARL', billing_address: PARIS }, order({ billing_name: 'Rivoli SARL' })), DIFFERS],
    ['one address field other than sent fails', billing({ billing_address: PARIS }, order({ billing_address: { ...PARIS, postal_code: '75002' } })), DIFFERS],
    ['an address sent, null answered, fails', billing({ billing_address: PARIS }, order({ billing_address: null })), DIFFERS],
    ['null sent, an address answered, fails', billing({ billing_address: null }, order()), DIFFERS],
    ['a name cleared but answered, fails', billing({ billing_name: null }, order()), DIFFERS],
    ['the portal\'s billing update is judged the same', portalBilling({ billing_address: PARIS }, order()), DIFFERS],
    ['a refused update is not judged', billing({ billing_name: 'Rivoli SARL' }, { detail: [{ loc: ['body'], msg: 'x', type: 'invoice_already_generated' }] }, 422), []],
    ['an answer that is no object is not judged', billing({ billing_name: 'Rivoli SARL' }, [order()]), []],
    ['the benefits sent pass', benefits({ benefits: [B1, B2] }, product([B1, B2])), []],
    ['the benefits in another order pass', benefits({ benefits: [B1, B2, B3] }, product([B3, B1, B2])), []],
    ['a benefit sent twice, answered once, passes', benefits({ benefits: [B1, B2, B1] }, product([B1, B2])), []],
    ['no benefit sent, none answered, passes', benefits({ benefits: [] }, product([])), []],
    ['a benefit left out fails', benefits({ benefits: [B1, B2] }, product([B1])), DIFFERS],
    ['a benefit not sent fails', benefits({ benefits: [B1] }, product([B1, B2])), DIFFERS],
    ['the old benefits kept fail', benefits({ benefits: [] }, product([B1])), DIFFERS],
    ['an answer without benefits fails', benefits({ benefits: [B1] }, { id: PRODUCT }), DIFFERS],
    ['a request without a benefits list is not judged', benefits({ benefits: B1 }, product([])), []],
  ])('%s', async (_name, made, expected) => {
    const findings = writeAnswerReflectsRequest.run(await context(made.operationId), made, []);
    expect(findings.map((f) => f.kind)).toEqual(expected);
    for (const f of findings) expect(f.message).toContain(made.operationId);
  });
});

describe('applicability', () => {
  testApplicability([
    [writeAnswerReflectsRequest, 'orders:update', true],
    [writeAnswerReflectsRequest, 'customer_portal:orders:update', true],
    [writeAnswerReflectsRequest, 'products:update_benefits', true],
    [writeAnswerReflectsRequest, 'orders:get', 'not a write whose answer is the record it changed (the billing details of an order, the benefits of a product)'],
    [writeAnswerReflectsRequest, 'orders:generate_invoice', 'not a write whose answer is the record it changed (the billing details of an order, the benefits of a product)'],
  ]);
});
