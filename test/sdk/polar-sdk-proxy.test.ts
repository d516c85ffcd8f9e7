// The platform's own SDKs (both lines, both API versions) run through the conformance proxy
// against the reference: every exchange judged by the one judging path. Against the clean reference
// nothing is found and the report lists every operation the SDKs called; with a fault of the
// catalogue on (one read-side, one write-side, one of auth) the fault's check fails; and the HAR the
// proxy recorded, judged offline by `conformance check`, gives the same findings as the live proxy.
// @see docs/observed.md
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Polar as Polar0 } from 'polar-sdk-0';
import { createPolar } from 'polar-sdk-1/2026-10';
import { startReferenceServer, type RunningReference } from '../../server/index.js';
import { runProxy } from '../../cli/proxy.js';
import { checkHar } from '../../cli/check.js';
import type { RunResults } from '../../engine/results.js';
import type { ApiVersion } from '../../core/spec/load.js';
import { OPERATIONS, sdkCalls, type Line } from './calls.js';

const COMBINATIONS: [Line, ApiVersion][] = [['0.49.0', '2026-04'], ['0.49.0', '2026-10'], ['1.0.1', '2026-04'], ['1.0.1', '2026-10']];

/** A stream that drops what the console reporter prints. */
const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conformance-proxy-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The findings of results as comparable lines: operation, check, kind and the reproducer's curl. */
function findings(results: RunResults): string[] {
  return results.cells.flatMap((cell) => cell.failures.map((f) => `${f.operationId} ${f.checkId} ${f.kind} ${f.reproduce.curl}`)).sort();
}

/**
 * What a merchant's dashboard built on the platform's SDK (1.0.1, 2026-10) asks besides the SDK
 * test's calls: a table shown 10 then 100 products a page, a customer's page opened twice, and an
 * order's billing details saved and the order read again. Each pair is evidence of a rule of two
 * exchanges (pagination_total_stable, record_read_stable, write_read_consistent).
 */
async function dashboard(reference: RunningReference, baseUrl: string): Promise<void> {
  const polar = createPolar({ accessToken: reference.credentials.admin!, baseUrl });
  const f = reference.fixtures;
  await polar.products.list({ limit: 10 }).catch(() => undefined);
  await polar.products.list({ limit: 100 }).catch(() => undefined);
  await polar.customers.get(f.customer_id!).catch(() => undefined);
  await polar.customers.get(f.customer_id!).catch(() => undefined);
  const created = reference.control.createOrder();
  if (!created.ok || !reference.control.completeOrder(String(created.value.id)).ok) throw new Error('cannot make a paid order');
  const id = String(created.value.id);
  await polar.orders.update(id, { billing_name: 'Dashboard GmbH', billing_address: { country: 'DE', line1: 'Friedrichstraße 1', line2: 'Hof', city: 'Berlin', postal_code: '10117', state: null } } as never).catch(() => undefined);
  await polar.orders.get(id).catch(() => undefined);
}

/**
 * Every SDK call of both lines and versions through a proxy in front of a reference with `faults`
 * on, plus one call without credentials and a dashboard's requests ({@link dashboard}); the
 * proxy's results and exit code, its JSON report, and the HAR it recorded.
 */
async function throughProxy(name: string, faults: string[]): Promise<{ reference: RunningReference; results: RunResults; exitCode: number; report: { cells: { operationId: string; checkId: string; status: string }[] }; har: string }> {
  const reference = await startReferenceServer({ host: '127.0.0.1', port: 0, rateLimit: false, control: false, faults });
  const har = join(dir, `${name}.har`);
  const outputDir = join(dir, name);
  try {
    const command = await runProxy({ target: reference.url, port: 0, record: har, reporters: ['json'], outputDir, out: sink(), env: {} });
    let stopped: Awaited<ReturnType<typeof command.stop>>;
    try {
      for (const [line, version] of COMBINATIONS) {
        for (const call of sdkCalls(reference, line, version, command.proxy.url)) {
          // The outcome is the SDK test's concern (test/sdk/polar-sdk.test.ts); here only the judging of the traffic is.
          await call.run().catch(() => undefined);
        }
      }
      await new Polar0({ serverURL: command.proxy.url }).products.list({ limit: 5 }).catch(() => undefined);
      await dashboard(reference, command.proxy.url);
    } finally {
      stopped = await command.stop();
    }
    const report = JSON.parse(await readFile(join(outputDir, 'report.json'), 'utf8')) as { cells: { operationId: string; checkId: string; status: string }[] };
    return { reference, results: stopped.results, exitCode: stopped.exitCode, report, har };
  } finally {
    await reference.close();
  }
}

