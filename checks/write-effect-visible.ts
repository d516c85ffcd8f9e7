import type { Check, Exchange, Finding } from '../core/types.js';
import { brief, listBody } from './support.js';

/** What the owner's read-back must show after a successful write: why it does not, or undefined when it does. */
type Effect = (write: Exchange, readBack: Exchange) => string | undefined;

/** An effect and the reads that can show it (`METHOD path` of the document; the first one present is used). */
interface WriteEffect {
  reads: readonly string[];
  effect: Effect;
}

/** The JSON object a read-back shows: the body itself, or the first item of a list filtered to the resource. */
function record(readBack: Exchange): Record<string, unknown> | undefined {
  const list = listBody(readBack);
  const value = list ? list.items[0] : readBack.response?.json;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function sent(write: Exchange): Record<string, unknown> {
  try {
    const value = JSON.parse(write.request.body ?? '{}') as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const ok = (exchange: Exchange) => exchange.response !== undefined && exchange.response.status >= 200 && exchange.response.status < 300;

const billingKept: Effect = (write, readBack) => {
  // A write that did not set the billing name shows nothing a read can compare (the address's fields may be partial).
  if (!Object.hasOwn(sent(write), 'billing_name')) return undefined;
  const order = record(readBack);
  if (!ok(readBack) || !order) return `reading the order back answered ${readBack.response?.status ?? 'nothing'}`;
  const name = sent(write).billing_name;
  return order.billing_name === name ? undefined : `the order read back has billing_name ${JSON.stringify(order.billing_name)}, not the ${JSON.stringify(name)} sent`;
};

const invoiceExists: Effect = (_write, readBack) => (ok(readBack) ? undefined : `the invoice still answers ${readBack.response?.status ?? 'nothing'} after it was generated`);

/**
 * The effects the API description states for its writes: billing details changed, the product's
 * benefit set replaced, the customer deleted, the file created, the invoice generated.
 * @see spec/rules.yaml writes.effect_visible; operations products:update_benefits ("Replaces the set of benefits"),
 *   customers:delete_external, files:create, orders:generate_invoice ("generate an invoice explicitly"),
 *   orders:update ("change billing name and address")
 */
export const WRITE_EFFECTS: Readonly<Record<string, WriteEffect>> = {
  'PATCH /v1/orders/{id}': { reads: ['GET /v1/orders/{id}'], effect: billingKept },
  'PATCH /v1/customer-portal/orders/{id}': { reads: ['GET /v1/customer-portal/orders/{id}'], effect: billingKept },
  'POST /v1/orders/{id}/invoice': { reads: ['GET /v1/orders/{id}/invoice'], effect: invoiceExists },
  'POST /v1/customer-portal/orders/{id}/invoice': { reads: ['GET /v1/customer-portal/orders/{id}/invoice'], effect: invoiceExists },
  'POST /v1/products/{id}/benefits': { reads: ['GET /v1/products/{id}', 'GET /v1/products/'], effect: (write, readBack) => {
    if (!Array.isArray(sent(write).benefits)) return undefined;
    const product = record(readBack);
    if (!ok(readBack) || !product) return `reading the product back answered ${readBack.response?.status ?? 'nothing'}`;
    const want = [...new Set((sent(write).benefits as unknown[] | undefined) ?? [])].map(String).sort();
    const have = (Array.isArray(product.benefits) ? product.benefits : []).map((b) => String((b as { id?: unknown }).id)).sort();
    return JSON.stringify(want) === JSON.stringify(have) ? undefined : `the product read back grants ${brief(have, 120)}, not the ${brief(want, 120)} sent`;
  } },
  'DELETE /v1/customers/external/{external_id}': { reads: ['GET /v1/customers/{id}', 'GET /v1/customers/{id}/payment-methods'], effect: (_write, readBack) => {
    const status = readBack.response?.status;
    if (status === 404 || status === 410) return undefined;
    const customer = record(readBack);
    if (ok(readBack) && customer && 'deleted_at' in customer) return customer.deleted_at ? undefined : 'the customer read back has deleted_at null';
    return `the deleted customer still answers ${status ?? 'nothing'} ${brief(readBack.response?.json ?? readBack.response?.body, 80)}`;
  } },
  'POST /v1/files/': { reads: ['GET /v1/files/'], effect: (write, readBack) => {
    const id = (write.response?.json as { id?: unknown } | undefined)?.id;
    const items = listBody(readBack)?.items ?? [];
    return items.some((item) => item.id === id) ? undefined : `files listed with ids=${String(id)} hold ${items.length} item(s), not the file created`;
  } },
};

/**
 * A valid write on a fixture made for it is accepted (2xx), and its effect shows when its owner
 * reads the resource back: a write that answers 2xx but changes nothing is a finding. Only the
 * bundled API's writes, whose effects the description states, are judged. Its evidence is a write
 * and the same client's next read of that record (`write_then_read`), staged by the writes suite
 * (the read planned by engine/write-cases.ts) or found in any traffic; a read its effect cannot be
 * seen in (another operation) or a write that set nothing a read can compare judges nothing.
 * @see spec/rules.yaml writes.effect_visible
 */
export const writeEffectVisible: Check = {
  id: 'write_effect_visible',
  title: 'A write does not take effect',
  severity: 'critical',
  rule: 'writes.effect_visible',
  layer: 'api',
  evidence: 'pair',
  pair: 'write_then_read',
  conformanceClass: 'state',
  level: 'must',
  needs: 'exchange',
  appliesTo: ({ spec, operation }) => {
    const effect = WRITE_EFFECTS[`${operation.method} ${operation.path}`];
    if (!effect) return 'the API description states no effect of this operation that a read can show';
    const documented = new Set(spec.operations.map((o) => `${o.method} ${o.path}`));
    return effect.reads.some((read) => documented.has(read)) || `the document has no operation that reads the effect back (${effect.reads.join(' or ')})`;
  },
  run(ctx, exchange, history): Finding[] {
    const response = exchange.response!;
    if (!ok(exchange)) {
      return [{
        kind: 'valid_write_refused',
        title: 'A valid write was refused',
        message: `A valid ${ctx.operation.operationId} on a fixture made for it got ${response.status} ${brief(response.json ?? response.body, 100)}.`,
        expected: '2xx',
        actual: response.status,
      }];
    }
    const readBack = history[0];
    // The harness reads back whenever a successful answer says what to read (engine/write-cases.ts).
    if (!readBack) {
      return [{
        kind: 'write_effect_unverifiable',
        title: 'A write\'s answer does not say what it changed',
        message: `${ctx.operation.operationId} answered ${response.status} ${brief(response.json ?? response.body, 100)}, which names no resource to read back.`,
        expected: 'an answer naming the resource written (its id)',
        actual: response.json ?? response.body.slice(0, 200),
      }];
    }
    const effect = WRITE_EFFECTS[`${ctx.operation.method} ${ctx.operation.path}`]!;
    const read = readBack.case.operationId === '' ? undefined : ctx.spec.operations.find((o) => o.operationId === readBack.case.operationId);
    if (read && !effect.reads.includes(`${read.method} ${read.path}`)) return [];
    const wrong = effect.effect(exchange, readBack);
    if (!wrong) return [];
    return [{
      kind: 'write_not_persisted',
      title: 'A write answered 2xx but changed nothing',
      message: `${ctx.operation.operationId} answered ${response.status}, but ${wrong}.`,
      expected: 'the write visible when read back',
      actual: { status: readBack.response?.status, body: readBack.response?.json ?? readBack.response?.body.slice(0, 200) },
    }];
  },
};
