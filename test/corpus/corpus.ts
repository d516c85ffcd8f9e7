/**
 * The corpus: third-party OpenAPI documents that ship inside npm packages, each mocked with Prism
 * (static and dynamic mode) and run through the harness. A run against a mock must end without a
 * harness error, and every failure that remains must be one listed in `expectations.json` with the
 * reason (a known fault of Prism's mock), so that a new failure, caused by the harness or not, is
 * noticed. Used by `npm run corpus` (test/corpus/run.ts).
 * @see README.md (npm run corpus); docs/decisions.md (Any OpenAPI document)
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { schemaArbitrary } from '../../generators/schema-value.js';
import { fixtureName } from '../../core/operation-needs.js';
import { runConformance, type RunOutcome } from '../../cli/run.js';
import { loadSpec, type LoadedSpec, type Parameter } from '../../core/spec/load.js';
import { startPrism, type PrismMode } from '../support/prism.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

export type { PrismMode };

/** One document of the corpus: which package ships it, where, and how much of it a run covers. */
export interface CorpusDocument {
  /** Short stable name, used in expectations (`rebilly`). */
  id: string;
  /** Who wrote the API and who ships the document. */
  source: string;
  /** npm package that ships the document (a devDependency of this project, pinned). */
  package: string;
  /** Path of the document inside the package. */
  file: string;
  /** The OpenAPI version the document declares (major.minor). */
  openapi: '3.0' | '3.1';
  /**
   * The operations a run covers, when not every one: large documents are run in part so that the
   * corpus stays within its time budget. Chosen to cover recursive schemas, lookaround patterns,
   * enums in paths, non-JSON responses and the like, the things that broke before.
   */
  operations?: string[];
}

/**
 * The documents, from eight authors (SmartBear, Bump.sh, Scalar, Figma, ReadMe, the USPTO,
 * Rebilly; ReadMe's schema examples), OpenAPI 3.0 and 3.1, 2 to 356 operations. Large documents
 * (Figma, ReadMe, Rebilly) run the subset of their operations named in `operations`, to keep the
 * corpus within its time budget.
 */
export const CORPUS: readonly CorpusDocument[] = [
  {
    id: 'petstore',
    source: 'Swagger Petstore (SmartBear), OpenAPI 3.0.0, as shipped by ReadMe in @readme/oas-examples',
    package: '@readme/oas-examples',
    file: '3.0/yaml/petstore.yaml',
    openapi: '3.0',
  },
  {
    id: 'train-travel',
    source: 'Train Travel API (Bump.sh), OpenAPI 3.1.0, as shipped by ReadMe in @readme/oas-examples',
    package: '@readme/oas-examples',
    file: '3.1/yaml/train-travel.yaml',
    openapi: '3.1',
  },
  {
    id: 'galaxy',
    source: 'Scalar Galaxy (Scalar), OpenAPI 3.1.1, @scalar/galaxy',
    package: '@scalar/galaxy',
    file: 'dist/3.1.yaml',
    openapi: '3.1',
  },
  {
    id: 'figma',
    source: 'Figma REST API (Figma), OpenAPI 3.1.0, @figma/rest-api-spec',
    package: '@figma/rest-api-spec',
    file: 'openapi/openapi.yaml',
    openapi: '3.1',
    // 54 operations; these 8: images, comments, variables, webhooks (Prism is slow on this document:
    // about 3 s per operation). Not getFile and getFileNodes: Prism takes 45 to 85 s (timeouts) to
    // mock their recursive document tree.
    operations: ['getImages', 'getFileMeta', 'getComments', 'postComment', 'getMe', 'getLocalVariables', 'postVariables', 'putWebhook'],
  },
  {
    id: 'readme',
    source: 'ReadMe API (ReadMe), OpenAPI 3.1.0, @readme/oas-examples',
    package: '@readme/oas-examples',
    file: '3.1/yaml/readme.yaml',
    openapi: '3.1',
    // 54 operations; these 14: API keys, specifications (multipart uploads), categories, changelogs, branches.
    operations: ['getAPIKeys', 'createAPIKey', 'getAPIKey', 'updateAPIKey', 'getAPIs', 'createAPI', 'getCategories', 'getCategory', 'createCategory', 'getChangelogs', 'updateChangelog', 'getProject', 'getBranches', 'deleteBranch'],
  },
  {
    id: 'uspto',
    source: 'USPTO Data Set API (United States Patent and Trademark Office), OpenAPI 3.0.1, @readme/oas-examples',
    package: '@readme/oas-examples',
    file: '3.0/yaml/uspto.yaml',
    openapi: '3.0',
  },
  {
    id: 'rebilly',
    source: 'Rebilly combined API (Rebilly), OpenAPI 3.0.3, 356 operations, shipped by Redocly in @redocly/openapi-core (src/benchmark)',
    package: '@redocly/openapi-core',
    file: 'src/benchmark/benches/rebilly.yaml',
    openapi: '3.0',
    // 356 operations; these 23: customers (non-exploded sort arrays, text/csv answers), invoices, KYC documents (oneOf bodies),
    // timelines (maps), attachments, bank accounts, 3-D Secure, authentication tokens.
    operations: [
      'GetCustomerCollection', 'PostCustomer', 'GetCustomer', 'PutCustomer', 'GetCustomerTimelineEventCollection', 'GetInvoiceCollection', 'GetInvoice',
      'PostInvoice', 'GetKycDocumentCollection', 'PostKycDocumentRejection', 'GetAttachmentCollection', 'PostAttachment', 'GetAttachment', 'DeleteAttachment',
      'GetBankAccountCollection', 'PostBankAccount', 'PatchBankAccount', 'Get3DSecureCollection', 'Post3DSecure', 'GetAuthenticationTokenCollection',
      'PostAuthenticationToken', 'GetAuthenticationTokenVerification', 'GetPlanCollection',
    ],
    // Not GetSubscriptionCollection: Prism -d answers it 500 now and then (its faker fails on the
    // Subscription schema), which would fail whichever check drew the 500.
  },
  {
    id: 'readme-circular',
    source: 'ReadMe schema examples (ReadMe): recursive schemas, OpenAPI 3.0.3, @readme/oas-examples',
    package: '@readme/oas-examples',
    file: '3.0/yaml/schema-circular.yaml',
    openapi: '3.0',
  },
  {
    id: 'readme-discriminators',
    source: 'ReadMe schema examples (ReadMe): discriminators, OpenAPI 3.0.3, @readme/oas-examples',
    package: '@readme/oas-examples',
    file: '3.0/yaml/discriminators.yaml',
    openapi: '3.0',
  },
];


