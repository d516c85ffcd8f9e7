import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { KNOWN_EDGES } from '../../engine/stateful/transitions.js';
import { computeCoverage } from '../../engine/coverage.js';
import { COVERAGE_SUITE, JUnitReporter, NOT_API_TRAFFIC_SUITE, renderJUnit, tagsOf } from '../../reporters/junit.js';
import { CONFORMANCE_CLASSES } from '../../core/types.js';
import type { LoadedSpec } from '../../core/spec/load.js';
import { collectResults, finishResults, type RunResults } from '../../engine/results.js';
import { cell, failure, INFO, notApiTraffic, skipped, stateful } from './fixtures/cells.js';
import { moduleOf } from './fixtures/modules.js';
import { childrenNamed, parseXml, type XmlElement } from './fixtures/xml.js';
import { loadCoverageSpec } from './fixtures/spec.js';

let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadCoverageSpec();
});

const RESULTS: RunResults = {
  cells: [
    cell('products:list', 'status_code_conformance', {
      durationMs: 1234.4,
      failures: [failure(), failure({ caseId: 'products:list#2', title: 'Second title', message: 'Received 502 & <html>.', reproduce: { curl: "curl 'http://127.0.0.1:4010/v1/products/?page=0'", seed: 42, path: '3' } })],
    }),
    cell('products:list', 'response_schema_conformance', { durationMs: 20 }),
    skipped('products:list', 'ignored_auth', 'needs role "other_org" <missing>'),
    cell('products:list', 'pagination_limit_respected', { status: 'not_applicable', skipReason: 'not a paginated list', cases: 0 }),
    cell('orders:list', 'status_code_conformance'),
    cell('orders:list', 'content_type_conformance', { status: 'failed' }),
    cell('orders:list', 'use_after_free', { status: 'errored', error: { code: 'CNF_ERR_ADAPTER', message: 'the adapter could not create an order' }, cases: 0 }),
  ],
  errors: [{ where: 'files:create > upload', message: 'the target did not answer', code: 'CNF_ERR_TARGET_UNREACHABLE', stack: 'HarnessError: the target did not answer\n    at probe' }],
};

function parsed(results: RunResults = RESULTS): XmlElement {
  return parseXml(renderJUnit(results, INFO));
}

function testCase(root: XmlElement, suite: string, name: string): XmlElement {
  const found = childrenNamed(root, 'testsuite')
    .find((s) => s.attributes['name'] === suite)
    ?.children.find((c) => c.name === 'testcase' && c.attributes['name'] === name);
  if (!found) throw new Error(`no testcase ${suite} / ${name}`);
  return found;
}

