import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { startVitest, type Reporter, type SerializedError, type TestModule } from 'vitest/node';
import type { CellMeta } from '../../core/types.js';
import { collectResults, exitCodeFor, summarize, type HarnessProblem, type RunResults } from '../../engine/results.js';
import { cell, failure, skipped } from '../reporters/fixtures/cells.js';
import { fakeModule, type FakeTest } from '../reporters/fixtures/modules.js';

const PASSED = cell('products:list', 'status_code_conformance');
const FAILED = cell('products:list', 'content_type_conformance', { failures: [failure({ checkId: 'content_type_conformance' })] });
const SKIPPED = skipped('products:list', 'ignored_auth', 'needs role other_org');
const WHERE = 'products:list > a test';
const NOT_APPLICABLE: CellMeta = { operationId: 'products:get', checkId: 'pages_disjoint_and_complete', status: 'not_applicable', cases: 0, failures: [], skipReason: 'not a paginated list' };
const NOT_APPLICABLE_TOO: CellMeta = { ...NOT_APPLICABLE, operationId: 'orders:get' };

describe('collectResults, one test case', () => {
  const table: [string, { given: Omit<FakeTest, 'fullName'>; want: { cells: CellMeta[]; errors: HarnessProblem[] } }][] = [
    ['passed test, passed cell', { given: { state: 'passed', meta: PASSED }, want: { cells: [PASSED], errors: [] } }],
    ['passed test, failed cell (failures as data)', { given: { state: 'passed', meta: FAILED }, want: { cells: [FAILED], errors: [] } }],
    ['failed test, failed cell', {
      given: { state: 'failed', meta: FAILED, errors: [{ message: '1 failure', name: 'AssertionError' }] },
      want: { cells: [FAILED], errors: [] },
    }],
    ['skipped test, skipped cell', { given: { state: 'skipped', meta: SKIPPED, note: 'needs role other_org' }, want: { cells: [SKIPPED], errors: [] } }],
    ['skipped test, failed cell keeps its failures', { given: { state: 'skipped', meta: FAILED }, want: { cells: [FAILED], errors: [] } }],
    ['skipped test, passed cell becomes skipped with the note', {
      given: { state: 'skipped', meta: PASSED, note: 'target is read-only' },
      want: { cells: [{ ...PASSED, status: 'skipped', skipReason: 'target is read-only' }], errors: [] },
    }],
    ['failed test, passed cell: error, no cell', {
      given: { state: 'failed', meta: PASSED, errors: [{ message: 'boom' }] },
      want: { cells: [], errors: [{ where: WHERE, message: 'the test failed but its cell status_code_conformance on products:list says passed: boom' }] },
    }],
    ['failed test, skipped cell: error, no cell', {
      given: { state: 'failed', meta: SKIPPED, errors: [{ message: 'boom', name: 'TypeError' }] },
      want: { cells: [], errors: [{ where: WHERE, message: 'the test failed but its cell ignored_auth on products:list says skipped: TypeError: boom' }] },
    }],
    ['failed test without a cell: error with the code', {
      given: { state: 'failed', errors: [{ message: 'the target did not answer', name: 'HarnessError', code: 'CNF_ERR_TARGET_UNREACHABLE', stack: 'HarnessError: …' }] },
      want: { cells: [], errors: [{ where: WHERE, message: 'the target did not answer', code: 'CNF_ERR_TARGET_UNREACHABLE', stack: 'HarnessError: …' }] },
    }],
    ['failed test without a cell or errors', {
      given: { state: 'failed', errors: [] },
      want: { cells: [], errors: [{ where: WHERE, message: 'the test failed without recording its cell' }] },
    }],
    ['passed cell carrying failures: error, no cell', {
      given: { state: 'passed', meta: { ...PASSED, failures: [failure()] } },
      want: { cells: [], errors: [{ where: WHERE, message: 'the cell status_code_conformance on products:list says passed but carries 1 failure(s)' }] },
    }],
    ['passed test without a cell: ignored', { given: { state: 'passed' }, want: { cells: [], errors: [] } }],
    ['skipped test without a cell: ignored', { given: { state: 'skipped' }, want: { cells: [], errors: [] } }],
    ['pending test: ignored', { given: { state: 'pending', meta: PASSED }, want: { cells: [], errors: [] } }],
    ['passed test recording the cells of checks that do not apply: those cells', {
      given: { state: 'passed', inapplicable: [NOT_APPLICABLE, NOT_APPLICABLE_TOO] },
      want: { cells: [NOT_APPLICABLE, NOT_APPLICABLE_TOO], errors: [] },
    }],
    ['pending test with the cells of checks that do not apply: ignored', { given: { state: 'pending', inapplicable: [NOT_APPLICABLE] }, want: { cells: [], errors: [] } }],
  ];

  test.each(table)('%s', (_name, { given, want }) => {
    expect(collectResults([fakeModule([{ fullName: WHERE, ...given }])])).toEqual(want);
  });
});