/** Absolute path of a corpus document. */
export function documentPath(doc: CorpusDocument): string {
  return path.join(ROOT, 'node_modules', doc.package, doc.file);
}

/** The first example a parameter documents (its `example`, `examples`, or its schema's). */
function parameterExample(raw: Record<string, any> | undefined, param: Parameter): unknown {
  if (raw?.example !== undefined) return raw.example;
  const examples = raw?.examples && typeof raw.examples === 'object' ? Object.values<any>(raw.examples) : [];
  if (examples[0]?.value !== undefined) return examples[0].value;
  const schema = param.schema;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  return undefined;
}

/**
 * Fixtures for every path parameter of the document's operations, named as the harness looks
 * them up (engine/operation-inputs.ts, `fixtureName`): the parameter's example or default, else
 * a value drawn from its schema with a fixed seed. A mock accepts any value its schema does.
 */
export function mockFixtures(spec: LoadedSpec): Record<string, string> {
  const fixtures: Record<string, string> = {};
  for (const operation of spec.operations) {
    const raws: Record<string, any>[] = [...(spec.document.paths?.[operation.path]?.parameters ?? []), ...(operation.raw.parameters ?? [])];
    for (const param of operation.parameters) {
      if (param.in !== 'path') continue;
      const name = fixtureName(operation, param);
      if (fixtures[name] !== undefined) continue;
      const raw = raws.find((p) => p?.name === param.name && p?.in === 'path');
      let value = parameterExample(raw, param);
      if (value === undefined || (typeof value === 'object' && value !== null)) {
        try {
          [value] = fc.sample(schemaArbitrary(param.schema, { direction: 'request' }), { seed: 1, numRuns: 1 });
        } catch {
          value = '1';
        }
      }
      fixtures[name] = String(value);
    }
  }
  return fixtures;
}

/** A failure of a corpus run, as the expectations list it. */
export interface CorpusFailure {
  document: string;
  mode: PrismMode;
  operationId: string;
  checkId: string;
  kind: string;
  /** The first failure's message, for people (not compared). */
  message?: string;
}

/**
 * An expected failure: a known fault of the mock (or of the document's own examples), with the
 * reason; `operationId` `*` for a fault Prism has on every operation of the document.
 */
export interface Expectation extends Omit<CorpusFailure, 'mode' | 'message'> {
  /** Both modes when absent. */
  mode?: PrismMode;
  reason: string;
}

