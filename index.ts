/**
 * The library API of `billing-api-conformance`: everything the `conformance` command does, as
 * functions a test or a script can call (docs/architecture.md, Floors: the CLI is a thin client of the library).
 *
 * - {@link runConformance}: the conformance run (`conformance run`), returning the exit code,
 *   the cells, the coverage and the seed; throws `HarnessError` (`CNF_ERR_*`) for bad options.
 * - {@link startReferenceServer}: the reference mock server (`conformance serve`) on a port of
 *   your choice (0 = a free one), with its demo data, credentials and fixtures.
 * - The check registry ({@link CHECKS}, {@link CHECK_IDS}, {@link selectChecks}).
 * - The reporters ({@link createReporters} and each reporter with its pure `render*` function).
 *
 * Import it by name: `import { runConformance } from 'billing-api-conformance'` (ESM only; the
 * package's `index.js` lets Node load these TypeScript sources, docs/decisions.md).
 */
export { runConformance, SUITES, SUITE_NEEDS, type RunOptions, type RunOutcome } from './cli/run.js';
export { replayReport } from './cli/replay.js';
export { startReferenceServer, printBanner, FAULTS, type StartOptions, type RunningReference, type FaultDefinition, type FaultId } from './server/index.js';
export { CHECKS, CHECK_IDS, selectChecks } from './checks/index.js';
export { HarnessError, HARNESS_ERROR_CODES, type HarnessErrorCode } from './core/errors.js';
export { startWebhookReceiver, type WebhookReceiver, type ReceivedRequest } from './core/webhook-receiver.js';
export { lintDocument, formatLintResult, type LintResult, type LintDiagnostic } from './core/spec/lint.js';
export { loadSpec, specPath, API_VERSIONS, type ApiVersion, type LoadedSpec, type Operation } from './core/spec/load.js';
export * from './reporters/index.js';
export { computeCoverage, describeShortfall, formatCoverageTotal, formatPercent, isPercent, COVERAGE_MEASURES } from './engine/coverage.js';
export type { Coverage, CoverageMeasure, CoverageTotal, OperationCoverage } from './engine/coverage.js';
export { collectResults, exitCodeFor, finishResults, summarize, ResultsCollector } from './engine/results.js';
export type { CollectedResults, ExitCode, HarnessProblem, ReportCell, RunResults, RunSummary } from './engine/results.js';
export type { CellMeta, CellStatus, Check, CheckContext, CheckNeeds, Exchange, Failure, Finding, HttpRequest, HttpResponse, Reproducer, Role, Severity, SkipKind, TestCase } from './core/types.js';
// Observed traffic (docs/observed.md): judge exchanges your own code makes, the proxy, HAR files.
export { judgeExchange, createObservedJudge, judgedFetch, judgingInterceptor, type JudgeExchangeOptions, type ObservedDocuments } from './engine/observed/library.js';
export { useConformance, type UseConformanceOptions, type ConformanceHandle } from './engine/observed/vitest.js';
export { ObservedJudge, OBSERVED_CHECKS, type ObservedJudgeOptions, type ObservedVerdict, type ObservedExchange } from './engine/observed/judge.js';
export { startProxy, type ProxyOptions, type RunningProxy } from './engine/observed/proxy.js';
export { JudgePool, type JudgePoolOptions } from './engine/observed/judge-pool.js';
export { runProxy, type ProxyCommandOptions, type ProxyCommand } from './cli/proxy.js';
export { checkHar, type CheckHarOptions, type CheckHarOutcome } from './cli/check.js';
export { readHar, parseHar, type HarEntry } from './engine/observed/har.js';