describe('collectResults, around the tests', () => {
  test('suite and module errors, unhandled errors and an interrupted run are errors', () => {
    const module = fakeModule(
      [{ fullName: 'orders:list > status', state: 'skipped' }],
      [{ fullName: 'orders:list', errors: [{ message: 'beforeAll threw', code: 'CNF_ERR_TARGET_UNREACHABLE' }] }],
      [{ message: 'SyntaxError in module', name: 'SyntaxError' }],
    );
    const results = collectResults([module], [{ message: 'late rejection' }], 'interrupted');
    expect(results).toEqual({
      cells: [],
      errors: [
        { where: 'suites/fake.suite.ts', message: 'SyntaxError: SyntaxError in module' },
        { where: 'orders:list', message: 'beforeAll threw', code: 'CNF_ERR_TARGET_UNREACHABLE' },
        { where: 'unhandled error', message: 'late rejection' },
        { where: 'run', message: 'the run was interrupted before every test finished; the matrix is incomplete' },
      ],
    });
  });

  test('cells keep run order across modules', () => {
    const a = cell('a:list', 'x');
    const b = cell('b:list', 'x');
    const c = cell('a:list', 'y');
    const results = collectResults([
      fakeModule([{ fullName: '1', state: 'passed', meta: a }, { fullName: '2', state: 'passed', meta: b }]),
      fakeModule([{ fullName: '3', state: 'passed', meta: c }]),
    ]);
    expect(results.cells).toEqual([a, b, c]);
  });
});

describe('exitCodeFor', () => {
  const table: [string, { given: RunResults; want: 0 | 1 | 2 }][] = [
    ['no cells', { given: { cells: [], errors: [] }, want: 0 }],
    ['passed and skipped', { given: { cells: [PASSED, SKIPPED], errors: [] }, want: 0 }],
    ['a failed cell', { given: { cells: [PASSED, FAILED], errors: [] }, want: 1 }],
    ['an error', { given: { cells: [PASSED], errors: [{ where: 'run', message: 'x' }] }, want: 2 }],
    // docs/design.md (Command line): a harness error never hides a failure.
    ['a failure wins over an error', { given: { cells: [FAILED], errors: [{ where: 'run', message: 'x' }] }, want: 1 }],
    ['an errored cell', { given: { cells: [PASSED, { ...PASSED, status: 'errored', error: { code: 'CNF_ERR_RUNNER', message: 'x' } }], errors: [] }, want: 2 }],
    ['a failure wins over an errored cell', { given: { cells: [FAILED, { ...PASSED, status: 'errored', error: { code: 'CNF_ERR_RUNNER', message: 'x' } }], errors: [] }, want: 1 }],
    ['not applicable only', { given: { cells: [{ ...PASSED, status: 'not_applicable', skipReason: 'not a list' }], errors: [] }, want: 0 }],
  ];
  test.each(table)('%s', (_name, { given, want }) => {
    expect(exitCodeFor(given)).toBe(want);
  });

  const withCoverage: [string, { given: RunResults; below: ('operations' | 'statuses' | 'parameters')[]; want: 0 | 1 | 2 }][] = [
    ['coverage met', { given: { cells: [PASSED], errors: [] }, below: [], want: 0 }],
    ['coverage below the minimum, no failure', { given: { cells: [PASSED, SKIPPED], errors: [] }, below: ['statuses'], want: 1 }],
    ['coverage below and a failed cell', { given: { cells: [FAILED], errors: [] }, below: ['operations'], want: 1 }],
    ['an error wins over coverage', { given: { cells: [PASSED], errors: [{ where: 'run', message: 'x' }] }, below: ['parameters'], want: 2 }],
  ];
  test.each(withCoverage)('with coverage: %s', (_name, { given, below, want }) => {
    expect(exitCodeFor(given, { belowMinimum: below })).toBe(want);
  });
});

