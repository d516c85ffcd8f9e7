// The "Not API traffic" section of an observed report's HTML: the count by reason and the
// exchanges listed, collapsed, every string escaped; no section for a run or for traffic that was
// all the API's.
import { describe, expect, test } from 'vitest';
import { renderHtml } from '../../../reporters/html/report.js';
import { renderNotApiTraffic } from '../../../reporters/html/not-api-traffic.js';
import { cell, INFO, notApiTraffic } from '../fixtures/cells.js';

/** The section's markup, or '' for none. */
function section(...args: Parameters<typeof renderNotApiTraffic>): string {
  const rendered = renderNotApiTraffic(...args);
  return rendered === '' ? '' : rendered.text;
}

describe('renderNotApiTraffic', () => {
  test('the headline, then the first exchanges listed and how many more were counted', () => {
    const text = section(notApiTraffic(25));
    expect(text).toContain('<h2 id="not-api-traffic-title">Not API traffic</h2>');
    expect(text).toContain('25 exchanges, not judged: 19 a browser&#39;s page, script, style, image or font, 6 another origin than the API&#39;s.');
    expect(text).toContain('<summary>20 exchanges listed, 5 more counted</summary>');
    expect(text).toContain('<li><span class="muted">#1</span> <code>GET http://127.0.0.1:4010/</code>: a browser&#39;s document request (Sec-Fetch-Dest: document)</li>');
    expect(text.match(/<li>/g)).toHaveLength(20);
  });

  test('a URL or a reason the traffic chose is text, never markup', () => {
    const traffic = notApiTraffic(1);
    traffic.listed[0]!.url = 'http://127.0.0.1:4010/<script>alert(1)</script>';
    expect(section(traffic)).toContain('<code>GET http://127.0.0.1:4010/&lt;script&gt;alert(1)&lt;/script&gt;</code>');
  });

  test.each([
    ['a run\'s results (none)', undefined],
    ['traffic that was all the API\'s', notApiTraffic(0)],
  ])('nothing for %s', (_name, traffic) => {
    expect(section(traffic)).toBe('');
  });

  test('in the page: after the accepted deviations, before the skipped cells, with a link in the header', () => {
    const page = renderHtml({ cells: [cell('products:list', 'status_code_conformance')], errors: [], notApiTraffic: notApiTraffic(3) }, INFO);
    expect(page).toContain('<a href="#not-api-traffic">Not API traffic</a>');
    expect(page.indexOf('id="not-api-traffic"')).toBeLessThan(page.indexOf('id="skipped"'));
    expect(renderHtml({ cells: [cell('products:list', 'status_code_conformance')], errors: [] }, INFO)).not.toContain('not-api-traffic');
  });
});