describe('renderJUnit', () => {
  test('is an XML document with a declaration', () => {
    expect(renderJUnit(RESULTS, INFO)).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /);
  });

  test('root and suites carry the counts; a not-applicable cell is no test case', () => {
    const root = parsed();
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toMatchObject({ name: 'Conformance run', tests: '7', failures: '2', errors: '2', skipped: '1' });
    const counts = childrenNamed(root, 'testsuite').map((s) => [s.attributes['name'], s.attributes['tests'], s.attributes['failures'], s.attributes['errors'], s.attributes['skipped']]);
    expect(counts).toEqual([
      ['products:list', '3', '1', '0', '1'],
      ['orders:list', '3', '1', '1', '0'],
      ['harness', '1', '0', '1', '0'],
      ['conformance', '0', '0', '0', '0'],
    ]);
    expect(renderJUnit(RESULTS, INFO)).not.toContain('pagination_limit_respected');
  });

  test('the conformance suite states each class: a failed must-level cell makes its class not conformant', () => {
    const conformance = childrenNamed(parsed(), 'testsuite').find((s) => s.attributes['name'] === 'conformance')!;
    const properties = Object.fromEntries(childrenNamed(childrenNamed(conformance, 'properties')[0]!, 'property').map((p) => [p.attributes['name'], p.attributes['value']]));
    expect(properties['conformance']).toBe('not conformant');
    expect(Object.keys(properties).filter((name) => name.startsWith('conformance.'))).toEqual(CONFORMANCE_CLASSES.map((c) => `conformance.${c}`));
    expect(Object.values(properties).some((value) => String(value).startsWith('not conformant ('))).toBe(true);
    expect(childrenNamed(conformance, 'testcase')).toEqual([]);
  });

  test('time on the root (the run), every suite (its test cases) and every test case, in seconds', () => {
    const root = parsed();
    expect(root.attributes['time']).toBe('3.21');
    expect(childrenNamed(root, 'testsuite').map((s) => [s.attributes['name'], s.attributes['time']])).toEqual([
      ['products:list', '1.254'],
      ['orders:list', '0'],
      ['harness', '0'],
      ['conformance', '0'],
    ]);
    const times = childrenNamed(root, 'testsuite').flatMap((s) => childrenNamed(s, 'testcase').map((c) => c.attributes['time']));
    expect(times).toEqual(['1.234', '0.02', '0', '0', '0', '0', '0']);
  });

  test('operation suites carry the run properties, the not-applicable count and a timestamp', () => {
    const suite = childrenNamed(parsed(), 'testsuite')[0]!;
    expect(suite.attributes['timestamp']).toBe('2026-11-22T05:00:00');
    const properties = childrenNamed(suite, 'properties')[0]!.children.map((p) => [p.attributes['name'], p.attributes['value']]);
    expect(properties).toEqual([['target', 'http://127.0.0.1:4010'], ['spec_version', '2026-10'], ['seed', '42'], ['not_applicable', '1']]);
  });

  const table: [string, { suite: string; name: string; want: { classname: string; children: string[] } }][] = [
    ['passed cell', { suite: 'products:list', name: 'response_schema_conformance on products:list', want: { classname: 'conformance.products', children: [] } }],
    ['failed cell', { suite: 'products:list', name: 'status_code_conformance on products:list', want: { classname: 'conformance.products', children: ['failure'] } }],
    ['skipped cell', { suite: 'products:list', name: 'ignored_auth on products:list', want: { classname: 'conformance.products', children: ['skipped'] } }],
    ['failed cell without failures', { suite: 'orders:list', name: 'content_type_conformance on orders:list', want: { classname: 'conformance.orders', children: ['failure'] } }],
    ['errored cell', { suite: 'orders:list', name: 'use_after_free on orders:list', want: { classname: 'conformance.orders', children: ['error'] } }],
    ['harness error', { suite: 'harness', name: 'files:create > upload', want: { classname: 'conformance.harness', children: ['error'] } }],
  ];
  test.each(table)('%s: one testcase per cell, classname conformance.<tag>', (_name, { suite, name, want }) => {
    const element = testCase(parsed(), suite, name);
    expect(element.attributes['classname']).toBe(want.classname);
    expect(element.children.map((c) => c.name)).toEqual(want.children);
  });

  test("the tag comes from the document when it is given, else from the operationId's prefix", () => {
    const root = parseXml(renderJUnit(RESULTS, INFO, undefined, { tags: { 'products:list': 'catalogue.items' } }));
    expect(testCase(root, 'products:list', 'ignored_auth on products:list').attributes['classname']).toBe('conformance.catalogue_items');
    expect(testCase(root, 'orders:list', 'status_code_conformance on orders:list').attributes['classname']).toBe('conformance.orders');
    expect(tagsOf({ operations: [{ operationId: 'a:b', tags: ['x', 'y'] }, { operationId: 'c', tags: [] }] as never })).toEqual({ 'a:b': 'x' });
  });

  test('an errored cell is an <error> with its code', () => {
    const element = childrenNamed(testCase(parsed(), 'orders:list', 'use_after_free on orders:list'), 'error')[0]!;
    expect(element.attributes).toEqual({ message: 'the adapter could not create an order', type: 'CNF_ERR_ADAPTER' });
  });

  test('a failure holds the first title and kind, and every failure with its reproducer', () => {
    const element = childrenNamed(testCase(parsed(), 'products:list', 'status_code_conformance on products:list'), 'failure')[0]!;
    expect(element.attributes).toEqual({ message: 'Undocumented HTTP status code', type: 'undocumented_status_code' });
    expect(element.text).toBe(
      [
        '[1/2] Undocumented HTTP status code (undocumented_status_code, high, rule oas-3.1/responses-object, case products:list#1)',
        'Received 500, documented: 200, 401, 422.',
        'expected: [200,401,422]',
        'actual:   500',
        'Reproduce with:',
        '',
        "    curl -X GET 'http://127.0.0.1:4010/v1/products/?limit=101' -H \"Authorization: Bearer $CNF_ADMIN_TOKEN\"",
        '',
        'seed 42 path 0:1',
        '',
        '[2/2] Second title (undocumented_status_code, high, rule oas-3.1/responses-object, case products:list#2)',
        'Received 502 & <html>.',
        'expected: [200,401,422]',
        'actual:   500',
        'Reproduce with:',
        '',
        "    curl 'http://127.0.0.1:4010/v1/products/?page=0'",
        '',
        'seed 42 path 3',
      ].join('\n'),
    );
  });

  test('a skipped cell has its reason as message, escaped', () => {
    const source = renderJUnit(RESULTS, INFO);
    expect(source).toContain('<skipped message="needs role &quot;other_org&quot; &lt;missing>"/>');
    const element = childrenNamed(testCase(parsed(), 'products:list', 'ignored_auth on products:list'), 'skipped')[0]!;
    expect(element.attributes['message']).toBe('needs role "other_org" <missing>');
  });

  test('a skipped cell names what is missing and the fix', () => {
    const cells = [cell('products:list', 'ignored_auth', { status: 'skipped', skipReason: 'needs role admin', skipKind: 'role', fix: 'export CONFORMANCE_ADMIN_TOKEN=…', cases: 0 })];
    const element = childrenNamed(testCase(parsed({ cells, errors: [] }), 'products:list', 'ignored_auth on products:list'), 'skipped')[0]!;
    expect(element.attributes['message']).toBe('missing role: needs role admin (fix: export CONFORMANCE_ADMIN_TOKEN=…)');
  });

  test('a harness error carries its code, message and stack', () => {
    const element = childrenNamed(testCase(parsed(), 'harness', 'files:create > upload'), 'error')[0]!;
    expect(element.attributes).toEqual({ message: 'the target did not answer', type: 'CNF_ERR_TARGET_UNREACHABLE' });
    expect(element.text).toBe('HarnessError: the target did not answer\n    at probe');
  });

  function properties(suite: XmlElement): [string | undefined, string | undefined][] {
    return (childrenNamed(suite, 'properties')[0]?.children ?? []).map((p) => [p.attributes['name'], p.attributes['value']]);
  }

  function coverageSuite(root: XmlElement): XmlElement | undefined {
    return childrenNamed(root, 'testsuite').find((s) => s.attributes['name'] === COVERAGE_SUITE);
  }

  test('with coverage, a coverage suite of properties and no test case; the totals count only cells', () => {
    const cells = [cell('products:list', 'a', { observed: { statuses: [200], parameters: ['query:limit', 'query:page', 'query:metadata'] } })];
    const root = parseXml(renderJUnit({ cells, errors: [] }, INFO, computeCoverage(spec, cells, 50)));
    const suite = coverageSuite(root)!;
    expect(suite.attributes).toMatchObject({ name: 'coverage', tests: '0', failures: '0', time: '0' });
    expect(childrenNamed(suite, 'testcase')).toEqual([]);
    expect(properties(suite)).toEqual([
      ['coverage.operations', '1/3 (33.3%)'],
      ['coverage.statuses', '1/7 (14.2%)'],
      ['coverage.parameters', '3/5 (60.0%)'],
      ['coverage.minimum', '50%'],
      ['coverage.below_minimum', 'operations,statuses'],
    ]);
    expect(root.attributes).toMatchObject({ tests: '1', failures: '0' });
    const without = coverageSuite(parseXml(renderJUnit({ cells, errors: [] }, INFO, computeCoverage(spec, cells))))!;
    expect(properties(without).map(([name]) => name)).toEqual(['coverage.operations', 'coverage.statuses', 'coverage.parameters']);
  });

  describe('transition coverage', () => {
    const STATEFUL: RunResults = {
      cells: [
        ...RESULTS.cells,
        stateful('orders:create', 'order_paid_once', ['order: pending→paid']),
        stateful('customers:delete', 'customer_deletion_cascades', ['customer: active→deleted', 'seat: pending→revoked', 'order: paid→refunded'], { failures: [failure()] }),
      ],
      errors: [],
    };
    const EXERCISED = ['order: pending→paid', 'customer: active→deleted', 'seat: pending→revoked'];

    test('one property per edge of the tables in the coverage suite, never a test case', () => {
      const root = parsed(STATEFUL);
      const suite = coverageSuite(root)!;
      expect(suite.attributes).toMatchObject({ tests: '0' });
      const edges = properties(suite);
      expect(edges.map(([name]) => name)).toEqual([...[...KNOWN_EDGES].map((edge) => `transition.${edge}`), 'transition.order: paid→refunded']);
      for (const [name, value] of edges.slice(0, KNOWN_EDGES.size)) {
        expect(value).toBe(EXERCISED.includes(name!.slice('transition.'.length)) ? 'exercised' : 'not exercised by the stateful suites');
      }
      expect(edges.at(-1)).toEqual(['transition.order: paid→refunded', 'recorded by a stateful scenario but in no transition table of the reference']);
      // 7 cells of RESULTS, one of them not applicable, and the 2 stateful ones: no edge counts as a test.
      expect(root.attributes).toMatchObject({ tests: '8' });
    });

    test('no stateful cell and no coverage, no coverage suite', () => {
      expect(coverageSuite(parsed(RESULTS))).toBeUndefined();
      expect(renderJUnit(RESULTS, INFO)).not.toContain('transition.');
    });
  });

  test('observed traffic that was not the API\'s: a suite of properties, no test case, the totals unchanged; none without any', () => {
    const root = parsed({ ...RESULTS, notApiTraffic: notApiTraffic(25) });
    const suite = childrenNamed(root, 'testsuite').find((s) => s.attributes['name'] === NOT_API_TRAFFIC_SUITE)!;
    expect(suite.attributes).toMatchObject({ tests: '0', failures: '0', errors: '0', skipped: '0' });
    expect(suite.children.filter((c) => c.name === 'testcase')).toEqual([]);
    const properties = childrenNamed(childrenNamed(suite, 'properties')[0]!, 'property').map((p) => [p.attributes['name'], p.attributes['value']]);
    expect(properties[0]).toEqual(['not_api_traffic', "25 exchanges, not judged: 19 a browser's page, script, style, image or font, 6 another origin than the API's"]);
    expect(properties[1]).toEqual(['not_api_traffic.1', "#1 GET http://127.0.0.1:4010/ — a browser's document request (Sec-Fetch-Dest: document)"]);
    expect(properties).toHaveLength(21);
    expect(root.attributes['tests']).toBe(parsed().attributes['tests']);
    for (const none of [parsed(), parsed({ ...RESULTS, notApiTraffic: notApiTraffic(0) })]) {
      expect(childrenNamed(none, 'testsuite').map((s) => s.attributes['name'])).not.toContain(NOT_API_TRAFFIC_SUITE);
    }
  });

  test('no errors, no harness suite; no cells, an empty root', () => {
    expect(childrenNamed(parsed({ cells: RESULTS.cells, errors: [] }), 'testsuite').map((s) => s.attributes['name'])).toEqual(['products:list', 'orders:list', 'conformance']);
    expect(parsed({ cells: [], errors: [] }).children).toEqual([]);
    expect(parsed({ cells: [], errors: [] }).attributes).toMatchObject({ tests: '0', failures: '0' });
  });

  test('characters XML cannot carry are dropped, and "]]>" in text stays readable', () => {
    const nasty = failure({ message: 'body had \u0000NUL, \u001bESC and ]]> inside', title: 'Bad \u0007bell' });
    const root = parsed({ cells: [cell('a', 'x', { failures: [nasty] })], errors: [] });
    const element = childrenNamed(testCase(root, 'a', 'x on a'), 'failure')[0]!;
    expect(element.attributes['message']).toBe('Bad bell');
    expect(element.text).toContain('body had NUL, ESC and ]]> inside');
  });
});