describe('summarize', () => {
  test('counts cells, occurrences, operations, checks, cases and errors', () => {
    const twoFailures = cell('orders:list', 'content_type_conformance', {
      failures: [failure({ operationId: 'orders:list' }), failure({ operationId: 'orders:list' })],
      cases: 7,
    });
    expect(summarize({ cells: [PASSED, FAILED, SKIPPED, twoFailures], errors: [{ where: 'run', message: 'x' }] })).toEqual({
      passed: 1, failed: 2, skipped: 1, not_applicable: 0, errored: 0, skippedBy: { role: 0, fixture: 0, adapter: 0, option: 0, unknown: 1 }, errors: 1, failures: 3, operations: 2, checks: 3, cases: 27,
    });
  });

  test('counts skipped cells by what is missing, apart from not-applicable ones', () => {
    const cells = [
      cell('a', 'x', { status: 'skipped', skipKind: 'role', cases: 0 }),
      cell('a', 'y', { status: 'skipped', skipKind: 'role', cases: 0 }),
      cell('a', 'z', { status: 'skipped', skipKind: 'option', cases: 0 }),
      cell('b', 'x', { status: 'skipped', skipKind: 'adapter', cases: 0 }),
      cell('b', 'y', { status: 'not_applicable', skipReason: 'not a list', cases: 0 }),
      cell('b', 'z', { status: 'errored', error: { code: 'CNF_ERR_ADAPTER', message: 'm' }, cases: 0 }),
    ];
    expect(summarize({ cells, errors: [] })).toMatchObject({ skipped: 4, not_applicable: 1, errored: 1, skippedBy: { role: 2, fixture: 0, adapter: 1, option: 1, unknown: 0 } });
  });
});

describe('collectResults on a real vitest run', () => {
  test('reads the cells and problems of test/reporters/fixtures/suite', async () => {
    let finished: readonly TestModule[] = [];
    let unhandled: readonly SerializedError[] = [];
    const capture: Reporter = {
      onTestRunEnd(testModules, unhandledErrors) {
        finished = testModules;
        unhandled = unhandledErrors;
      },
    };
    // startVitest sets process.exitCode for the fixture's failing tests; this worker's must not change.
    const exitCode = process.exitCode;
    const vitest = await startVitest([], {
      root: fileURLToPath(new URL('../reporters/fixtures/suite/', import.meta.url)),
      config: false,
      include: ['**/*.fixture.ts'],
      watch: false,
      reporters: [capture],
    });
    await vitest.close();
    process.exitCode = exitCode;

    const results = collectResults(finished, unhandled);
    expect(results.cells.map((c) => [c.operationId, c.checkId, c.status, c.skipReason])).toEqual([
      ['products:list', 'status_code_conformance', 'passed', undefined],
      ['products:list', 'ignored_auth', 'skipped', 'needs role other_org'],
      ['products:list', 'content_type_conformance', 'failed', undefined],
    ]);
    expect(results.errors.map(({ where, message, code }) => ({ where, message, code }))).toEqual([
      { where: 'orders:list', message: 'the target did not answer', code: 'CNF_ERR_TARGET_UNREACHABLE' },
      {
        where: 'products:list > says passed but throws',
        message: 'the test failed but its cell response_schema_conformance on products:list says passed: assertion in the suite itself',
        code: undefined,
      },
      { where: 'products:list > throws before recording', message: 'connect ECONNREFUSED 127.0.0.1:9', code: 'ECONNREFUSED' },
    ]);
    // The failed cell wins over the harness problems (docs/design.md, Command line: an error never hides a failure).
    expect(exitCodeFor(results)).toBe(1);
  });
});
