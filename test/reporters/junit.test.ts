import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { KNOWN_EDGES } from '../../checks/stateful/transitions.js';
import { computeCoverage } from '../../reporters/coverage.js';
import { JUnitReporter, renderJUnit, TRANSITIONS_SUITE } from '../../reporters/junit.js';
import type { LoadedSpec } from '../../spec/load.js';
import type { RunResults } from '../../reporters/results.js';
import { cell, failure, INFO, skipped, stateful } from './fixtures/cells.js';
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
      failures: [failure(), failure({ caseId: 'products:list#2', title: 'Second title', message: 'Received 502 & <html>.', reproduce: { curl: "curl 'http://127.0.0.1:4010/v1/products/?page=0'", seed: 42, path: '3' } })],
    }),
    cell('products:list', 'response_schema_conformance'),
    skipped('products:list', 'ignored_auth', 'needs role "other_org" <missing>'),
    cell('orders:list', 'status_code_conformance'),
    cell('orders:list', 'content_type_conformance', { status: 'failed' }),
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

  test('root and suites carry the counts', () => {
    const root = parsed();
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toMatchObject({ name: 'Conformance run', tests: '6', failures: '2', errors: '1', skipped: '1' });
    const counts = childrenNamed(root, 'testsuite').map((s) => [s.attributes['name'], s.attributes['tests'], s.attributes['failures'], s.attributes['errors'], s.attributes['skipped']]);
    expect(counts).toEqual([
      ['products:list', '3', '1', '0', '1'],
      ['orders:list', '2', '1', '0', '0'],
      ['harness', '1', '0', '1', '0'],
    ]);
  });

  test('operation suites carry the run properties and a timestamp', () => {
    const suite = childrenNamed(parsed(), 'testsuite')[0]!;
    expect(suite.attributes['timestamp']).toBe('2026-11-22T05:00:00');
    const properties = childrenNamed(suite, 'properties')[0]!.children.map((p) => [p.attributes['name'], p.attributes['value']]);
    expect(properties).toEqual([['target', 'http://127.0.0.1:4010'], ['spec_version', '2026-10'], ['seed', '42']]);
  });

  const table: [string, { suite: string; name: string; want: { classname: string; children: string[] } }][] = [
    ['passed cell', { suite: 'products:list', name: 'response_schema_conformance', want: { classname: 'products:list', children: [] } }],
    ['failed cell', { suite: 'products:list', name: 'status_code_conformance', want: { classname: 'products:list', children: ['failure'] } }],
    ['skipped cell', { suite: 'products:list', name: 'ignored_auth', want: { classname: 'products:list', children: ['skipped'] } }],
    ['failed cell without failures', { suite: 'orders:list', name: 'content_type_conformance', want: { classname: 'orders:list', children: ['failure'] } }],
    ['harness error', { suite: 'harness', name: 'files:create > upload', want: { classname: 'harness', children: ['error'] } }],
  ];
  test.each(table)('%s: one testcase named by check id, classname = operation', (_name, { suite, name, want }) => {
    const element = testCase(parsed(), suite, name);
    expect(element.attributes['classname']).toBe(want.classname);
    expect(element.children.map((c) => c.name)).toEqual(want.children);
  });

  test('a failure holds the first title and kind, and every failure with its reproducer', () => {
    const element = childrenNamed(testCase(parsed(), 'products:list', 'status_code_conformance'), 'failure')[0]!;
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
    const element = childrenNamed(testCase(parsed(), 'products:list', 'ignored_auth'), 'skipped')[0]!;
    expect(element.attributes['message']).toBe('needs role "other_org" <missing>');
  });

  test('a harness error carries its code, message and stack', () => {
    const element = childrenNamed(testCase(parsed(), 'harness', 'files:create > upload'), 'error')[0]!;
    expect(element.attributes).toEqual({ message: 'the target did not answer', type: 'CNF_ERR_TARGET_UNREACHABLE' });
    expect(element.text).toBe('HarnessError: the target did not answer\n    at probe');
  });

  test('with coverage, a coverage suite: one test case per measure, failed when below the minimum', () => {
    const cells = [cell('products:list', 'a', { observed: { statuses: [200], parameters: ['query:limit', 'query:page', 'query:metadata'] } })];
    const root = parseXml(renderJUnit({ cells, errors: [] }, INFO, computeCoverage(spec, cells, 50)));
    const suite = childrenNamed(root, 'testsuite').at(-1)!;
    expect(suite.attributes).toMatchObject({ name: 'coverage', tests: '3', failures: '2' });
    const cases = childrenNamed(suite, 'testcase').map((c) => ({
      name: c.attributes['name'],
      classname: c.attributes['classname'],
      out: childrenNamed(c, 'system-out')[0]?.text,
      failure: childrenNamed(c, 'failure').map((f) => [f.attributes['type'], f.attributes['message']])[0],
    }));
    expect(cases).toEqual([
      { name: 'operations', classname: 'coverage', out: 'operations 1/3 (33.3%)', failure: ['coverage_below_minimum', 'operations 1/3 (33.3%) is below the minimum of 50%'] },
      { name: 'statuses', classname: 'coverage', out: 'statuses 1/7 (14.2%)', failure: ['coverage_below_minimum', 'statuses 1/7 (14.2%) is below the minimum of 50%'] },
      { name: 'parameters', classname: 'coverage', out: 'parameters 3/5 (60.0%)', failure: undefined },
    ]);
    expect(parseXml(renderJUnit({ cells, errors: [] }, INFO, computeCoverage(spec, cells))).attributes).toMatchObject({ tests: '4', failures: '0' });
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

    function transitionSuite(results: RunResults = STATEFUL): XmlElement | undefined {
      return childrenNamed(parsed(results), 'testsuite').find((s) => s.attributes['name'] === TRANSITIONS_SUITE);
    }

    test('a last suite with one test case per edge of the tables, unexercised ones skipped, none failed', () => {
      const root = parsed(STATEFUL);
      expect(childrenNamed(root, 'testsuite').at(-1)?.attributes).toMatchObject({
        name: 'transition coverage',
        tests: String(KNOWN_EDGES.size + 1),
        failures: '0',
        errors: '0',
        skipped: String(KNOWN_EDGES.size - EXERCISED.length),
      });
      expect(childrenNamed(transitionSuite()!, 'testcase').map((c) => c.attributes['name'])).toEqual([...KNOWN_EDGES, 'order: paid→refunded']);
    });

    const edges: [string, { classname: string; want: 'passed' | 'skipped' }][] = [
      ['order: pending→paid', { classname: 'order', want: 'passed' }],
      ['customer: active→deleted', { classname: 'customer', want: 'passed' }],
      ['seat: pending→revoked', { classname: 'seat', want: 'passed' }],
      ['seat: pending→claimed', { classname: 'seat', want: 'skipped' }],
      ['subscription: active→canceled', { classname: 'subscription', want: 'skipped' }],
      ['file: pending→uploaded', { classname: 'file', want: 'skipped' }],
    ];
    test.each(edges)('%s: classname the machine, passed when exercised, else skipped', (edge, { classname, want }) => {
      const element = testCase(parsed(STATEFUL), TRANSITIONS_SUITE, edge);
      expect(element.attributes['classname']).toBe(classname);
      expect(element.children.map((c) => [c.name, c.attributes['message']])).toEqual(want === 'passed' ? [] : [['skipped', 'not exercised by the stateful suites']]);
    });

    test('an edge no table has is a passed test case that says so', () => {
      const element = testCase(parsed(STATEFUL), TRANSITIONS_SUITE, 'order: paid→refunded');
      expect(element.children.map((c) => [c.name, c.text])).toEqual([['system-out', 'order: paid→refunded was recorded by a stateful scenario but is in no transition table of the reference']]);
    });

    test('no stateful cell, no transition coverage suite', () => {
      expect(transitionSuite(RESULTS)).toBeUndefined();
      expect(renderJUnit(RESULTS, INFO)).not.toContain('transition coverage');
    });
  });

  test('no errors, no harness suite; no cells, an empty root', () => {
    expect(childrenNamed(parsed({ cells: RESULTS.cells, errors: [] }), 'testsuite').map((s) => s.attributes['name'])).toEqual(['products:list', 'orders:list']);
    expect(parsed({ cells: [], errors: [] }).attributes).toMatchObject({ tests: '0', failures: '0' });
  });

  test('characters XML cannot carry are dropped, and "]]>" in text stays readable', () => {
    const nasty = failure({ message: 'body had \u0000NUL, \u001bESC and ]]> inside', title: 'Bad \u0007bell' });
    const root = parsed({ cells: [cell('a', 'x', { failures: [nasty] })], errors: [] });
    const element = childrenNamed(testCase(root, 'a', 'x'), 'failure')[0]!;
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
    const reporter = new JUnitReporter({ target: INFO.target, specVersion: INFO.specVersion, seed: 1, outputFile });
    reporter.onTestRunStart();
    await reporter.onTestRunEnd([moduleOf(RESULTS.cells.slice(0, 3))], [], 'failed');
    const root = parseXml(await readFile(outputFile, 'utf8'));
    expect(root.attributes).toMatchObject({ tests: '3', failures: '1', skipped: '1', errors: '0' });
  });

  test('an unwritable path is a CNF_ERR_CONFIG_INVALID harness error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cnf-junit-'));
    dirs.push(dir);
    const reporter = new JUnitReporter({ ...INFO, outputFile: join(dir, 'nul\u0000', 'junit.xml') });
    await expect(reporter.onTestRunEnd([], [], 'passed')).rejects.toMatchObject({ name: 'HarnessError', code: 'CNF_ERR_CONFIG_INVALID' });
  });
});
