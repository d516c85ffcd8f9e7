// validRequestBody: a body its schema accepts, the same for the same operation and seed (drawn once,
// then kept), another for another seed, handed out as a copy that a caller may change.
import { describe, expect, test } from 'vitest';
import { loadSpec } from '../../core/spec/load.js';
import { schemaValidator } from '../../core/spec/schema-validator.js';
import { validRequestBody } from '../../engine/probe-body.js';

const bundled = await loadSpec();
const operation = bundled.operation('files:create');

describe('validRequestBody', () => {
  test('a JSON body its schema accepts, the same at every call with the same seed', () => {
    const body = validRequestBody(operation)!;
    expect(body.contentType).toBe('application/json');
    const schema = (operation.raw.requestBody as { content: Record<string, { schema: object }> }).content['application/json']!.schema;
    expect(schemaValidator(schema)(JSON.parse(body.text))).toBe(true);
    expect(validRequestBody(operation)).toEqual(body);
  });

  test('another seed draws another body', () => {
    expect(validRequestBody(operation, 2)!.text).not.toBe(validRequestBody(operation, 1)!.text);
  });

  test('a copy each time: changing one does not change the next', () => {
    const first = validRequestBody(operation, 3)!;
    const text = first.text;
    first.text = 'changed';
    expect(validRequestBody(operation, 3)!.text).toBe(text);
  });

  test('none for an operation without a request body', () => {
    expect(validRequestBody(bundled.operation('products:list'))).toBeUndefined();
  });
});
