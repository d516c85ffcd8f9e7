// What the harness makes of another API's OpenAPI 3.0 document (test/cli/fixtures/any-document.yaml):
// 3.0 semantics read as 3.1, requests a server can answer (Accept, credentials where the scheme
// puts them, required parameters, non-exploded arrays), values for lookaround patterns and recursive
// schemas, negative cases that really are negative. No network.
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { negativeCases } from '../../generators/negative/index.js';
import { requiredQuery } from '../../generators/parameter-value.js';
import { parameterAccepts } from '../../core/spec/parameter-accepts.js';
import { boundaryExamples, queryCaseArbitrary } from '../../generators/query-case.js';
import { schemaArbitrary } from '../../generators/schema-value.js';
import { schemaValidator } from '../../core/spec/schema-validator.js';
import { buildRequest } from '../../engine/client.js';
import { pathValues } from '../../engine/operation-inputs.js';
import { validRequestBody } from '../../engine/probe-body.js';
import type { Target } from '../../core/target.js';
import { loadSpec, unknownOperations } from '../../core/spec/load.js';

const spec = await loadSpec(path.join(import.meta.dirname, 'fixtures/any-document.yaml'));
const TARGET: Target = { baseUrl: 'http://127.0.0.1:9', kind: 'remote', roles: { admin: { token: 'user:pw' } }, fixtures: {}, requestsPerSecond: null, timeoutMs: 1000, readOnly: false };
const base = { id: 'x#0', pathParams: {}, headers: {}, role: 'admin' as const };

describe('loading', () => {
  test('a 3.0 document is read as 3.1, keeps its declared version, has no API rules, and notes what it changed', () => {
    expect(spec.openapi).toBe('3.0.3');
    expect(spec.apiRules).toBe(false);
    expect(spec.operations.every((o) => o.apiRules === false)).toBe(true);
    expect(spec.notes.join('\n')).toMatch(/upgraded to 3\.1/);
    expect(spec.notes.join('\n')).toMatch(/format sku not known/);
    const node = spec.document.components.schemas.Node;
    expect(node.properties.score).toMatchObject({ type: ['number', 'null'], exclusiveMinimum: 0 });
  });

  test('a writeOnly property is not required in a response, a nullable one may be null', () => {
    const list = spec.operation('listNodes');
    expect(spec.validateResponse(list, '200', 'application/json', [{ name: 'abc', score: null, code: 'ANY-THING' }])).toEqual({ ok: true });
    expect(spec.validateResponse(list, '200', 'application/json', [{ name: 'abc', score: 0 }])?.ok).toBe(false);
  });

  test.each<[string, unknown, boolean]>([
    ['a value of the alternative its discriminator maps to passes, though it matches both (overlapping) alternatives', { kind: 'cat', lives: 3 }, true],
    ['an alternative named by its schema name', { kind: 'Dog', bark: true }, true],
    ['a value invalid for the alternative its discriminator names fails', { kind: 'cat', lives: 'nine' }, false],
    ['a discriminator value that names no alternative fails', { kind: 'cow' }, false],
  ])('discriminator: %s', (_name, pet, valid) => {
    expect(spec.validateResponse(spec.operation('listPets'), '200', 'application/json', [pet])?.ok).toBe(valid);
  });
});

describe('requests', () => {
  test('Accept lists the documented media types; the API key goes in its header; required headers are sent', () => {
    const request = buildRequest(TARGET, spec.operation('listNodes'), { ...base, operationId: 'listNodes', query: { kind: 'leaf', tags: ['a', 'b'] } });
    expect(request.headers).toMatchObject({ accept: 'application/json, text/csv', 'x-api-key': 'user:pw', 'x-tenant': 'acme' });
    expect(request.headers.authorization).toBeUndefined();
    expect(request.url).toBe('http://127.0.0.1:9/nodes?kind=leaf&tags=a%2Cb');
  });

  test('HTTP basic credentials are encoded; an unknown bearer token of a probe goes where the scheme puts credentials', () => {
    const create = buildRequest(TARGET, spec.operation('createNode'), { ...base, operationId: 'createNode', query: {} });
    expect(create.headers.authorization).toBe(`Basic ${Buffer.from('user:pw').toString('base64')}`);
    const probe = buildRequest(TARGET, spec.operation('listNodes'), { ...base, role: null, operationId: 'listNodes', query: {}, headers: { authorization: 'Bearer nope' } });
    expect(probe.headers).toMatchObject({ 'x-api-key': 'nope' });
    expect(probe.headers.authorization).toBeUndefined();
  });

  test('every boundary example and generated query carries the required parameters, valid against their schemas', () => {
    const list = spec.operation('listNodes');
    expect(requiredQuery(list)).toEqual({ kind: 'leaf' });
    const queries = [...boundaryExamples(list, { invalid: true, page: true }), ...fc.sample(queryCaseArbitrary(list), { seed: 4, numRuns: 40 })];
    for (const query of queries) {
      for (const param of list.parameters.filter((p) => p.in === 'query')) {
        if (param.required) expect(query[param.name], JSON.stringify(query)).toBeDefined();
        if (query[param.name] !== undefined) expect(parameterAccepts(param, query[param.name]!), `${param.name}=${JSON.stringify(query[param.name])}`).toBe(true);
      }
    }
  });

  test('a random path value of an enum parameter is one of its members', () => {
    expect(['leaf', 'branch']).toContain(pathValues(spec.operation('nodesOfKind'), TARGET, false).kind);
  });
});

describe('values', () => {
  test('a pattern with a lookahead gives matching strings; a recursive schema gives finite valid values without readOnly', () => {
    const node = spec.document.components.schemas.Node;
    const valid = schemaValidator({ ...node, required: [] });
    for (const value of fc.sample(schemaArbitrary(node, { direction: 'request' }), { seed: 5, numRuns: 30 }) as Record<string, unknown>[]) {
      expect(valid(value), JSON.stringify(value)).toBe(true);
      expect(String(value.name)).toMatch(/^(?!admin)[a-z]{3,8}$/);
      expect('id' in value).toBe(false);
    }
  });

  test('a probe body is drawn for a recursive body schema', () => {
    const body = validRequestBody(spec.operation('createNode'));
    expect(body?.contentType).toBe('application/json');
    expect(JSON.parse(body!.text)).toHaveProperty('name');
  });
});

describe('negative cases', () => {
  test('a mutation the schema still accepts is no negative case: anyOf bodies in which {} is valid give none', () => {
    expect(negativeCases(spec.operation('searchNodes'))).toEqual([]);
  });

  test('each negative query case fails its parameter schema and carries the other required parameters', () => {
    const list = spec.operation('listNodes');
    const cases = negativeCases(list).filter((c) => c.location === 'query');
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) {
      const param = list.parameters.find((p) => p.name === c.parameter)!;
      expect(parameterAccepts(param, c.query[c.parameter]!), JSON.stringify(c)).toBe(false);
      if (c.parameter !== 'kind') expect(c.query.kind).toBe('leaf');
    }
  });
});

describe('operation names', () => {
  test('an unknown --operations id is named with the nearest operationIds of the document', () => {
    expect(unknownOperations(spec, ['listNodes', 'listNode', 'createnode', 'zzz'])).toEqual([
      { id: 'listNode', suggestions: ['listNodes'] },
      { id: 'createnode', suggestions: ['createNode'] },
      { id: 'zzz', suggestions: [] },
    ]);
  });
});