/** What one document in one mode gave. */
export interface CorpusOutcome {
  document: string;
  mode: PrismMode;
  exitCode: number;
  /** Harness errors of the run and errored cells: each must be zero. */
  harnessErrors: string[];
  failures: CorpusFailure[];
  cells: { passed: number; failed: number; skipped: number; notApplicable: number; errored: number };
  seconds: number;
}

/** Options of {@link runCorpusDocument}. */
export interface CorpusRunOptions {
  seed: number;
  /** Generated cases per operation and check (keep it small: the corpus runs in CI). */
  runs: number;
}

/**
 * Mocks a document with Prism in one mode and runs the harness's generic suites against it, its
 * writes included (each judged like a read; the stateful ones are not applicable to another API's
 * document), then stops the mock.
 */
export async function runCorpusDocument(doc: CorpusDocument, mode: PrismMode, options: CorpusRunOptions): Promise<CorpusOutcome> {
  const started = performance.now();
  const file = documentPath(doc);
  const spec = await loadSpec(file);
  const missing = (doc.operations ?? []).filter((id) => !spec.operations.some((o) => o.operationId === id));
  if (missing.length) throw new Error(`${doc.id}: no operation ${missing.join(', ')} in ${doc.package}/${doc.file}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'cnf-corpus-'));
  const config = path.join(dir, 'conformance.config.json');
  writeFileSync(config, JSON.stringify({ roles: { admin: { tokenEnv: 'CORPUS_TOKEN' } }, fixtures: mockFixtures(spec) }));
  const mock = await startPrism(file, mode);
  let outcome: RunOutcome;
  try {
    outcome = await runConformance({
      target: mock.url,
      spec: file,
      config,
      seed: options.seed,
      runs: options.runs,
      rate: 0,
      suites: ['exchange', 'pagination', 'negative', 'auth', 'writes'],
      ...(doc.operations ? { operations: doc.operations } : {}),
      reporters: [],
      out: new Writable({ write: (_c, _e, done) => done() }),
      env: { CORPUS_TOKEN: 'corpus-token' },
    });
  } finally {
    await mock.stop();
  }
  const { cells, errors } = outcome.results;
  const count = (status: string) => cells.filter((c) => c.status === status).length;
  return {
    document: doc.id,
    mode,
    exitCode: outcome.exitCode,
    harnessErrors: [
      ...errors.map((e) => `${e.where}: ${e.message}`),
      ...cells.filter((c) => c.status === 'errored').map((c) => `${c.operationId} ${c.checkId}: ${c.error?.code} ${c.error?.message}`),
    ],
    failures: cells
      .filter((c) => c.status === 'failed')
      .flatMap((c) => [...new Set(c.failures.map((f) => f.kind))].map((kind) => ({ document: doc.id, mode, operationId: c.operationId, checkId: c.checkId, kind, message: `${c.failures.find((f) => f.kind === kind)?.message ?? ''} [${c.failures.find((f) => f.kind === kind)?.request.method} ${c.failures.find((f) => f.kind === kind)?.request.url}]` }))),
    cells: { passed: count('passed'), failed: count('failed'), skipped: count('skipped'), notApplicable: count('not_applicable'), errored: count('errored') },
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

/** The committed expectations file. */
export const EXPECTATIONS_FILE = path.join(import.meta.dirname, 'expectations.json');

/** Reads the committed expectations. */
export function readExpectations(file = EXPECTATIONS_FILE): Expectation[] {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { expected: Expectation[] };
  return parsed.expected;
}

function matches(expectation: Expectation, failure: CorpusFailure): boolean {
  return (
    expectation.document === failure.document &&
    (expectation.mode === undefined || expectation.mode === failure.mode) &&
    (expectation.operationId === '*' || expectation.operationId === failure.operationId) &&
    expectation.checkId === failure.checkId &&
    expectation.kind === failure.kind
  );
}

/**
 * Compares the failures of corpus runs with the expectations: `unexpected` failures (new: the run
 * fails), and `unseen` expectations of the documents and modes that ran (a Prism answer drawn at
 * random in dynamic mode need not recur; reported, not failing).
 */
export function compareWithExpectations(outcomes: readonly CorpusOutcome[], expectations: readonly Expectation[]): { unexpected: CorpusFailure[]; unseen: Expectation[] } {
  const failures = outcomes.flatMap((o) => o.failures);
  const ran = new Set(outcomes.map((o) => `${o.document} ${o.mode}`));
  return {
    unexpected: failures.filter((f) => !expectations.some((e) => matches(e, f))),
    unseen: expectations.filter(
      (e) => (['static', 'dynamic'] as const).some((m) => (e.mode ?? m) === m && ran.has(`${e.document} ${m}`)) && !failures.some((f) => matches(e, f)),
    ),
  };
}
