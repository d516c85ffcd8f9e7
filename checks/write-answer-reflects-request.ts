import type { Check, CheckContext, Exchange } from '../core/types.js';
import { successJson } from './response-objects.js';
import { brief, requestFields } from './support.js';

/** What the answer of a write must show of its request: why it does not, or undefined. */
type Reflection = (asked: Record<string, unknown>, answered: Record<string, unknown>) => string | undefined;

/** The billing details a PATCH of an order sets: `billing_name` as sent, and each field of `billing_address` sent (null when the address is cleared). */
const billingDetails: Reflection = (asked, answered) => {
  const problems: string[] = [];
  if (Object.hasOwn(asked, 'billing_name') && answered.billing_name !== asked.billing_name) problems.push(`billing_name ${brief(answered.billing_name, 60)}, not the ${brief(asked.billing_name, 60)} sent`);
  if (Object.hasOwn(asked, 'billing_address')) {
    const sent = asked.billing_address;
    const shown = answered.billing_address;
    if (sent === null) {
      if (shown !== null) problems.push(`billing_address ${brief(shown, 80)}, not null as sent`);
    } else if (typeof sent === 'object' && !Array.isArray(sent)) {
      const fields = Object.entries(sent as Record<string, unknown>).filter(([, value]) => value !== undefined);
      const differing = fields.filter(([name, value]) => typeof shown !== 'object' || shown === null || (shown as Record<string, unknown>)[name] !== value);
      if (differing.length > 0) problems.push(`billing_address ${brief(shown, 120)}, not the ${differing.map(([name, value]) => `${name} ${JSON.stringify(value)}`).join(', ')} sent`);
    }
  }
  return problems.length ? problems.join('; ') : undefined;
};

/** The benefits a product's benefit update sets: exactly the ids sent (order and repeats aside). */
const benefitSet: Reflection = (asked, answered) => {
  if (!Array.isArray(asked.benefits)) return undefined;
  const want = [...new Set(asked.benefits.map(String))].sort();
  const have = (Array.isArray(answered.benefits) ? answered.benefits : []).map((b) => String((b as { id?: unknown } | null)?.id)).sort();
  return JSON.stringify(want) === JSON.stringify(have) ? undefined : `benefits ${brief(have, 120)}, not the ${brief(want, 120)} sent`;
};

/**
 * The writes whose answer is the record they changed, with what that answer must show of the
 * request: the billing details of an order (`orders:update`, `customer_portal:orders:update`:
 * "change billing name and address") and the benefit set of a product (`products:update_benefits`:
 * "Replaces the set of benefits"), by `METHOD path`.
 */
export const WRITE_REFLECTIONS: Readonly<Record<string, Reflection>> = {
  'PATCH /v1/orders/{id}': billingDetails,
  'PATCH /v1/customer-portal/orders/{id}': billingDetails,
  'POST /v1/products/{id}/benefits': benefitSet,
};

/** `appliesTo` of the checks of a write whose answer is the record it changed ({@link WRITE_REFLECTIONS}). */
export function answersItsRecord({ operation }: CheckContext): true | string {
  return WRITE_REFLECTIONS[`${operation.method} ${operation.path}`] !== undefined || 'not a write whose answer is the record it changed (the billing details of an order, the benefits of a product)';
}

/**
 * A successful write answers the record as the write left it: what the request set is what the
 * answer shows (the billing name and each address field sent; the benefit ids sent, as the set).
 * Judged on every successful such write, whoever sent it; whether the change is stored is
 * write_effect_visible's and write_read_consistent's question.
 * @see spec/rules.yaml writes.answer_reflects_request, products.benefits_replaced, orders.billing_details_before_invoice
 */
export const writeAnswerReflectsRequest: Check = {
  id: 'write_answer_reflects_request',
  title: "A write's answer does not show what the request set",
  severity: 'high',
  rule: 'writes.answer_reflects_request',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'state',
  level: 'must',
  needs: 'exchange',
  appliesTo: answersItsRecord,
  run(ctx, exchange: Exchange) {
    const answered = successJson(exchange);
    if (typeof answered !== 'object' || answered === null || Array.isArray(answered)) return [];
    const wrong = WRITE_REFLECTIONS[`${ctx.operation.method} ${ctx.operation.path}`]!(requestFields(exchange), answered as Record<string, unknown>);
    if (!wrong) return [];
    return [{
      kind: 'write_answer_differs_from_request',
      title: "A write's answer does not show what the request set",
      message: `${ctx.operation.operationId} answered ${exchange.response!.status} with ${wrong}.`,
      expected: 'the record as the request set it',
      actual: wrong,
    }];
  },
};
