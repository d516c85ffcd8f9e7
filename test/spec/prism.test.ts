// Prism accepts both documents and answers all 26 operations (the 20 of the description and 6 read-back ones) with a documented status; a success
// body validates against its schema (so Prism is a fair target for the shape checks).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { schemaArbitrary } from '../../generators/schema-value.js';
import { API_VERSIONS, loadSpec, specPath, type LoadedSpec, type Operation } from '../../spec/load.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function startPrism(file: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(path.join(ROOT, 'node_modules/.bin/prism'), ['mock', '--host', '127.0.0.1', '--port', String(port), file], { stdio: 'pipe' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return { url, child };
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  child.kill();
  throw new Error('prism did not start within 30 s');
}

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
  let prism: { url: string; child: ChildProcess };
  let spec: LoadedSpec;
  beforeAll(async () => {
    spec = await loadSpec(specPath(version));
    prism = await startPrism(specPath(version));
  }, 60_000);
  afterAll(() => {
    prism?.child.kill();
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
