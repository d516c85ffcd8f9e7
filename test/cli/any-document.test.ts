// `--spec FILE`: the generic checks run on another API's OpenAPI 3.0 document; a check that cannot
// apply is not applicable with the reason, writes are judged like reads, and a correct
// implementation passes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { API_RULE_CHECKS } from '../../checks/index.js';
import { NOT_THIS_API } from '../../checks/layers.js';
import { SCENARIO_IDS } from '../../engine/stateful/registry.js';
import { runConformance, type RunOutcome } from '../../cli/run.js';

const SPEC = path.join(import.meta.dirname, 'fixtures/petstore.yaml');
const PETS = [{ id: 1, name: 'Rex', tag: null }, { id: 2, name: 'Tom', tag: 'cat' }];
const sink = () => new Writable({ write: (_c, _e, done) => done() });

function json(res: import('node:http').ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** A correct petstore: limit validated (400 otherwise), pets by id, 404 for others, a valid pet created (201), an invalid one refused (400). */
function petstore(): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/pets' && req.method === 'GET') {
      const limit = url.searchParams.get('limit');
      if (limit !== null && !(/^\d+$/.test(limit) && Number(limit) >= 1 && Number(limit) <= 100)) return json(res, 400, { code: 400, message: 'limit must be 1..100' });
      return json(res, 200, PETS.slice(0, limit === null ? undefined : Number(limit)));
    }
    if (url.pathname === '/pets' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        let pet: { id?: unknown; name?: unknown; tag?: unknown } | undefined;
        try {
          pet = JSON.parse(body) as typeof pet;
        } catch {
          pet = undefined;
        }
        const valid = typeof pet === 'object' && pet !== null && Number.isInteger(pet.id) && typeof pet.name === 'string' && (!('tag' in pet) || pet.tag === null || typeof pet.tag === 'string');
        if (!valid) return json(res, 400, { code: 400, message: 'a pet needs an integer id, a name and a string tag or null' });
        res.writeHead(201).end();
      });
      return;
    }
    const match = /^\/pets\/([^/]+)$/.exec(url.pathname);
    if (match && req.method === 'GET') {
      const pet = PETS.find((p) => String(p.id) === decodeURIComponent(match[1]!));
      return pet ? json(res, 200, pet) : json(res, 404, { code: 404, message: 'no such pet' });
    }
    return json(res, 404, { code: 404, message: 'not found' });
  });
}

describe('any OpenAPI document', () => {
  let server: Server;
  let outcome: RunOutcome;
  beforeAll(async () => {
    server = petstore();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(path.join(tmpdir(), 'cnf-any-'));
    const config = path.join(dir, 'conformance.config.json');
    writeFileSync(config, JSON.stringify({ fixtures: { petId: '1' } }));
    outcome = await runConformance({
      target: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      spec: SPEC,
      config,
      seed: 11,
      runs: 20,
      reporters: [],
      out: sink(),
    });
  }, 120_000);
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const cell = (operationId: string, checkId: string) => outcome.results.cells.find((c) => c.operationId === operationId && c.checkId === checkId);

  test('a correct implementation passes', () => {
    expect(outcome.results.errors).toEqual([]);
    expect(outcome.results.cells.filter((c) => c.status === 'failed').map((c) => `${c.operationId} ${c.checkId}`)).toEqual([]);
    expect(outcome.exitCode).toBe(0);
  });

  test.each([
    ['listPets', 'response_schema_conformance'],
    ['listPets', 'status_code_conformance'],
    ['listPets', 'negative_data_rejection'],
    ['showPetById', 'response_schema_conformance'],
    // A write is judged like a read: a valid body drawn from the schema, no fixture needed.
    ['createPet', 'status_code_conformance'],
    ['createPet', 'response_headers_conformance'],
  ])('%s %s ran and passed', (operationId, checkId) => {
    expect(cell(operationId, checkId)?.status).toBe('passed');
    expect(cell(operationId, checkId)?.cases).toBeGreaterThan(0);
  });

  // Not applicable (cell.ts may still report these as skipped: the reason is what tells them apart).
  const notRun = (c: ReturnType<typeof cell>) => c?.status === 'skipped' || c?.status === 'not_applicable';

  test.each([
    ['listPets', 'missing_auth_rejected', 'the operation does not require credentials'],
  ])('%s %s is not run: %s', (operationId, checkId, reason) => {
    expect(notRun(cell(operationId, checkId))).toBe(true);
    expect(cell(operationId, checkId)?.skipReason).toBe(reason);
  });

  test('every check of the bundled API\'s rules is not applicable here, with that reason', () => {
    const apiCells = outcome.results.cells.filter((c) => API_RULE_CHECKS.has(c.checkId));
    expect(apiCells.length).toBe(API_RULE_CHECKS.size * 3);
    for (const c of apiCells) {
      expect(notRun(c), `${c.operationId} ${c.checkId}`).toBe(true);
      expect(c.skipReason).toBe(NOT_THIS_API);
    }
  });

  test('no stateful scenario ran against another API\'s document', () => {
    const scenarios = outcome.results.cells.filter((c) => SCENARIO_IDS.includes(c.checkId));
    for (const c of scenarios) expect(c.status === 'passed' || c.status === 'failed', c.checkId).toBe(false);
  });
});
