import { describe, expect, test } from 'vitest';
import { makeFailure } from '../../core/failure.js';
import type { Exchange, Finding } from '../../core/types.js';

const SUBJECT = { checkId: 'status_code_conformance', severity: 'medium' as const, rule: 'openapi.responses', operationId: 'products:list' };
const FINDING: Finding = { kind: 'undocumented_status', title: 'Undocumented status', message: 'products:list answered 418.', expected: [200], actual: 418 };

function exchange(n: number, token = 'secret-token'): Exchange {
  return {
    case: { id: `products:list#${n}`, operationId: 'products:list', pathParams: {}, query: {}, headers: {}, role: 'admin' },
    operationId: 'products:list',
    request: { method: 'GET', url: `http://127.0.0.1:5555/v1/products/?n=${n}`, headers: { authorization: `Bearer ${token}` } },
    response: { status: 418, headers: {}, body: '{}', json: {}, elapsedMs: 1 },
  };
}

const RUN = { seed: 42, secrets: [{ value: 'secret-token', env: 'CONFORMANCE_ADMIN_TOKEN' }] };

describe('makeFailure', () => {
  test('places the finding on its exchange: subject, case, request, response, a curl with the secret as its variable', () => {
    const failure = makeFailure(SUBJECT, FINDING, { exchange: exchange(1) }, RUN);
    expect(failure).toMatchObject({ ...SUBJECT, kind: 'undocumented_status', message: 'products:list answered 418.', caseId: 'products:list#1', request: { method: 'GET' }, response: { status: 418 } });
    expect(failure.reproduce).toEqual({ curl: expect.stringContaining('${CONFORMANCE_ADMIN_TOKEN}'), seed: 42 });
    expect(failure.reproduce.curl).not.toContain('secret-token');
  });

  test('a trail of two or more requests becomes the steps; lines are added to the message; a path is kept', () => {
    const trail = [exchange(1), exchange(2)];
    const failure = makeFailure(SUBJECT, FINDING, { exchange: trail[1]!, trail, lines: ['Steps: 1) a; 2) b'], caseId: 'x#shrunk' }, { ...RUN, path: '0:1' });
    expect(failure.reproduce.steps).toHaveLength(2);
    expect(failure.reproduce.path).toBe('0:1');
    expect(failure.message).toBe('products:list answered 418.\nSteps: 1) a; 2) b');
    expect(failure.caseId).toBe('x#shrunk');
    expect(makeFailure(SUBJECT, FINDING, { exchange: exchange(1), trail: [exchange(1)] }, RUN).reproduce.steps).toBeUndefined();
  });

  test('without an exchange: the request and the curl comment it is given', () => {
    const failure = makeFailure(SUBJECT, FINDING, { withoutExchange: { request: { method: 'ADAPTER', url: 'adapter:reference', headers: {} }, curl: '# no single request shows this' } }, RUN);
    expect(failure.request.url).toBe('adapter:reference');
    expect(failure.reproduce.curl).toBe('# no single request shows this');
    expect(failure.response).toBeUndefined();
  });

  test('with the run\'s reproduction facts the reproducer is runnable as printed: an embedded run points at `conformance serve` with the exports', () => {
    const reproduction = { kind: 'embedded' as const, runBaseUrl: 'http://127.0.0.1:5555', seed: 42, tokens: { CONFORMANCE_ADMIN_TOKEN: 'secret-token' } };
    const { reproduce } = makeFailure(SUBJECT, FINDING, { exchange: exchange(1) }, { ...RUN, reproduction });
    expect(reproduce.curl).toContain('http://127.0.0.1:4010/v1/products/');
    expect(reproduce.serve).toBe('npx conformance serve --seed 42 --port 4010');
    expect(reproduce.exports).toEqual(["export CONFORMANCE_ADMIN_TOKEN=secret-token"]);
    expect(reproduce.replay).toBe('npx conformance run --seed 42 --checks status_code_conformance --operations products:list');
  });
});
