// The pairs PairFinder finds in a stream of exchanges of the bundled operations, each step named:
// a write and its client's read of the record, a record read twice, a list under two shapes, a
// token answer and the introspection of a token it issued; and the streams where they must not be
// found (another record, client, filter or shape; a write between), redacted recordings included.
// Then forget(), the memory bound, credentialOf and changesState.
import { describe, expect, test } from 'vitest';
import { loadSpec } from '../../core/spec/load.js';
import type { PairRelation } from '../../core/types.js';
import { changesState, credentialOf, PairFinder, type OperationExchange } from '../../engine/evidence.js';

const bundled = await loadSpec();
const [ORDER, OTHER_ORDER] = ['0b7f3c1e-5a2d-4c8e-9f10-2b3c4d5e6f70', '0b7f3c1e-5a2d-4c8e-9f10-2b3c4d5e6f71'];
const PRODUCT = '6a1c1b54-0a5c-4a43-9d5e-4e3f0c1d2a11';
const [CUSTOMER, OTHER_CUSTOMER] = ['65b8b1a7-20a6-460d-96d3-860d2989dd9b', '65b8b1a7-20a6-460d-96d3-860d2989dd9c'];
const CLIENT = 'polar_ci_1';
const [ACCESS, REFRESH] = ['polar_at_u_access', 'polar_rt_u_refresh'];

/** How a step is sent and answered. */
interface Sent {
  /** The bearer token (default `admin-token`); null sends no Authorization header. */
  as?: string | null;
  params?: Record<string, string>;
  query?: Record<string, string>;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  status?: number;
  /** The answer's JSON (default `{}`); `undefined` given explicitly answers no JSON. */
  json?: unknown;
}

/** An exchange of a bundled operation, as a client would record it. */
function sent(operationId: string, options: Sent = {}): OperationExchange {
  const operation = bundled.operation(operationId);
  const params = options.params ?? {};
  const query = options.query ?? {};
  const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => params[name] ?? name);
  const search = new URLSearchParams(query).toString();
  const headers: Record<string, string> = {
    ...(options.as === null ? {} : { authorization: `Bearer ${options.as ?? 'admin-token'}` }),
    ...(options.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    ...options.headers,
  };
  const json = 'json' in options ? options.json : {};
  return {
    operation,
    exchange: {
      case: { id: `${operationId}#0`, operationId, pathParams: params, query, headers: {}, role: null },
      operationId,
      request: { method: operation.method, url: `http://127.0.0.1:1${path}${search ? `?${search}` : ''}`, headers, ...(options.form ? { body: new URLSearchParams(options.form).toString() } : {}) },
      response: { status: options.status ?? 200, headers: { 'content-type': 'application/json' }, body: json === undefined ? '' : JSON.stringify(json), ...(json === undefined ? {} : { json }), elapsedMs: 1 },
    },
  };
}

const updateOrder = (id = ORDER, options: Sent = {}) => sent('orders:update', { params: { id }, json: { id }, ...options });
const readOrder = (id = ORDER, options: Sent = {}) => sent('orders:get', { params: { id }, json: { id }, ...options });
const readCustomer = (id = CUSTOMER, options: Sent = {}) => sent('customers:get', { params: { id }, json: { id }, ...options });
const listProducts = (query: Record<string, string>, options: Sent = {}) => sent('products:list', { query, json: { items: [], pagination: { total_count: 0, max_page: 1 } }, ...options });
const issueToken = (client = CLIENT, status = 200) =>
  sent('oauth2:token', { as: null, status, form: { grant_type: 'authorization_code', code: 'polar_ac_x', client_id: client, client_secret: 's' }, json: status === 200 ? { access_token: ACCESS, token_type: 'Bearer', expires_in: 3600, refresh_token: REFRESH } : { error: 'invalid_grant' } });
