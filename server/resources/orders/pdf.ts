/**
 * A minimal one-page PDF (PDF 1.4, Helvetica, Latin-1 text) for the receipts and invoices the
 * reference serves: small, valid, and readable by any PDF viewer.
 * @see ISO 32000-1 section 7.5 (file structure)
 */

function escapeText(line: string): string {
  // Type 1 standard fonts take single bytes: keep printable Latin-1, escape PDF string delimiters.
  return line.replace(/[^\x20-\x7e\xa0-\xff]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`);
}

/**
 * Renders lines of text on one A4 page.
 * @returns the PDF file's bytes (`%PDF-1.4` ... `%%EOF`)
 */
export function renderPdf(title: string, lines: readonly string[]): Buffer {
  const text = [`BT /F1 16 Tf 50 790 Td 22 TL (${escapeText(title)}) Tj /F1 11 Tf T*`, ...lines.map((line) => `(${escapeText(line)}) Tj T*`), 'ET'].join('\n');
  const stream = Buffer.from(text, 'latin1');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${stream.length} >>\nstream\n${stream.toString('latin1')}\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
