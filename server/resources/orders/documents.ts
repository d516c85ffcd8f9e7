/**
 * Serving the receipt and invoice PDFs behind the presigned URLs that orders:get_receipt and
 * orders:get_invoice answer (`GET /__receipts/<order id>.pdf?expires=...&signature=...`, not part
 * of the API): 200 `application/pdf`; 403 for a bad or expired signature; 404 when the order or
 * the document does not exist.
 * @see operationIds orders:get_receipt, orders:get_invoice
 * @see spec/rules.yaml orders.receipt_presigned_url (presigned URL to the receipt PDF)
 */
import type { MachineContext } from '../../events.js';
import type { ServerKeys } from '../../keys.js';
import { errorReply, type Reply } from '../../replies.js';
import { checkPresigned } from '../../signed-urls.js';
import { documentPath, hasInvoice, renderOrderDocument, type OrderDocument } from './invoices.js';

const FILE_NAME = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.pdf$/;

/**
 * Answers a presigned document request.
 * @param fileName the last path segment (`<order id>.pdf`)
 * @param query the request's query (`expires`, `signature`)
 */
export function serveOrderDocument(ctx: MachineContext & { keys: ServerKeys }, kind: OrderDocument, fileName: string, query: Record<string, unknown>): Reply {
  const match = FILE_NAME.exec(fileName);
  if (!match) return errorReply(404, `No ${kind} ${fileName}.`);
  const orderId = match[1]!;
  const problem = checkPresigned(ctx.keys.urlSigning, 'GET', documentPath(kind, orderId), query, ctx.store.clock().getTime());
  if (problem === 'expired') return errorReply(403, `This ${kind} URL has expired; ask the API for a new one.`);
  if (problem) return errorReply(403, `The signature of this ${kind} URL is missing or invalid.`);
  const order = ctx.store.orders.get(orderId);
  const exists = order !== undefined && (kind === 'receipt' ? order.status === 'paid' : hasInvoice(order, ctx.faults));
  if (!order || !exists) return errorReply(404, `No ${kind} for order ${orderId}.`);
  return {
    status: 200,
    body: renderOrderDocument(order, kind),
    headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${kind}-${orderId}.pdf"`, 'cache-control': 'private, max-age=0' },
  };
}
