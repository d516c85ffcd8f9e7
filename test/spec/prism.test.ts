// Prism accepts both documents and answers all 26 operations (the 20 of the description and 6 read-back ones) with a documented status; a success
// body validates against its schema (so Prism is a fair target for the shape checks).
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { schemaArbitrary } from '../../generators/schema-value.js';
import { API_VERSIONS, loadSpec, specPath, type LoadedSpec, type Operation } from '../../core/spec/load.js';
import { startPrism, type PrismMock } from '../support/prism.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A valid request of the operation: example-free, drawn from its schemas with a fixed seed. */
function requestOf(spec: LoadedSpec, operation: Operation, url: string): { url: string; init: RequestInit } {
  const sample = (schema: object) => fc.sample(schemaArbitrary(schema, { direction: 'request' }), { seed: 1, numRuns: 1 })[0];
  const pathText = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const param = operation.parameters.find((p) => p.name === name)!;
    return encodeURIComponent(String(param.schema.format === 'uuid' ? '6a1c1b54-0a5c-4a43-9d5e-4e3f0c1d2a11' : 'cus_1'));
  });
  const headers: Record<string, string> = { accept: 'application/json' };
  if (operation.security.length) headers.authorization = 'Bearer prism-demo';
  const content = operation.raw.requestBody?.content ?? {};
  let body: string | undefined;
  if (content['application/json']) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(sample(content['application/json'].schema));
  } else if (content['application/x-www-form-urlencoded']) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(sample(content['application/x-www-form-urlencoded'].schema) as Record<string, string>).toString();
  }
  void spec;
  return { url: `${url}${pathText}`, init: { method: operation.method, headers, ...(body ? { body } : {}) } };
}

describe.each(API_VERSIONS)('Prism mock of the %s document', (version) => {
  let prism: PrismMock;
  let spec: LoadedSpec;
  beforeAll(async () => {
    spec = await loadSpec(specPath(version));
    prism = await startPrism(specPath(version));
  }, 60_000);
  afterAll(async () => {
    await prism?.stop();
  });

  test('answers all 26 operations (the 20 of the description and 6 read-back ones) with a documented status and a valid success body', async () => {
    expect(spec.operations).toHaveLength(26);
    const problems: string[] = [];
    for (const operation of spec.operations) {
      const { url, init } = requestOf(spec, operation, prism.url);
      const response = await fetch(url, init);
      const text = await response.text();
      const key = spec.matchStatus(operation, response.status);
      if (!key) {
        problems.push(`${operation.operationId}: undocumented ${response.status} ${text.slice(0, 200)}`);
        continue;
      }
      if (response.status >= 300 || !text) continue;
      const media = (response.headers.get('content-type') ?? '').split(';')[0]!;
      const result = spec.validateResponse(operation, key, media, JSON.parse(text));
      if (result && !result.ok) problems.push(`${operation.operationId}: ${response.status} body invalid: ${JSON.stringify(result.errors.slice(0, 3))}`);
      if (!(response.status >= 200 && response.status < 300)) problems.push(`${operation.operationId}: ${response.status}`);
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
