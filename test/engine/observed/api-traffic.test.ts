// Which observed exchanges are the API's traffic: a browser's own requests (its document, scripts,
// styles, images, fonts), CORS preflights, calls to other origins, paths outside the API's base
// paths that are not JSON calls and, as a last resort, pages and static files answered to requests
// that did not ask for JSON are set aside; every other request is judged, and one that matches no
// operation stays an `undocumented_operation` finding. Never an API call set aside: a request that
// matches an operation on the API's origin is always judged.
import { beforeAll, describe, expect, test } from 'vitest';
import { API_VERSIONS, loadSpec, specPath, type LoadedSpec } from '../../../core/spec/load.js';
import type { HttpResponse } from '../../../core/types.js';
import { apiOriginsOf, apiScope, browserRequest, classifyExchange, MAX_LISTED, TrafficSorter, type ApiScope, type TrafficClass } from '../../../engine/observed/api-traffic.js';
import type { ObservedExchange } from '../../../engine/observed/exchange.js';
import { ObservedJudge } from '../../../engine/observed/judge.js';

const API = 'http://127.0.0.1:4010';
const AT_ROOT: ApiScope = { origins: [API], basePaths: [] };
const UNDER_API: ApiScope = { origins: [API], basePaths: ['/api'] };
const UNKNOWN_ORIGIN: ApiScope = { basePaths: [] };

function answer(status: number, contentType: string, body = ''): HttpResponse {
  return { status, headers: { 'content-type': contentType }, body, elapsedMs: 1 };
}

function exchange(method: string, url: string, headers: Record<string, string> = {}, response: HttpResponse | undefined = answer(200, 'application/json', '{}'), resourceType?: string): ObservedExchange {
  return { request: { method, url, headers }, ...(response ? { response } : {}), ...(resourceType ? { resourceType } : {}) };
}