/** A token answer of CLIENT as a recording with redacted secrets holds it: its access token `access`. */
const redactedToken = (access: string) => sent('oauth2:token', { as: null, form: { grant_type: 'authorization_code', code: '[redacted:CODE]', client_id: CLIENT, client_secret: '[redacted:SECRET]' }, json: { access_token: access, token_type: 'Bearer', expires_in: 3600 } });
const introspect = (token = ACCESS, client = CLIENT, status = 200) => sent('oauth2:introspect', { as: null, status, form: { token, client_id: client, client_secret: 's' }, json: status === 200 ? { active: true } : { error: 'invalid_client' } });

/** A token answer and an introspection whose client authenticates with HTTP Basic (RFC 6749 section 2.3.1), no client_id in the form. */
const basic = (client: string) => ({ authorization: `Basic ${Buffer.from(`${client}:s`).toString('base64')}` });
const basicToken = (client: string) => sent('oauth2:token', { as: null, headers: basic(client), form: { grant_type: 'authorization_code', code: 'polar_ac_x' }, json: { access_token: ACCESS, token_type: 'Bearer', expires_in: 3600 } });
const basicIntrospect = (client: string) => sent('oauth2:introspect', { as: null, headers: basic(client), form: { token: ACCESS }, json: { active: true } });

type Step = [name: string, step: OperationExchange];
type Found = [PairRelation, subject: string, other: string];

/** Feeds the steps in order to `finder`; the pairs found, as [relation, subject's name, other's name]. */
function pairsOf(steps: Step[], finder = new PairFinder()): Found[] {
  const name = (found: OperationExchange) => steps.find(([, s]) => s.exchange === found.exchange && s.operation === found.operation)?.[0] ?? 'an exchange not fed';
  return steps.flatMap(([, s]) => finder.observe(s.operation, s.exchange).map((pair): Found => [pair.relation, name(pair.subject), name(pair.other)]));
}

describe('PairFinder: write_then_read', () => {
  test.each<[string, Step[], Found[]]>([
    ['a write, then its read of the record', [['write', updateOrder()], ['read', readOrder()]], [['write_then_read', 'write', 'read']]],
    ['a benefit update, then the read of its product', [['write', sent('products:update_benefits', { params: { id: PRODUCT }, json: { id: PRODUCT } })], ['read', sent('products:get', { params: { id: PRODUCT }, json: { id: PRODUCT } })]], [['write_then_read', 'write', 'read']]],
    ['a write, a read of another record, then its read', [['write', updateOrder()], ['other', readOrder(OTHER_ORDER)], ['read', readOrder()]], [['write_then_read', 'write', 'read']]],
    ['a write, another client\'s read, then its own', [['write', updateOrder()], ['theirs', readOrder(ORDER, { as: 'reader-token' })], ['read', readOrder()]], [['write_then_read', 'write', 'read']]],
    ['a write, then two reads: the first is its read, the second a repeat', [['write', updateOrder()], ['first', readOrder()], ['second', readOrder()]], [['write_then_read', 'write', 'first'], ['read_then_read', 'second', 'first']]],
    ['a write, then a read of another record', [['write', updateOrder()], ['read', readOrder(OTHER_ORDER)]], []],
    ['a write, then another client\'s read', [['write', updateOrder()], ['read', readOrder(ORDER, { as: 'reader-token' })]], []],
    ['a write, then a read under another API version', [['write', updateOrder()], ['read', readOrder(ORDER, { headers: { 'polar-version': '2026-04' } })]], []],
    ['a write, another write, then the first one\'s read', [['write', updateOrder()], ['another', updateOrder(OTHER_ORDER)], ['read', readOrder()]], []],
    ['a write, another client\'s write, then the read', [['write', updateOrder()], ['another', updateOrder(OTHER_ORDER, { as: 'other-token' })], ['read', readOrder()]], []],
    ['a write, a refused write, then the read', [['write', updateOrder()], ['refused', updateOrder(ORDER, { status: 422 })], ['read', readOrder()]], []],
    ['a refused write, then the read', [['write', updateOrder(ORDER, { status: 422, json: { detail: [] } })], ['read', readOrder()]], []],
    ['a write, then a read of something below the record', [['write', updateOrder()], ['receipt', sent('orders:get_receipt', { params: { id: ORDER }, json: { url: 'https://x' } })]], []],
    ['a write, then a failed read', [['write', updateOrder()], ['read', readOrder(ORDER, { status: 404, json: { error: 'ResourceNotFound' } })]], []],
    ['a write without a path parameter, then a read', [['write', sent('files:create', { status: 201, json: { id: 'f' } })], ['read', readOrder()]], []],
  ])('%s', (_name, steps, expected) => {
    expect(pairsOf(steps)).toEqual(expected);
  });
});