describe('JUnitReporter', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  test('writes the report, creating missing directories', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cnf-junit-'));
    dirs.push(dir);
    const outputFile = join(dir, 'nested', 'deeper', 'junit.xml');
    const run = { target: INFO.target, specVersion: INFO.specVersion, seed: 1 };
    const reporter = new JUnitReporter({ ...run, outputFile });
    await reporter.report(finishResults(collectResults([moduleOf(RESULTS.cells.slice(0, 3))], [], 'failed')), { ...run, startedAt: INFO.startedAt, durationMs: INFO.durationMs });
    const root = parseXml(await readFile(outputFile, 'utf8'));
    expect(root.attributes).toMatchObject({ tests: '3', failures: '1', skipped: '1', errors: '0' });
    // The durations come from vitest's diagnostic of each test.
    expect(childrenNamed(childrenNamed(root, 'testsuite')[0]!, 'testcase').map((c) => c.attributes['time'])).toEqual(['1.234', '0.02', '0']);
  });

  test('an unwritable path is a CNF_ERR_CONFIG_INVALID harness error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cnf-junit-'));
    dirs.push(dir);
    const reporter = new JUnitReporter({ ...INFO, outputFile: join(dir, 'nul\u0000', 'junit.xml') });
    await expect(reporter.report(finishResults(collectResults([], [], 'passed')), INFO)).rejects.toMatchObject({ name: 'HarnessError', code: 'CNF_ERR_CONFIG_INVALID' });
  });
});
