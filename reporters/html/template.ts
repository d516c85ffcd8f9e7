/**
 * Escaping by construction for the HTML report: the `html` template tag escapes every value it
 * interpolates unless it is an `Html` built by `html` or `raw` here, so text from the target can
 * only ever become text; `escapeHtml` is the escaping itself.
 * @see docs/reports.md (HTML)
 * @see https://html.spec.whatwg.org/multipage/syntax.html#character-references
 */

/**
 * `text` safe to put in HTML text or a quoted attribute: `& < > " '` as character references,
 * control characters other than tab, newline and carriage return as U+FFFD.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, (char) => ESCAPES[char] ?? '\uFFFD');
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** HTML that is safe to insert as it is: made only by {@link html} (which escapes what it interpolates) or {@link raw}. */
export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

type Fragment = Html | string | number | boolean | null | undefined | readonly Fragment[];

/** A tagged template that escapes every interpolated value unless it is already {@link Html}; arrays are joined. */
export function html(strings: TemplateStringsArray, ...values: Fragment[]): Html {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += fragment(value) + (strings[index + 1] ?? '');
  });
  return new Html(text);
}

function fragment(value: Fragment): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(fragment).join('');
  if (value === null || value === undefined || value === false || value === true) return '';
  return escapeHtml(String(value));
}

// Only for the page's constant stylesheet and script (report.css, report.js), never for data.
/** Text trusted as HTML as it is (the page's own CSS and script, never text from the target). */
export function raw(text: string): Html {
  return new Html(text);
}