describe('PairFinder: read_then_read', () => {
  test.each<[string, Step[], Found[]]>([
    ['the same record read twice', [['first', readCustomer()], ['second', readCustomer()]], [['read_then_read', 'second', 'first']]],
    ['read three times: each read with the one before', [['first', readCustomer()], ['second', readCustomer()], ['third', readCustomer()]], [['read_then_read', 'second', 'first'], ['read_then_read', 'third', 'second']]],
    ['reads with another record read between', [['first', readCustomer()], ['other', readCustomer(OTHER_CUSTOMER)], ['second', readCustomer()]], [['read_then_read', 'second', 'first']]],
    ['reads with a token request and an introspection between (they change no record)', [['first', readCustomer()], ['token', issueToken()], ['introspection', introspect()], ['second', readCustomer()]], [['token_then_introspection', 'token', 'introspection'], ['read_then_read', 'second', 'first']]],
    ['reads with a write of another record between', [['first', readCustomer()], ['write', updateOrder()], ['second', readCustomer()]], []],
    ['reads with another client\'s write between', [['first', readCustomer()], ['write', updateOrder(ORDER, { as: 'other-token' })], ['second', readCustomer()]], []],
    ['reads with a refused write between', [['first', readCustomer()], ['write', updateOrder(ORDER, { status: 403 })], ['second', readCustomer()]], []],
    ['reads by two clients', [['first', readCustomer()], ['second', readCustomer(CUSTOMER, { as: 'reader-token' })]], []],
    ['reads of two records', [['first', readCustomer()], ['second', readCustomer(OTHER_CUSTOMER)]], []],
    ['reads under other queries', [['first', readCustomer(CUSTOMER, { query: { expand: 'x' } })], ['second', readCustomer()]], []],
    ['a failed first read', [['first', readCustomer(CUSTOMER, { status: 404 })], ['second', readCustomer()]], []],
    ['a failed second read', [['first', readCustomer()], ['second', readCustomer(CUSTOMER, { status: 500 })]], []],
    ['a first read without JSON', [['first', readCustomer(CUSTOMER, { json: undefined })], ['second', readCustomer()]], []],
  ])('%s', (_name, steps, expected) => {
    expect(pairsOf(steps)).toEqual(expected);
  });
});