/** What Chromium sends with a script's fetch: its destination is empty, its mode cors or same-origin. */
const FETCH = { 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'same-origin', 'sec-fetch-site': 'same-origin' };
const JSON_FETCH = { ...FETCH, accept: 'application/json' };
/** What Chromium sends when it loads a page. */
const NAVIGATION = { 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'none', accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
/** What Node's own fetch (undici) sends: a mode, no destination. */
const NODE_FETCH = { accept: '*/*', 'sec-fetch-mode': 'cors', 'user-agent': 'node' };

const API_TRAFFIC: TrafficClass = { api: true };

describe('classifyExchange', () => {
  test.each<[string, { given: [ObservedExchange, ApiScope, boolean]; want: TrafficClass }]>([
    // Passing: the API's traffic, judged.
    ['an API GET without Sec-Fetch headers from a non-browser client', { given: [exchange('GET', `${API}/v1/products/?limit=5`, { authorization: 'Bearer t' }), AT_ROOT, true], want: API_TRAFFIC }],
    ['a request without any header that matches no operation (curl): undocumented, still judged', { given: [exchange('GET', `${API}/v1/unknown`, {}, answer(404, 'application/json')), AT_ROOT, false], want: API_TRAFFIC }],
    ['a page\'s fetch (Sec-Fetch-Dest: empty) to /v1/...', { given: [exchange('GET', `${API}/v1/subscriptions/`, JSON_FETCH), AT_ROOT, true], want: API_TRAFFIC }],
    ['fetch(\'/v1/unknown\') with Accept JSON and Sec-Fetch-Dest: empty, answered by an HTML 404 page', { given: [exchange('GET', `${API}/v1/unknown`, JSON_FETCH, answer(404, 'text/html', '<h1>Not found</h1>')), AT_ROOT, false], want: API_TRAFFIC }],
    ['a fetch a page made that matches nothing, answered 200 HTML: it says it is a call (Sec-Fetch-Dest: empty)', { given: [exchange('GET', `${API}/v1/unknown`, FETCH, answer(200, 'text/html')), AT_ROOT, false], want: API_TRAFFIC }],
    ['a Playwright HAR\'s fetch (_resourceType fetch, Accept */*) that matches nothing, answered 200 HTML', { given: [exchange('GET', `${API}/v1/unknown`, { accept: '*/*' }, answer(200, 'text/html'), 'fetch'), AT_ROOT, false], want: API_TRAFFIC }],
    ['Node\'s fetch (Sec-Fetch-Mode: cors, no destination) that matches nothing, answered an HTML 404', { given: [exchange('GET', `${API}/v1/unknown`, NODE_FETCH, answer(404, 'text/html')), AT_ROOT, false], want: API_TRAFFIC }],
    ['a navigation to a path of an operation (someone opened the API in a tab): judged', { given: [exchange('GET', `${API}/v1/products/`, NAVIGATION, answer(401, 'application/json')), AT_ROOT, true], want: API_TRAFFIC }],
    ['origin unknown: a request anywhere that matches nothing and answered JSON', { given: [exchange('GET', 'https://elsewhere.example/things', {}), UNKNOWN_ORIGIN, false], want: API_TRAFFIC }],
    ['outside the base path but a JSON call: undocumented, still judged', { given: [exchange('POST', `${API}/v2/orders`, { 'content-type': 'application/json' }, answer(404, 'application/json')), UNDER_API, false], want: API_TRAFFIC }],
    ['under the base path, without headers, answered a static file with an error status', { given: [exchange('GET', `${API}/api/logo.png`, {}, answer(404, 'text/html')), UNDER_API, false], want: API_TRAFFIC }],
    ['a request that never got an answer, without headers', { given: [exchange('GET', `${API}/v1/unknown`, {}, undefined), AT_ROOT, false], want: API_TRAFFIC }],
    // Failing: not the API's, set aside.
    ['the page\'s document at /', { given: [exchange('GET', `${API}/`, NAVIGATION, answer(200, 'text/html')), AT_ROOT, false], want: { api: false, reason: 'browser_resource', why: "a browser's document request (Sec-Fetch-Dest: document)" } }],
    ['a favicon.ico', { given: [exchange('GET', `${API}/favicon.ico`, { 'sec-fetch-dest': 'image', 'sec-fetch-mode': 'no-cors' }, answer(404, 'application/json')), AT_ROOT, false], want: { api: false, reason: 'browser_resource', why: "a browser's image request (Sec-Fetch-Dest: image)" } }],
    ['a script', { given: [exchange('GET', `${API}/app.js`, { 'sec-fetch-dest': 'script' }, answer(200, 'text/javascript')), AT_ROOT, false], want: { api: false, reason: 'browser_resource', why: "a browser's script request (Sec-Fetch-Dest: script)" } }],
    ['a CSS file in a Playwright HAR (no Sec-Fetch headers, _resourceType stylesheet)', { given: [exchange('GET', `${API}/style.css`, { accept: '*/*' }, answer(200, 'text/css'), 'stylesheet'), AT_ROOT, false], want: { api: false, reason: 'browser_resource', why: "a browser's stylesheet request (HAR _resourceType: stylesheet)" } }],
    ['a font', { given: [exchange('GET', `${API}/fonts/inter.woff2`, { 'sec-fetch-dest': 'font', origin: API }, answer(200, 'font/woff2')), AT_ROOT, false], want: { api: false, reason: 'browser_resource', why: "a browser's font request (Sec-Fetch-Dest: font)" } }],
    ['a CSP violation report', { given: [exchange('POST', `${API}/csp-report`, { 'sec-fetch-dest': 'report', 'content-type': 'application/csp-report' }, answer(204, 'text/plain')), AT_ROOT, false], want: { api: false, reason: 'browser_resource', why: "a browser's report request (Sec-Fetch-Dest: report)" } }],
    ['a navigation known by its mode alone', { given: [exchange('GET', `${API}/settings`, { 'sec-fetch-mode': 'navigate' }, answer(200, 'text/html')), AT_ROOT, false], want: { api: false, reason: 'browser_resource', why: "a browser's navigation (Sec-Fetch-Mode: navigate)" } }],
    ['a navigation of an older browser, known by its Accept', { given: [exchange('GET', `${API}/dashboard`, { accept: 'text/html,application/xhtml+xml;q=0.9' }, answer(200, 'text/html')), AT_ROOT, false], want: { api: false, reason: 'browser_resource', why: "a browser's navigation request (Accept: text/html first)" } }],
    ['an image of an older browser, known by its Accept', { given: [exchange('GET', `${API}/logo.png`, { accept: 'image/avif,image/webp,*/*' }, answer(200, 'image/png')), AT_ROOT, false], want: { api: false, reason: 'browser_resource', why: "a browser's image request (Accept: image/avif first)" } }],
    ['a call to another origin (analytics)', { given: [exchange('POST', 'https://analytics.example.net/collect', FETCH, answer(204, 'text/plain')), AT_ROOT, false], want: { api: false, reason: 'other_origin', why: `another origin than the API's (${API})` } }],
    ['another origin\'s path that looks like an operation\'s (another billing API\'s /v1/customers/{id})', { given: [exchange('GET', 'https://api.payments.example/v1/customers/cus_1', JSON_FETCH), AT_ROOT, true], want: { api: false, reason: 'other_origin', why: `another origin than the API's (${API})` } }],
    ['a CORS preflight', { given: [exchange('OPTIONS', `${API}/v1/products/`, { 'access-control-request-method': 'GET', 'sec-fetch-mode': 'cors' }, answer(204, 'text/plain')), AT_ROOT, false], want: { api: false, reason: 'cors_preflight', why: "a browser's CORS preflight (OPTIONS with Access-Control-Request-Method: GET)" } }],
    ['a path outside the base path that is no JSON call', { given: [exchange('GET', `${API}/robots.txt`, {}, answer(200, 'text/plain')), UNDER_API, false], want: { api: false, reason: 'outside_base_path', why: "outside the API's base path (/api) and not a JSON call" } }],
    ['a static file answered to a request that said nothing of itself (the last resort)', { given: [exchange('GET', `${API}/logo.svg`, {}, answer(200, 'image/svg+xml; charset=utf-8')), AT_ROOT, false], want: { api: false, reason: 'static_answer', why: 'answered 200 image/svg+xml, a page or a static file, to a request that did not ask for JSON' } }],
  ])('%s', (_name, { given, want }) => {
    expect(classifyExchange(...given)).toEqual(want);
  });
});

describe('browserRequest', () => {
  test.each<[string, ObservedExchange, string | undefined]>([
    ['a fetch says nothing of a browser\'s own request', exchange('GET', `${API}/v1/products/`, JSON_FETCH), undefined],
    ['a non-browser client says nothing either', exchange('GET', `${API}/v1/products/`, NODE_FETCH), undefined],
    ['an XHR of a Chromium HAR', exchange('GET', `${API}/v1/products/`, {}, undefined, 'xhr'), undefined],
    ['a document of a Chromium HAR', exchange('GET', `${API}/`, {}, undefined, 'document'), 'browser_resource'],
    ['a Sec-Fetch-Dest in capitals', exchange('GET', `${API}/a.js`, { 'sec-fetch-dest': 'Script' }), 'browser_resource'],
  ])('%s', (_name, given, reason) => {
    expect(browserRequest(given)?.reason).toBe(reason);
  });
});

describe('apiScope', () => {
  test('the given base paths and the servers\' paths, root ones left out; origins only when given', () => {
    const document = { servers: [{ url: 'https://api.example.com/api/' }, { url: '{base}', variables: { base: { default: 'https://sandbox.example.com' } } }] };
    expect(apiScope([{ document } as Pick<LoadedSpec, 'document'>], { basePaths: ['/', '/sandbox/'] })).toEqual({ basePaths: ['/sandbox', '/api'] });
    expect(apiScope([{ document: {} } as Pick<LoadedSpec, 'document'>], { origins: [API, API] })).toEqual({ origins: [API], basePaths: [] });
  });
});

describe('apiOriginsOf', () => {
  let specs: LoadedSpec[];
  beforeAll(async () => {
    specs = await Promise.all(API_VERSIONS.map((v) => loadSpec(specPath(v))));
  });

  test('every origin where a request that is not a browser\'s own matches an operation, in order of first sight', () => {
    const traffic = [
      exchange('GET', 'https://app.example.com/', NAVIGATION, answer(200, 'text/html')),
      // The app's page at a path of an operation is a navigation: it does not make the app's origin the API's.
      exchange('GET', 'https://app.example.com/v1/products/', NAVIGATION, answer(200, 'text/html')),
      exchange('GET', 'https://app.example.com/api/session', JSON_FETCH),
      exchange('GET', 'https://sandbox.example.com/v1/products/', JSON_FETCH),
      exchange('GET', 'https://production.example.com/v1/orders/abc', {}),
      exchange('GET', 'https://sandbox.example.com/v1/refunds/', JSON_FETCH),
    ];
    expect(apiOriginsOf(traffic, specs)).toEqual(['https://sandbox.example.com', 'https://production.example.com']);
  });

  test('no request matches an operation: unknown (undefined), so no request is set aside for its origin', () => {
    expect(apiOriginsOf([exchange('GET', 'https://api.github.com/users/octo')], specs)).toBeUndefined();
  });
});

describe('TrafficSorter', () => {
  test('counts by reason, lists the first ones without their query, and judges nothing it sets aside', () => {
    const sorter = new TrafficSorter(AT_ROOT);
    expect(sorter.setAside(exchange('GET', `${API}/v1/products/`, JSON_FETCH), 1, true)).toBeUndefined();
    expect(sorter.setAside(exchange('GET', `${API}/`, NAVIGATION), 2, false)).toBe("a browser's document request (Sec-Fetch-Dest: document)");
    expect(sorter.setAside(exchange('GET', 'https://cdn.example.net/img.png?signature=secret', { 'sec-fetch-dest': 'image' }), 3, false)).toBe(`another origin than the API's (${API})`);
    expect(sorter.summary()).toEqual({
      count: 2,
      byReason: { browser_resource: 1, other_origin: 1 },
      listed: [
        { exchange: 2, method: 'GET', url: `${API}/`, reason: 'browser_resource', why: "a browser's document request (Sec-Fetch-Dest: document)" },
        { exchange: 3, method: 'GET', url: 'https://cdn.example.net/img.png?…', reason: 'other_origin', why: `another origin than the API's (${API})` },
      ],
    });
  });

  test(`bounded: every one counted, the first ${MAX_LISTED} listed; absorbing another keeps the first in traffic order`, () => {
    const odd = new TrafficSorter(AT_ROOT);
    const even = new TrafficSorter(AT_ROOT);
    for (let n = 1; n <= 50; n++) (n % 2 ? odd : even).setAside(exchange('GET', `${API}/asset-${n}.js`, { 'sec-fetch-dest': 'script' }), n, false);
    odd.absorb(even.state());
    const summary = odd.summary();
    expect(summary.count).toBe(50);
    expect(summary.byReason).toEqual({ browser_resource: 50 });
    expect(summary.listed.map((e) => e.exchange)).toEqual(Array.from({ length: MAX_LISTED }, (_, i) => i + 1));
  });

  test('a URL too long to list is cut in the middle', () => {
    const sorter = new TrafficSorter(AT_ROOT);
    sorter.setAside(exchange('GET', `${API}/${'a'.repeat(300)}/end.css`, { 'sec-fetch-dest': 'style' }), 1, false);
    const { url } = sorter.summary().listed[0]!;
    expect(url.length).toBe(160);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:4010\/a+…a+\/end\.css$/);
  });
});

