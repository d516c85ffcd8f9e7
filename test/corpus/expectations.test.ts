// The corpus expectations (test/corpus/expectations.json) stay honest: every entry names a corpus
// document, a check that exists and a reason; and the comparison flags what is new and what was not seen.
import { describe, expect, test } from 'vitest';
import { CHECK_IDS } from '../../checks/index.js';
import { compareWithExpectations, CORPUS, readExpectations, type CorpusOutcome } from './corpus.js';

const outcome = (document: string, mode: 'static' | 'dynamic', failures: [string, string, string][]): CorpusOutcome => ({
  document,
  mode,
  exitCode: failures.length ? 1 : 0,
  harnessErrors: [],
  failures: failures.map(([operationId, checkId, kind]) => ({ document, mode, operationId, checkId, kind })),
  cells: { passed: 0, failed: failures.length, skipped: 0, notApplicable: 0, errored: 0 },
  seconds: 0,
});

describe('expectations.json', () => {
  const expected = readExpectations();

  test('every entry names a corpus document, a check, a kind and a reason', () => {
    expect(expected.length).toBeGreaterThan(0);
    for (const e of expected) {
      expect(CORPUS.map((d) => d.id), JSON.stringify(e)).toContain(e.document);
      expect(CHECK_IDS, JSON.stringify(e)).toContain(e.checkId);
      expect(e.kind, JSON.stringify(e)).toMatch(/^[a-z_]+$/);
      expect(e.reason.length, JSON.stringify(e)).toBeGreaterThan(40);
      expect(e.mode === undefined || e.mode === 'static' || e.mode === 'dynamic').toBe(true);
    }
  });

  test('no entry excuses the harness: every reason names a fault of the mock or of the document', () => {
    for (const e of expected) expect(e.reason, JSON.stringify(e)).toMatch(/Prism|document/);
  });
});

describe('compareWithExpectations', () => {
  const expectations = [
    { document: 'petstore', operationId: '*', checkId: 'invalid_auth_rejected', kind: 'ignored_auth', reason: 'Prism checks presence only.' },
    { document: 'rebilly', mode: 'dynamic' as const, operationId: 'GetSubscriptionCollection', checkId: 'not_a_server_error', kind: 'server_error', reason: 'Prism -d crashes.' },
  ];

  test('a listed failure passes, in the listed mode only; an unlisted one is unexpected', () => {
    const { unexpected } = compareWithExpectations(
      [
        outcome('petstore', 'static', [['getPetById', 'invalid_auth_rejected', 'ignored_auth'], ['getPetById', 'status_code_conformance', 'undocumented_status_code']]),
        outcome('rebilly', 'static', [['GetSubscriptionCollection', 'not_a_server_error', 'server_error']]),
        outcome('rebilly', 'dynamic', [['GetSubscriptionCollection', 'not_a_server_error', 'server_error']]),
      ],
      expectations,
    );
    expect(unexpected.map((f) => `${f.document} ${f.mode} ${f.operationId} ${f.checkId}`)).toEqual([
      'petstore static getPetById status_code_conformance',
      'rebilly static GetSubscriptionCollection not_a_server_error',
    ]);
  });

  test('an expectation of a document and mode that ran and showed nothing is reported unseen', () => {
    const { unseen } = compareWithExpectations([outcome('petstore', 'dynamic', []), outcome('rebilly', 'static', [])], expectations);
    expect(unseen.map((e) => e.document)).toEqual(['petstore']);
  });
});