describe('PairFinder: list_two_shapes', () => {
  const filters = { is_archived: 'false', visibility: 'public' };
  test.each<[string, Step[], Found[]]>([
    ['a list under two page sizes', [['10', listProducts({ limit: '10' })], ['100', listProducts({ limit: '100' })]], [['list_two_shapes', '100', '10']]],
    ['a list on two pages', [['page 1', listProducts({ page: '1', limit: '10' })], ['page 2', listProducts({ page: '2', limit: '10' })]], [['list_two_shapes', 'page 2', 'page 1']]],
    ['a list in two sort orders', [['name', listProducts({ sorting: 'name' })], ['-name', listProducts({ sorting: '-name' })]], [['list_two_shapes', '-name', 'name']]],
    ['a bare list, then page=1&limit=10', [['bare', listProducts({})], ['explicit', listProducts({ page: '1', limit: '10' })]], [['list_two_shapes', 'explicit', 'bare']]],
    ['the same filters given in another order', [['10', listProducts({ ...filters, limit: '10' })], ['100', listProducts({ limit: '100', visibility: 'public', is_archived: 'false' })]], [['list_two_shapes', '100', '10']]],
    ['a third shape, with the last one (totals that agree pair by pair agree all along)', [['10', listProducts({ limit: '10' })], ['20', listProducts({ limit: '20' })], ['100', listProducts({ limit: '100' })]], [['list_two_shapes', '20', '10'], ['list_two_shapes', '100', '20']]],
    ['a shape after a bare list and another shape, with both', [['bare', listProducts({})], ['20', listProducts({ limit: '20' })], ['explicit', listProducts({ page: '1', limit: '10' })]], [['list_two_shapes', '20', 'bare'], ['list_two_shapes', 'explicit', '20'], ['list_two_shapes', 'explicit', 'bare']]],
    ['a shape asked again, with the other shape only', [['10', listProducts({ limit: '10' })], ['100', listProducts({ limit: '100' })], ['10 again', listProducts({ limit: '10' })]], [['list_two_shapes', '100', '10'], ['list_two_shapes', '10 again', '100']]],
    ['a list asked twice in one shape', [['first', listProducts({ limit: '10' })], ['second', listProducts({ limit: '10' })]], []],
    ['lists under other filters', [['10', listProducts({ is_archived: 'true', limit: '10' })], ['100', listProducts({ is_archived: 'false', limit: '100' })]], []],
    ['a filter on one side only', [['10', listProducts({ limit: '10' })], ['100', listProducts({ is_archived: 'false', limit: '100' })]], []],
    ['the payment methods of two customers', [['10', sent('customers:list_payment_methods', { params: { id: CUSTOMER }, query: { limit: '10' } })], ['100', sent('customers:list_payment_methods', { params: { id: OTHER_CUSTOMER }, query: { limit: '100' } })]], []],
    ['two lists of one query', [['products', listProducts({ limit: '10' })], ['subscriptions', sent('subscriptions:list', { query: { limit: '100' } })]], []],
    ['two clients\' lists', [['10', listProducts({ limit: '10' })], ['100', listProducts({ limit: '100' }, { as: 'reader-token' })]], []],
    ['lists with a write between', [['10', listProducts({ limit: '10' })], ['write', updateOrder()], ['100', listProducts({ limit: '100' })]], []],
    ['a refused list', [['10', listProducts({ limit: '10' })], ['1000', listProducts({ limit: '1000' }, { status: 422, json: { detail: [] } })]], []],
  ])('%s', (_name, steps, expected) => {
    expect(pairsOf(steps)).toEqual(expected);
  });
});

describe('PairFinder.recall: a list\'s last answers taken from another finder (a judging thread of a pool)', () => {
  const name = (finder: PairFinder, step: OperationExchange, names: Map<object, string>) => finder.observe(step.operation, step.exchange).map((pair) => [pair.relation, names.get(pair.subject.exchange), names.get(pair.other.exchange)]);

  test('the next answer of the list pairs with the answers recalled, as with answers seen here', () => {
    const [bare, ten, hundred] = [listProducts({}), listProducts({ limit: '10' }), listProducts({ limit: '100' })];
    const names = new Map<object, string>([[bare.exchange, 'bare'], [ten.exchange, '10'], [hundred.exchange, '100']]);
    const finder = new PairFinder();
    finder.recall(bare.operation, bare.exchange, true);
    finder.recall(ten.operation, ten.exchange, false);
    expect(name(finder, hundred, names)).toEqual([['list_two_shapes', '100', '10'], ['list_two_shapes', '100', 'bare']]);
  });

  test('replace forgets what the finder kept of the list, which another finder has seen past', () => {
    const [old, ten, hundred] = [listProducts({ limit: '20' }), listProducts({ limit: '10' }), listProducts({ limit: '100' })];
    const names = new Map<object, string>([[old.exchange, 'old'], [ten.exchange, '10'], [hundred.exchange, '100']]);
    const finder = new PairFinder();
    finder.observe(old.operation, old.exchange);
    finder.recall(ten.operation, ten.exchange, true);
    expect(name(finder, hundred, names)).toEqual([['list_two_shapes', '100', '10']]);
  });

  test('a refused answer, a read of a record and another client\'s list are not taken', () => {
    const refused = listProducts({ limit: '1000' }, { status: 422, json: { detail: [] } });
    const theirs = listProducts({ limit: '10' }, { as: 'reader-token' });
    const record = readOrder();
    const hundred = listProducts({ limit: '100' });
    const finder = new PairFinder();
    for (const step of [refused, theirs, record]) finder.recall(step.operation, step.exchange, false);
    expect(finder.observe(hundred.operation, hundred.exchange)).toEqual([]);
  });
});

