import { beforeAll, describe, expect, it } from 'vitest';
import { HANDLERS, unhandledOperations } from '../../server/handlers.js';
import { loadSpec, type LoadedSpec } from '../../core/spec/load.js';

let spec: LoadedSpec;

beforeAll(async () => {
  spec = await loadSpec();
});

describe('handler registry', () => {
  it('has a handler for every operation of the spec', () => {
    expect(spec.operations.length).toBeGreaterThan(0);
    expect(unhandledOperations(spec)).toEqual([]);
  });

  it('reports an operation without a handler', () => {
    const extra = { ...spec, operations: [...spec.operations, { ...spec.operations[0]!, operationId: 'orders:list' }] } as LoadedSpec;
    expect(unhandledOperations(extra)).toEqual(['orders:list']);
  });

  it('has no handler for an operation the spec lacks', () => {
    const documented = new Set(spec.operations.map((o) => o.operationId));
    expect(Object.keys(HANDLERS).filter((id) => !documented.has(id))).toEqual([]);
  });
});
