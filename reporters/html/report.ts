/**
 * The HTML reporter: the whole run as one self-contained page for people (QA, a CI artifact to
 * open in a browser). A compact header with the verdict, the counts and a filter (by status,
 * check and operation); then what needs action first: the failures grouped by operation with
 * their reproducers, and the harness errors; then the operation x check matrix (sticky row and
 * column headers inside its own scroll box), spec coverage, transition coverage (when stateful
 * scenarios ran), accepted deviations, observed traffic that was not the API's (observed reports
 * only), and the skipped and not-applicable cells, each collapsed.
 *
 * Self-contained: inline CSS and one small inline script (the copy buttons), no URL of any kind
 * (no CDN, no web fonts, no images to fetch), and a Content-Security-Policy that forbids loading
 * anything and runs only that script, by its hash. Every string is escaped: failures carry text
 * the target chose (`html` of ./template.ts escapes each interpolated value unless it is markup
 * built there). The stylesheet and the script are the files report.css and report.browser.js
 * beside this one, read once when the module loads and inlined whole, without their header
 * comment.
 * @see docs/reports.md (HTML)
 * @see https://html.spec.whatwg.org/multipage/tables.html#attr-th-scope (row and column headers)
 * @see https://www.w3.org/TR/CSP3/#grammardef-hash-source (the script's hash)
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pkg from '../../package.json' with { type: 'json' };
import type { Coverage } from '../../engine/coverage.js';
import type { RunResults } from '../../engine/results.js';
import { transitionCoverage } from '../../engine/stateful/transitions.js';
import { FileReporter, type FileReporterOptions } from '../file-reporter.js';
import { buildMatrix } from '../matrix.js';
import type { ReportInfo } from '../run-info.js';
import { renderCoverage, renderTransitions } from './coverage.js';
import { renderErrors } from './errors.js';
import { renderAccepted, renderFailures } from './failures.js';
import { renderHeader } from './header.js';
import { renderMatrix } from './matrix.js';
import { renderNotApiTraffic } from './not-api-traffic.js';
import { planFailures, planSkips, verdictOf, withErroredCells } from './plan.js';
import { renderNotApplicable, renderSkipped } from './skipped.js';
import { html, raw } from './template.js';

/** Options of {@link HtmlReporter}: the run's info, the document for coverage, and the file to write. */
export interface HtmlReporterOptions extends FileReporterOptions {
  /** Path of the HTML file; missing directories are created. */
  outputFile: string;
}

const DEFAULT_TITLE = 'Conformance report';

// The page's constant stylesheet and script: each file's text after its header comment, which
// is there for the file's readers and is left out of the page (and of the script's hash). The
// script is not named report.js: vitest (Vite) resolves the import `./report.js` to a file of
// that name before this one, report.ts.
function asset(name: string): string {
  return readFileSync(new URL(name, import.meta.url), 'utf8').replace(/^\/\*[\s\S]*?\*\/\n/, '');
}

const STYLE = asset('./report.css');
const SCRIPT = asset('./report.browser.js');

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  `script-src 'sha256-${createHash('sha256').update(SCRIPT, 'utf8').digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * Renders the report as one HTML document (UTF-8, `<!doctype html>`, `lang="en"`), ending with a
 * newline. Pure: the same results, info and coverage give the same text.
 * @param results the run's cells and harness errors
 * @param info the run's target, spec version, seed, start (ISO 8601, UTC) and duration (ms)
 * @param coverage the run's spec coverage; without it the coverage section says it was not measured
 * The "Transition coverage" section (each state machine's edges, exercised or not, and the count)
 * follows the spec coverage when a cell records transitions, and is left out otherwise.
 */
export function renderHtml(results: RunResults, info: ReportInfo, coverage?: Coverage): string {
  const matrix = buildMatrix(results.cells);
  const failures = planFailures(results.cells, matrix);
  const skips = planSkips(results.cells, 'skipped', 'skip');
  const notApplicable = planSkips(results.cells, 'not_applicable', 'na');
  const verdict = verdictOf(results, coverage);
  const title = info.title ?? DEFAULT_TITLE;
  const transitions = results.transitions ?? transitionCoverage(results.cells);
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="referrer" content="no-referrer">
<title>${verdict.label} — ${title} — ${info.target}</title>
<style>${raw(STYLE)}</style>
</head>
<body>
${renderHeader(results, info, verdict, title, transitions !== undefined, matrix)}
<main id="main">
${renderFailures(failures)}
${renderErrors(withErroredCells(results))}
${renderMatrix(results.cells, matrix, failures, skips, notApplicable)}
${renderCoverage(coverage)}
${transitions ? renderTransitions(transitions) : ''}
${renderAccepted(results.cells)}
${renderNotApiTraffic(results.notApiTraffic)}
${renderSkipped(skips)}
${renderNotApplicable(notApplicable)}
</main>
<footer><p>Written by ${pkg.name} ${pkg.version}. This file is self-contained: it loads nothing from the network.</p></footer>
<script>${raw(SCRIPT)}</script>
</body>
</html>
`;
  return page.text;
}

/** Writes {@link renderHtml} to `outputFile` of the run's results (with their coverage, when measured). */
export class HtmlReporter extends FileReporter {
  constructor(options: HtmlReporterOptions) {
    super(options, renderHtml);
  }
}
