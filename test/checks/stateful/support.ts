// What the tests of the stateful judgements share: an order id, events about it as an adapter
// reports them, the kinds of a list of findings, and an exchange of a GET outside the document.
import type { TargetEvent } from '../../../core/adapter.js';
import type { Exchange } from '../../../core/types.js';

export const ORDER = '0b7f3c1e-5a2d-4c8e-9f10-2b3c4d5e6f70';

/** An event of `type`, about ORDER unless `data` says otherwise. */
export const event = (id: string, type: string, data: Record<string, unknown> = { id: ORDER }): TargetEvent => ({ id, type, timestamp: '2026-06-01T12:00:00Z', data });

/** The kinds of `findings`, in order. */
export const kinds = (findings: { kind: string }[]) => findings.map((f) => f.kind);

/** An exchange of a GET to a URL outside the document, answered as given (no answer when `status` is undefined). */
export function fetched(status: number | undefined, body = '', headers: Record<string, string> = {}): Exchange {
  return {
    case: { id: 'receipt_fetchable#1', operationId: 'GET /__receipts/x.pdf', pathParams: {}, query: {}, headers: {}, role: null },
    operationId: 'GET /__receipts/x.pdf',
    request: { method: 'GET', url: 'http://127.0.0.1:1/__receipts/x.pdf?signature=s', headers: { accept: '*/*' } },
    ...(status === undefined ? { transportError: { code: 'ECONNRESET', message: 'reset' } } : { response: { status, headers, body, elapsedMs: 1 } }),
  };
}
