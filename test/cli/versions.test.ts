// The two API versions: each reference passes its own document, and the harness asks every target of
// a bundled document for that document's version (Polar-Version), so a reference whose default is
// the other version answers in the one judged (the server's version tests show the header selects it).
import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { documentHeaders } from '../../engine/client.js';
import { runConformance } from '../../cli/run.js';
import { specPath } from '../../core/spec/load.js';

const sink = () => new Writable({ write: (_c, _e, done) => done() });
const base = { seed: 4, runs: 10, suites: ['exchange'], operations: ['products:list', 'subscriptions:list'], reporters: [], out: sink() };

describe('API versions', () => {
  test.each(['2026-10', '2026-04'] as const)('the %s reference conforms to its own document', async (version) => {
    const outcome = await runConformance({ ...base, apiVersion: version });
    expect(outcome.results.cells.filter((c) => c.status === 'failed')).toEqual([]);
    expect(outcome.exitCode).toBe(0);
  }, 60_000);

  test('a reference whose default is 2026-04 is asked for the 2026-10 document\'s version (Polar-Version) and passes it', async () => {
    const outcome = await runConformance({ ...base, apiVersion: '2026-04', spec: specPath('2026-10'), checks: ['response_schema_conformance', 'version_fields'] });
    const cell = outcome.results.cells.find((c) => c.operationId === 'products:list' && c.checkId === 'response_schema_conformance');
    expect(cell?.status).toBe('passed');
    expect(outcome.exitCode).toBe(0);
  }, 60_000);

  test('every request to a target of a bundled document carries its version', () => {
    expect(documentHeaders({ apiRules: true, version: '2026-10' })).toEqual({ 'polar-version': '2026-10' });
    expect(documentHeaders({ apiRules: true, version: '2026-04' })).toEqual({ 'polar-version': '2026-04' });
    // Another API's document says nothing of this header.
    expect(documentHeaders({ apiRules: false, version: '2026-10' })).toEqual({});
  });
});