describe('the SDKs through the proxy', () => {
  it('against the clean reference: no finding, and the report lists every operation the SDKs called', async () => {
    const { results, exitCode, report, har } = await throughProxy('clean', []);
    expect(findings(results)).toEqual([]);
    expect(results.errors).toEqual([]);
    expect(exitCode).toBe(0);
    const judged = new Set(report.cells.filter((c) => c.status === 'passed').map((c) => c.operationId));
    expect([...judged].sort()).toEqual([...OPERATIONS].sort());
    // The call without credentials was judged by the auth check, and passed.
    expect(report.cells.find((c) => c.operationId === 'products:list' && c.checkId === 'missing_auth_rejected')?.status).toBe('passed');
    const offline = await checkHar({ file: har, reporters: [], env: {} });
    expect(findings(offline.results)).toEqual([]);
    expect(offline.exitCode).toBe(0);
  }, 120_000);

  it.each([
    ['read-side', 'timestamps_not_utc', 'timestamps_utc', 'subscriptions:list'],
    ['write-side', 'orders_update_missing_field', 'response_schema_conformance', 'orders:update'],
    ['auth', 'missing_auth_accepted', 'missing_auth_rejected', 'products:list'],
  ])('with the %s fault %s on: %s fails on %s, and the recorded HAR judged offline finds the same', async (_side, fault, check, operationId) => {
    const { results, exitCode, har } = await throughProxy(fault, [fault]);
    const cell = results.cells.find((c) => c.operationId === operationId && c.checkId === check);
    expect(cell?.status).toBe('failed');
    expect(exitCode).toBe(1);
    const offline = await checkHar({ file: har, reporters: [], env: {} });
    expect(offline.exitCode).toBe(1);
    expect(findings(offline.results)).toEqual(findings(results));
    // Secrets never reach the recording: the reproducers name their variables.
    const text = await readFile(har, 'utf8');
    expect(text).not.toMatch(/Bearer polar_/);
    for (const line of findings(results)) {
      expect(line).not.toMatch(/Bearer polar_/);
      if (line.includes('authorization:')) expect(line).toContain('authorization: Bearer ${CONFORMANCE_TOKEN_');
    }
  }, 120_000);
});

describe('the rules of units, lifetimes, equalities and round trips, through the proxy and from its HAR', () => {
  // Each fault breaks one rule, which one check holds; ordinary client traffic (the SDK test's calls
  // and a dashboard's) holds its evidence. Faults run together in two groups: every fault's check
  // fails, and no other check does, live and from the recording.
  it.each([
    ['one', ['upload_part_ranges_shifted', 'order_paid_flag_stale', 'introspection_iat_in_milliseconds', 'modified_before_created', 'claim_answer_seat_pending', 'customer_read_flaps']],
    ['two', ['upload_links_expired', 'order_amount_not_net', 'token_expires_in_milliseconds', 'billing_address_ignored', 'modified_at_not_stored', 'list_depends_on_page_size']],
  ])('group %s: each fault fails its own check, and nothing else fails', async (name, faults) => {
    const { FAULTS } = await import('../../server/faults.js');
    const expected = [...new Set(faults.map((id) => FAULTS.find((f) => f.id === id)!.detectedBy))].sort();
    const { results, exitCode, har } = await throughProxy(`rules-${name}`, faults);
    const failedChecks = (r: RunResults) => [...new Set(r.cells.filter((c) => c.status === 'failed').map((c) => c.checkId))].sort();
    expect(failedChecks(results)).toEqual(expected);
    expect(exitCode).toBe(1);
    const offline = await checkHar({ file: har, reporters: [], env: {} });
    expect(failedChecks(offline.results)).toEqual(expected);
  }, 180_000);
});
