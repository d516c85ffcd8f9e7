/**
 * Judges an order's receipt: `GET /v1/orders/{id}/receipt` answers `url`, an absolute presigned
 * URL, and that URL, fetched without the API's credentials, answers the receipt PDF.
 * @see spec/rules.yaml orders.receipt_presigned_url; operation orders:get_receipt (url, presigned URL to the receipt PDF)
 */
import type { Exchange, Finding } from '../../core/types.js';

/** The media type of a PDF document. @see https://www.rfc-editor.org/rfc/rfc8118 */
export const PDF_MEDIA_TYPE = 'application/pdf';

/**
 * How far into a body the PDF header `%PDF-` may start: readers accept it within the first 1024
 * bytes. @see ISO 32000-1:2008, annex H (compatibility and implementation notes: file header)
 */
const PDF_HEADER_WINDOW = 1024;

/**
 * The receipt URL of a receipt answer, when it is an absolute http(s) URL.
 * @param body the JSON object of the 200 answer
 * @returns `{url}`, or `{finding}` (`receipt_url_not_absolute`) when `url` is missing, relative or of another scheme
 */
export function receiptUrl(body: Record<string, unknown>, orderId: string): { url: URL } | { finding: Finding } {
  const url = typeof body.url === 'string' && URL.canParse(body.url) ? new URL(body.url) : undefined;
  if (url && (url.protocol === 'https:' || url.protocol === 'http:')) return { url };
  return {
    finding: {
      kind: 'receipt_url_not_absolute',
      title: 'The receipt URL is not an absolute http(s) URL',
      message: `GET /v1/orders/${orderId}/receipt answered url ${JSON.stringify(body.url)}; a presigned URL is absolute.`,
      expected: 'an absolute URL',
      actual: body.url,
    },
  };
}

/** Whether a response is a PDF: served as application/pdf, or a body whose first 1024 bytes hold the header `%PDF-`. */
export function isPdf(response: NonNullable<Exchange['response']>): boolean {
  const mediaType = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return mediaType === PDF_MEDIA_TYPE || response.body.slice(0, PDF_HEADER_WINDOW).includes('%PDF-');
}

/**
 * Findings about the fetch of a receipt URL, sent without the API's credentials.
 * @param fetched the exchange of `GET <url>` (its request must carry no Authorization header)
 * @returns `receipt_not_fetchable` unless it answered 200 with a body; else `receipt_not_pdf`
 *   unless that body is a PDF (by media type or by its `%PDF-` header, so that a storage service
 *   serving it as application/octet-stream passes); empty when it is
 */
export function receiptDocumentFindings(fetched: Exchange): Finding[] {
  const response = fetched.response;
  if (!response || response.status !== 200 || response.body.length === 0) {
    const answer = response ? `${response.status} ${response.body.length === 0 ? 'with an empty body' : JSON.stringify(response.body.slice(0, 120))}` : `no answer (${fetched.transportError?.code ?? 'unknown'})`;
    return [{
      kind: 'receipt_not_fetchable',
      title: 'The receipt URL cannot be fetched',
      message: `GET of the receipt URL without the API's credentials answered ${answer}; a presigned URL serves the receipt PDF.`,
      expected: '200 with a body',
      actual: response?.status,
    }];
  }
  if (isPdf(response)) return [];
  return [{
    kind: 'receipt_not_pdf',
    title: 'The receipt URL does not serve a PDF',
    message: `GET of the receipt URL answered 200 with Content-Type ${JSON.stringify(response.headers['content-type'] ?? null)} and a body starting ${JSON.stringify(response.body.slice(0, 40))}; the receipt is a PDF.`,
    expected: `${PDF_MEDIA_TYPE}, or a body with the %PDF- header`,
    actual: { contentType: response.headers['content-type'] ?? null, start: response.body.slice(0, 40) },
  }];
}