describe('ObservedJudge: traffic that is not the API\'s', () => {
  let specs: LoadedSpec[];
  beforeAll(async () => {
    specs = await Promise.all(API_VERSIONS.map((v) => loadSpec(specPath(v))));
  });

  const products = JSON.stringify({ items: [], pagination: { total_count: 0, max_page: 0 } });
  const traffic = (): ObservedExchange[] => [
    exchange('GET', `${API}/`, NAVIGATION, answer(200, 'text/html', '<!doctype html>')),
    exchange('GET', `${API}/app.js`, { 'sec-fetch-dest': 'script' }, answer(200, 'text/javascript', '')),
    exchange('GET', `${API}/v1/products/`, { ...JSON_FETCH, authorization: 'Bearer t', 'polar-version': '2026-10' }, { status: 200, headers: { 'content-type': 'application/json', 'polar-version': '2026-10' }, body: products, json: JSON.parse(products), elapsedMs: 1 }),
    exchange('GET', `${API}/v1/unknown`, JSON_FETCH, answer(404, 'application/json', '{"detail":"Not Found"}')),
    exchange('GET', 'https://fonts.example.net/inter.woff2', { 'sec-fetch-dest': 'font' }, answer(200, 'font/woff2')),
  ];

  test('set aside: no verdict but why, no cell, counted and listed in the results; the API\'s requests judged, an unknown call still undocumented', () => {
    const judge = new ObservedJudge({ specs, origins: [API] });
    const verdicts = traffic().map((e) => judge.judge(e));
    expect(verdicts.map((v) => v.notApiTraffic)).toEqual([
      "a browser's document request (Sec-Fetch-Dest: document)",
      "a browser's script request (Sec-Fetch-Dest: script)",
      undefined,
      undefined,
      `another origin than the API's (${API})`,
    ]);
    expect(verdicts[2]).toMatchObject({ operationId: 'products:list', failures: [] });
    expect(verdicts[3]!.failures.map((f) => f.kind)).toEqual(['undocumented_operation']);
    const results = judge.results();
    expect(results.cells.filter((c) => c.status === 'failed').map((c) => c.operationId)).toEqual(['GET /v1/unknown']);
    expect(results.cells.some((c) => /app\.js|inter\.woff2|^GET \/$/.test(c.operationId))).toBe(false);
    expect(results.notApiTraffic).toEqual({
      count: 3,
      byReason: { browser_resource: 2, other_origin: 1 },
      listed: [
        { exchange: 1, method: 'GET', url: `${API}/`, reason: 'browser_resource', why: "a browser's document request (Sec-Fetch-Dest: document)" },
        { exchange: 2, method: 'GET', url: `${API}/app.js`, reason: 'browser_resource', why: "a browser's script request (Sec-Fetch-Dest: script)" },
        { exchange: 5, method: 'GET', url: 'https://fonts.example.net/inter.woff2', reason: 'other_origin', why: `another origin than the API's (${API})` },
      ],
    });
  });

  test('judges that split the traffic give, absorbed, the results of one judge', () => {
    const one = new ObservedJudge({ specs, origins: [API] });
    traffic().forEach((e, i) => one.judge(e, i + 1));
    const [first, second] = [new ObservedJudge({ specs, origins: [API] }), new ObservedJudge({ specs, origins: [API] })];
    traffic().forEach((e, i) => (i % 2 ? first : second).judge(e, i + 1));
    const whole = new ObservedJudge({ specs, origins: [API] });
    whole.absorb(first.state());
    whole.absorb(second.state());
    expect(whole.results().notApiTraffic).toEqual(one.results().notApiTraffic);
  });
});
