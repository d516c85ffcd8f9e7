import { beforeAll, describe, expect, it } from 'vitest';
import { compileBodyParser, compileSchemaValidator, FormBody, InvalidJsonBody, parseFormBody, UnreadBody } from '../../server/body.js';
import { loadSpec, type LoadedSpec } from '../../core/spec/load.js';

let spec: LoadedSpec;

beforeAll(async () => {
  spec = await loadSpec();
});

const schema = (name: string) => spec.document.components.schemas[name];

describe('compileSchemaValidator', () => {
  it.each<[string, string, unknown, unknown[]]>([
    ['a missing field', 'ProductBenefitsUpdate', {}, [{ loc: ['body', 'benefits'], msg: 'Field required', type: 'missing', input: {} }]],
    ['a list of the wrong type', 'ProductBenefitsUpdate', { benefits: 'x' }, [{ loc: ['body', 'benefits'], msg: 'Input should be a valid list', type: 'list_type', input: 'x' }]],
    ['an item that is not a uuid', 'ProductBenefitsUpdate', { benefits: ['00000000-0000-4000-8000-000000000000', 'x'] }, [{ loc: ['body', 'benefits', 1], msg: 'Input should be a valid UUID', type: 'uuid_parsing', input: 'x' }]],
    ['a body that is not an object', 'ProductBenefitsUpdate', [1], [{ loc: ['body'], msg: 'Input should be a valid dictionary', type: 'dict_type', input: [1] }]],
    ['a nullable string given a number', 'OrderBillingUpdate', { billing_name: 1 }, [{ loc: ['body', 'billing_name'], msg: 'Input should be a valid string', type: 'string_type', input: 1 }]],
    ['a nullable object given a string (first branch reported)', 'OrderBillingUpdate', { billing_address: 'x' }, [{ loc: ['body', 'billing_address'], msg: 'Input should be a valid dictionary', type: 'dict_type', input: 'x' }]],
    ['a nested field', 'OrderBillingUpdate', { billing_address: { country: 1 } }, [{ loc: ['body', 'billing_address', 'country'], msg: 'Input should be a valid string', type: 'string_type', input: 1 }]],
    ['an empty string under minLength', 'CustomerSeatClaim', { invitation_token: '' }, [{ loc: ['body', 'invitation_token'], msg: 'String should have at least 1 characters', type: 'string_too_short', input: '', ctx: { min_length: 1 } }]],
    ['a missing discriminator', 'FileCreate', { name: 'x' }, [{ loc: ['body', 'service'], msg: 'Field required', type: 'missing', input: { name: 'x' } }]],
  ])('reports %s', (_name, schemaName, value, entries) => {
    expect(compileSchemaValidator(schema(schemaName))(value)).toEqual(entries);
  });

  it('validates a discriminated union against the branch its tag names', () => {
    const validate = compileSchemaValidator(schema('FileCreate'));
    const body = { name: 'x', mime_type: 'text/plain', size: 1, service: 'downloadable', upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 0 }] } };
    expect(validate(body)).toEqual([]);
    expect(validate({ ...body, service: 'video' })[0]).toMatchObject({ loc: ['body', 'service'], type: 'union_tag_invalid' });
    expect(validate({ ...body, upload: { parts: [{ number: 0, chunk_start: 0.5 }] } }).map((e) => [e.loc, e.type])).toEqual([
      [['body', 'upload', 'parts', 0, 'chunk_end'], 'missing'],
      [['body', 'upload', 'parts', 0, 'number'], 'greater_than_equal'],
      [['body', 'upload', 'parts', 0, 'chunk_start'], 'int_from_float'],
    ]);
  });
});

describe('compileBodyParser', () => {
  it('reports a missing, unparseable or non-JSON body of a JSON operation as 422 entries at ["body"]', () => {
    const parse = compileBodyParser(spec.operation('customer_seats:claim'))!;
    expect(parse(undefined)).toEqual({ ok: false, entries: [{ loc: ['body'], msg: 'Field required', type: 'missing', input: null }] });
    expect(parse(new InvalidJsonBody('Unexpected end'))).toEqual({ ok: false, entries: [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid', ctx: { error: 'Unexpected end' } }] });
    const unread = parse(new UnreadBody('text/plain'));
    expect(unread.ok === false && 'entries' in unread && unread.entries[0]).toMatchObject({ loc: ['body'], type: 'missing', ctx: { reason: 'the body must be application/json, not text/plain' } });
    expect(parse({ invitation_token: 'x' })).toEqual({ ok: true, value: { invitation_token: 'x' } });
  });

  it('answers form problems of the OAuth endpoints as RFC 6749 invalid_request', () => {
    const parse = compileBodyParser(spec.operation('oauth2:token'))!;
    const reply = (result: ReturnType<typeof parse>) => (result.ok === false && 'reply' in result ? result.reply : undefined);
    expect(reply(parse({ grant_type: 'x' }))?.body).toEqual({ error: 'invalid_request', error_description: 'The body must be application/x-www-form-urlencoded.' });
    expect(reply(parse(parseFormBody('a=1')))?.body).toEqual({ error: 'invalid_request', error_description: 'grant_type: Field required.' });
    expect(reply(parse(parseFormBody('grant_type=a&grant_type=b')))?.status).toBe(400);
    expect(parse(parseFormBody('grant_type=refresh_token&refresh_token=r'))).toEqual({ ok: true, value: expect.objectContaining({ grant_type: 'refresh_token', refresh_token: 'r' }) });
  });

  it('is undefined for an operation without a body', () => {
    expect(compileBodyParser(spec.operation('products:list'))).toBeUndefined();
  });
});

describe('parseFormBody', () => {
  it('keeps the last value, names repeated fields and ignores prototype keys', () => {
    const body = parseFormBody('a=1&b=2&a=3&__proto__=x&c=%20d+e');
    expect(body).toBeInstanceOf(FormBody);
    expect({ ...body.fields }).toEqual({ a: '3', b: '2', ['__proto__']: 'x', c: ' d e' });
    expect(body.repeated).toEqual(['a']);
    expect(Object.getPrototypeOf(body.fields)).toBeNull();
  });
});
