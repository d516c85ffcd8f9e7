import { beforeAll, describe, expect, it } from 'vitest';
import type { Parameter } from '../../core/spec/load.js';
import { compileQueryParser, parseQueryString } from '../../server/validation.js';
import { expectConforms, testServer, type TestServer } from './support.js';

let server: TestServer;

beforeAll(async () => {
  server = await testServer();
});

const SORTING_EXPECTED = "'created_at', '-created_at', 'name', '-name', 'price_amount_type', '-price_amount_type', 'price_amount' or '-price_amount'";

describe('422 bodies of products:list', () => {
  it.each<[string, string, unknown[]]>([
    ['limit=abc', 'limit=abc', [{ loc: ['query', 'limit'], msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing', input: 'abc' }]],
    ['limit=1.5', 'limit=1.5', [{ loc: ['query', 'limit'], msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing', input: '1.5' }]],
    ['limit= (empty)', 'limit=', [{ loc: ['query', 'limit'], msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing', input: '' }]],
    ['page=0', 'page=0', [{ loc: ['query', 'page'], msg: 'Input should be greater than or equal to 1', type: 'greater_than_equal', input: '0', ctx: { ge: 1 } }]],
    ['page=-1', 'page=-1', [{ loc: ['query', 'page'], msg: 'Input should be greater than or equal to 1', type: 'greater_than_equal', input: '-1', ctx: { ge: 1 } }]],
    ['limit=0', 'limit=0', [{ loc: ['query', 'limit'], msg: 'Input should be greater than or equal to 1', type: 'greater_than_equal', input: '0', ctx: { ge: 1 } }]],
    ['limit=101', 'limit=101', [{ loc: ['query', 'limit'], msg: 'Input should be less than or equal to 100', type: 'less_than_equal', input: '101', ctx: { le: 100 } }]],
    ['an unknown sorting value', 'sorting=colour', [{ loc: ['query', 'sorting', 0], msg: `Input should be ${SORTING_EXPECTED}`, type: 'enum', input: 'colour', ctx: { expected: SORTING_EXPECTED } }]],
    ['the second sorting value unknown', 'sorting=name&sorting=-colour', [{ loc: ['query', 'sorting', 1], msg: `Input should be ${SORTING_EXPECTED}`, type: 'enum', input: '-colour', ctx: { expected: SORTING_EXPECTED } }]],
    ['metadata[a][b]=x', 'metadata%5Ba%5D%5Bb%5D=x', [{ loc: ['query', 'metadata'], msg: 'Input should be a deepObject: metadata[key]=value with a key without brackets', type: 'dict_type', input: { 'metadata[a][b]': 'x' } }]],
    ['metadata=x', 'metadata=x', [{ loc: ['query', 'metadata'], msg: 'Input should be a deepObject: metadata[key]=value with a key without brackets', type: 'dict_type', input: { metadata: 'x' } }]],
    ['metadata[]=x', 'metadata[]=x', [{ loc: ['query', 'metadata'], msg: 'Input should be a deepObject: metadata[key]=value with a key without brackets', type: 'dict_type', input: { 'metadata[]': 'x' } }]],
    ['is_archived=yes', 'is_archived=yes', [{ loc: ['query', 'is_archived'], msg: 'Input should be a valid boolean, unable to interpret input', type: 'bool_parsing', input: 'yes' }]],
    ['visibility=hidden', 'visibility=hidden', [{ loc: ['query', 'visibility', 0], msg: "Input should be 'draft', 'private' or 'public'", type: 'enum', input: 'hidden', ctx: { expected: "'draft', 'private' or 'public'" } }]],
    ['id=42', 'id=42', [{ loc: ['query', 'id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing', input: '42' }]],
    ['a repeated id with a bad second value', 'id=8b7c1b56-a5a6-4bd5-9b53-0c7e7a6d3a30&id=nope', [{ loc: ['query', 'id', 1], msg: 'Input should be a valid UUID', type: 'uuid_parsing', input: 'nope' }]],
    [
      'several errors, in parameter order',
      'limit=abc&page=0',
      [
        { loc: ['query', 'page'], msg: 'Input should be greater than or equal to 1', type: 'greater_than_equal', input: '0', ctx: { ge: 1 } },
        { loc: ['query', 'limit'], msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing', input: 'abc' },
      ],
    ],
  ])('%s', async (_name, query, detail) => {
    const response = await server.app.inject({ url: `/v1/products/?${query}`, headers: { authorization: `Bearer ${server.tokens.admin}` } });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail });
    expectConforms(server, 'products:list', response);
  });
});

describe('422 bodies of subscriptions:list', () => {
  it.each<[string, string, unknown]>([
    ['started_after=yesterday', 'started_after=yesterday', { loc: ['query', 'started_after'], msg: 'Input should be a valid datetime', type: 'datetime_parsing', input: 'yesterday' }],
    ['status=gone', 'status=gone', { loc: ['query', 'status', 0], type: 'enum', input: 'gone' }],
    ['active=1', 'active=1', { loc: ['query', 'active'], type: 'bool_parsing', input: '1' }],
    ['customer_cancellation_reason=bored', 'customer_cancellation_reason=bored', { loc: ['query', 'customer_cancellation_reason', 0], type: 'enum', input: 'bored' }],
  ])('%s', async (_name, query, entry) => {
    const response = await server.app.inject({ url: `/v1/subscriptions/?${query}`, headers: { authorization: `Bearer ${server.tokens.admin}` } });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toEqual([expect.objectContaining(entry as object)]);
    expectConforms(server, 'subscriptions:list', response);
  });
});

describe('compileQueryParser', () => {
  const p = (name: string, schema: object, extra: Partial<Parameter> = {}): Parameter => ({ name, in: 'query', required: false, schema, style: 'form', explode: true, ...extra });
  const parse = compileQueryParser([
    p('page', { type: 'integer', minimum: 1, default: 1 }),
    p('flag', { type: 'boolean' }),
    p('ids', { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'array', items: { type: 'string', format: 'uuid' } }] }),
    p('tags', { type: 'array', items: { type: 'string', enum: ['a', 'b'] } }),
    p('when', { type: 'string', format: 'date-time' }),
    p('metadata', { type: 'object' }, { style: 'deepObject' }),
    p('id', { type: 'string' }, { in: 'path', required: true }),
  ]);
  const uuid = '8B7C1B56-A5A6-4BD5-9B53-0C7E7A6D3A30';

  it.each<[string, Record<string, string | string[]>, Record<string, unknown>, Record<string, string[]>]>([
    ['defaults', {}, { page: 1 }, {}],
    ['an integer', { page: '3' }, { page: 3 }, {}],
    ['the last of a repeated scalar', { page: ['2', '5'] }, { page: 5 }, {}],
    ['booleans', { flag: 'false' }, { page: 1, flag: false }, {}],
    ['one id as a list, lower-cased', { ids: uuid }, { page: 1, ids: [uuid.toLowerCase()] }, {}],
    ['repeated ids', { ids: [uuid, uuid] }, { page: 1, ids: [uuid.toLowerCase(), uuid.toLowerCase()] }, {}],
    ['a single array value', { tags: 'a' }, { page: 1, tags: ['a'] }, {}],
    ['a date-time', { when: '2026-03-01T10:00:00.123456+01:00' }, { page: 1, when: '2026-03-01T10:00:00.123456+01:00' }, {}],
    ['deepObject keys', { 'metadata[tier]': ['pro', 'free'], 'metadata[x]': '1' }, { page: 1 }, { tier: ['pro', 'free'], x: ['1'] }],
    ['unknown parameters ignored', { colour: 'blue', metadatax: '1' }, { page: 1 }, {}],
  ])('%s', (_name, raw, values, metadata) => {
    expect(parse(raw)).toEqual({ ok: true, query: { values, deepObjects: { metadata } } });
  });

  it('reports the index of a bad item of a repeated one-or-many parameter, and none for a single value', () => {
    const single = parse({ ids: 'x' });
    const many = parse({ ids: [uuid, 'x'] });
    expect(!single.ok && single.errors.map((e) => e.loc)).toEqual([['query', 'ids']]);
    expect(!many.ok && many.errors.map((e) => e.loc)).toEqual([['query', 'ids', 1]]);
  });

  it('ignores a maximum when told to (the limit_unbounded fault)', () => {
    const limit = [p('limit', { type: 'integer', minimum: 1, maximum: 100 })];
    expect(compileQueryParser(limit)({ limit: '500' }).ok).toBe(false);
    expect(compileQueryParser(limit, { ignoreMaximum: ['limit'] })({ limit: '500' })).toEqual({ ok: true, query: { values: { limit: 500 }, deepObjects: {} } });
  });
});

describe('parseQueryString', () => {
  it.each<[string, Record<string, string | string[]>]>([
    ['', {}],
    ['a=1&a=2&b=3', { a: ['1', '2'], b: '3' }],
    ['metadata%5Btier%5D=pro+plan', { 'metadata[tier]': 'pro plan' }],
    ['bad=%zz&empty=', { bad: '%zz', empty: '' }],
    ['__proto__=x', { ['__proto__']: 'x' }],
  ])('%j', (text, expected) => {
    const parsed = parseQueryString(text);
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    expect({ ...parsed }).toEqual(expected);
  });
});