describe('PairFinder: token_then_introspection', () => {
  test.each<[string, Step[], Found[]]>([
    ['a token answer, then the introspection of its access token', [['token', issueToken()], ['introspection', introspect()]], [['token_then_introspection', 'token', 'introspection']]],
    ['a token answer, then the introspection of its refresh token', [['token', issueToken()], ['introspection', introspect(REFRESH)]], [['token_then_introspection', 'token', 'introspection']]],
    ['two introspections of the token, each with the token answer', [['token', issueToken()], ['first', introspect()], ['second', introspect(REFRESH)]], [['token_then_introspection', 'token', 'first'], ['token_then_introspection', 'token', 'second']]],
    ['the token survives writes between', [['token', issueToken()], ['write', updateOrder()], ['introspection', introspect()]], [['token_then_introspection', 'token', 'introspection']]],
    ['another client\'s introspection of the token', [['token', issueToken()], ['introspection', introspect(ACCESS, 'polar_ci_other')]], []],
    ['clients that authenticate with HTTP Basic: the same client pairs', [['token', basicToken('polar_ci_a')], ['introspection', basicIntrospect('polar_ci_a')]], [['token_then_introspection', 'token', 'introspection']]],
    ['clients that authenticate with HTTP Basic: another client does not pair', [['token', basicToken('polar_ci_a')], ['introspection', basicIntrospect('polar_ci_b')]], []],
    ['the introspection of another token', [['token', issueToken()], ['introspection', introspect('polar_at_u_other')]], []],
    ['a refused introspection', [['token', issueToken()], ['introspection', introspect(ACCESS, CLIENT, 401)]], []],
    ['a refused token request', [['token', issueToken(CLIENT, 400)], ['introspection', introspect()]], []],
    ['an introspection before any token answer', [['introspection', introspect()], ['token', issueToken()]], []],
    // A recording with its secrets redacted: the answer's token is its placeholder padded with x, the request's the placeholder alone.
    ['a redacted token answer, then the introspection of its placeholder', [['token', redactedToken('[redacted:ACCESS_1]xxxxxxxx')], ['introspection', introspect('[redacted:ACCESS_1]')]], [['token_then_introspection', 'token', 'introspection']]],
    ['a redacted token answer, then the introspection of another placeholder', [['token', redactedToken('[redacted:ACCESS_1]xxxxxxxx')], ['introspection', introspect('[redacted:ACCESS_2]')]], []],
    ['a token answer masked with x alone (no placeholder fits), then an introspection of a placeholder', [['token', redactedToken('xxxxxxxxxxxxxxxx')], ['introspection', introspect('[redacted:ACCESS_1]')]], []],
  ])('%s', (_name, steps, expected) => {
    expect(pairsOf(steps)).toEqual(expected);
  });
});

describe('PairFinder: forget and memory', () => {
  test('forget() drops the write awaiting its read, the reads and the lists; the tokens stay', () => {
    const finder = new PairFinder();
    expect(pairsOf([['write', updateOrder()], ['read', readCustomer()], ['10', listProducts({ limit: '10' })], ['token', issueToken()]], finder)).toEqual([]);
    finder.forget();
    const after: Step[] = [['read back', readOrder()], ['read again', readCustomer()], ['100', listProducts({ limit: '100' })], ['introspection', introspect()]];
    expect(pairsOf(after, finder).map(([relation]) => relation)).toEqual(['token_then_introspection']);
  });

  test('what was seen after forget() pairs as before', () => {
    const finder = new PairFinder();
    pairsOf([['read', readCustomer()]], finder);
    finder.forget();
    expect(pairsOf([['first', readCustomer()], ['second', readCustomer()]], finder)).toEqual([['read_then_read', 'second', 'first']]);
  });

  test('reads are remembered up to 512 records, the oldest let go first', () => {
    const finder = new PairFinder();
    const customer = (i: number) => readCustomer(`c-${i}`);
    for (let i = 1; i <= 513; i++) expect(finder.observe(customer(i).operation, customer(i).exchange)).toEqual([]);
    const second = customer(2);
    expect(finder.observe(second.operation, second.exchange).map((pair) => pair.relation)).toEqual(['read_then_read']);
    const first = customer(1);
    expect(finder.observe(first.operation, first.exchange)).toEqual([]);
  });

  test('a list keeps its last answer and its last bare one, nothing older', () => {
    const finder = new PairFinder();
    const othersOf = (query: Record<string, string>) => {
      const list = listProducts(query);
      return finder.observe(list.operation, list.exchange).map((pair) => pair.other.exchange.case.query.limit ?? 'bare');
    };
    othersOf({});
    for (const limit of [1, 2, 3, 4]) othersOf({ limit: String(limit) });
    expect(othersOf({ limit: '5' })).toEqual(['4', 'bare']);
    expect(othersOf({ limit: '6' })).toEqual(['5', 'bare']);
  });
});

describe('credentialOf', () => {
  test.each<[string, Record<string, string>, string | undefined]>([
    ['a bearer token', { authorization: 'Bearer polar_oat_x' }, 'polar_oat_x'],
    ['a bearer token, the scheme in lower case', { authorization: 'bearer polar_oat_x' }, 'polar_oat_x'],
    ['basic credentials', { authorization: 'Basic Y2xpZW50OnNlY3JldA==' }, 'Y2xpZW50OnNlY3JldA=='],
    ['another scheme, kept whole', { authorization: 'Token abc' }, 'Token abc'],
    ['an X-API-Key header', { 'x-api-key': 'key-1' }, 'key-1'],
    ['an Api-Key header', { 'api-key': 'key-2' }, 'key-2'],
    ['the Authorization header before an API key', { authorization: 'Bearer t', 'x-api-key': 'key-1' }, 't'],
    ['a blank Authorization header, then an API key', { authorization: '  ', 'x-api-key': 'key-1' }, 'key-1'],
    ['no credential', { accept: 'application/json' }, undefined],
  ])('%s', (_name, headers, expected) => {
    expect(credentialOf({ headers })).toBe(expected);
  });
});

describe('changesState', () => {
  test.each<[string, string | undefined, boolean]>([
    ['GET', 'products:list', false],
    ['get', 'products:get', false],
    ['HEAD', 'products:list', false],
    ['OPTIONS', undefined, false],
    ['PATCH', 'orders:update', true],
    ['POST', 'products:update_benefits', true],
    ['POST', 'files:create', true],
    ['DELETE', 'customers:delete_external', true],
    ['POST', 'oauth2:token', false],
    ['POST', 'oauth2:introspect', false],
    ['PUT', undefined, true],
    ['POST', undefined, true],
  ])('%s on %s: %s', (method, operationId, expected) => {
    expect(changesState(method, operationId === undefined ? undefined : bundled.operation(operationId))).toBe(expected);
  });
});
