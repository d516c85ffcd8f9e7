/**
 * Lints an OpenAPI 3.x document: swagger-parser validation (through {@link loadSpec}) and
 * Spectral's `oas` ruleset, with the few rules that conflict with the API description turned off.
 * Findings are data (`{code, message, path, severity}`), in the manner of Prism's validators;
 * only an unreadable file is thrown, as a harness error.
 * @see https://docs.stoplight.io/docs/spectral/4dec24461f3af-open-api-rules
 */
import path from 'node:path';
import { createRulesetFunction, Document, Spectral, type RuleDefinition, type RulesetDefinition } from '@stoplight/spectral-core';
import { oas3_0, oas3_1 } from '@stoplight/spectral-formats';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { HarnessError } from '../errors.js';
import { loadSpec, readDocumentText } from './load.js';

/** How bad a finding is; only `error` fails `conformance lint`. */
export type LintSeverity = 'error' | 'warning' | 'info' | 'hint';

/** One finding about a document. */
export interface LintDiagnostic {
  /** Spectral rule name (`oas3-schema`), or {@link INVALID_DOCUMENT_CODE} for a swagger-parser failure. */
  code: string;
  message: string;
  /** Location in the document as keys and indices (`['paths', '/v1/files/', 'post']`); empty for the whole document. */
  path: (string | number)[];
  severity: LintSeverity;
  /** 1-based line of the location, when known. */
  line?: number;
}

/** The outcome of linting one document. */
export interface LintResult {
  /** Absolute path of the document. */
  file: string;
  /** Whether swagger-parser accepted the document. */
  valid: boolean;
  /** `openapi` of the document, when valid. */
  openapi?: string;
  /** `info.version` of the document, when valid. */
  version?: string;
  /** Number of operations under `paths`, when valid. */
  operations?: number;
  /** Every finding, errors first, then by line. */
  diagnostics: LintDiagnostic[];
  /** No finding of severity `error` (which implies `valid`). */
  ok: boolean;
}

/** Code of the diagnostic reporting that swagger-parser rejected the document. */
export const INVALID_DOCUMENT_CODE = 'oas-document-invalid';

type SecurityRequirement = Record<string, string[]>;

/**
 * Every scheme a security requirement names is defined in `components.securitySchemes`, and the
 * scopes it names for an `oauth2` scheme are among that scheme's flows' scopes. For any other
 * scheme type OAS 3.1 lets the array hold role names, which need no declaration.
 * @see https://spec.openapis.org/oas/v3.1.0#security-requirement-object
 */
export const securityRequirementDefined = createRulesetFunction<SecurityRequirement, null>(
  { input: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }, options: null },
  (requirement, _options, { document, path: at }) => {
    const data = document.data as { components?: { securitySchemes?: Record<string, { type?: string; flows?: Record<string, { scopes?: Record<string, string> }> }> } };
    const schemes = data?.components?.securitySchemes ?? {};
    const results: { message: string; path: (string | number)[] }[] = [];
    for (const [name, scopes] of Object.entries(requirement)) {
      const scheme = Object.hasOwn(schemes, name) ? schemes[name] : undefined;
      if (!scheme) {
        results.push({ message: `"${name}" is not a scheme defined in components.securitySchemes.`, path: [...at, name] });
        continue;
      }
      if (scheme.type !== 'oauth2') continue;
      const declared = new Set(Object.values(scheme.flows ?? {}).flatMap((flow) => Object.keys(flow?.scopes ?? {})));
      scopes.forEach((scope, i) => {
        if (!declared.has(scope)) results.push({ message: `"${scope}" must be listed among the scopes of the oauth2 scheme "${name}".`, path: [...at, name, i] });
      });
    }
    return results;
  },
);

const OAS_RULES = (oas as unknown as { rules: Record<string, RuleDefinition> }).rules;

// Spectral's `#SecurityRequirementObject` alias, spelled out: aliases do not reach extending rulesets.
const SECURITY_REQUIREMENTS = ['$.security[*]', '$.paths[*][get,put,post,delete,options,head,patch,trace].security[*]'];

/**
 * Spectral's `oas` ruleset (its recommended rules) and our exceptions. Every rule turned off or
 * narrowed says why; no other rule of `oas` is changed. Extension keys (`x-*`) are allowed by
 * the OpenAPI specification everywhere we use them, and no rule here looks at them.
 * @see https://github.com/stoplightio/spectral/blob/develop/docs/reference/openapi-rules.md
 */
export const PROJECT_RULESET: RulesetDefinition = {
  extends: [[oas as RulesetDefinition, 'recommended']],
  rules: {
    // The API description's paths end in a slash (`/v1/products/`, `/v1/files/`): the trailing
    // slash is part of the documented interface, not a style slip.
    'path-keys-no-trailing-slash': 'off',
    // The API description gives no contact for the service; inventing one would put a statement
    // in the document that the one source of truth does not make.
    'info-contact': 'off',
    // Spectral requires every scope of every scheme to be declared in an OAuth flow. That is right
    // for OAS 3.0 (the array MUST be empty for other scheme types), so the rule stays on there;
    // OAS 3.1 allows role names for bearer schemes, which is how our documents name the API's
    // scopes on pat/oat/session tokens. For 3.1 the rule below checks what still applies.
    'oas3-operation-security-defined': {
      ...OAS_RULES['oas3-operation-security-defined']!,
      given: SECURITY_REQUIREMENTS,
      formats: [oas3_0],
    },
    'oas3_1-operation-security-defined': {
      description: 'Operation "security" values must name a scheme of "components.securitySchemes"; OAuth 2.0 scopes must be declared.',
      message: '{{error}}',
      severity: 'warn',
      formats: [oas3_1],
      given: SECURITY_REQUIREMENTS,
      then: { function: securityRequirementDefined },
    },
  },
};

const SEVERITIES: readonly LintSeverity[] = ['error', 'warning', 'info', 'hint'];

function bySeverityThenLine(a: LintDiagnostic, b: LintDiagnostic): number {
  return SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || (a.line ?? 0) - (b.line ?? 0);
}

/**
 * Lints a document with swagger-parser and Spectral's `oas` ruleset ({@link PROJECT_RULESET}).
 * An invalid document is a result with `valid: false` and an {@link INVALID_DOCUMENT_CODE}
 * diagnostic, alongside Spectral's own findings, so that a person sees where it is broken.
 * @param file path to a YAML or JSON OpenAPI 3.x document
 * @throws HarnessError CNF_ERR_SPEC_INVALID when the file cannot be read
 */
export async function lintDocument(file: string): Promise<LintResult> {
  const { absolute, text } = await readDocumentText(file);

  const diagnostics: LintDiagnostic[] = [];
  const result: LintResult = { file: absolute, valid: false, diagnostics, ok: false };
  try {
    const spec = await loadSpec(absolute);
    Object.assign(result, { valid: true, openapi: spec.openapi, version: spec.version, operations: spec.operations.length });
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    diagnostics.push({ code: INVALID_DOCUMENT_CODE, message: error.message, path: [], severity: 'error' });
  }

  const spectral = new Spectral();
  spectral.setRuleset(PROJECT_RULESET);
  // JSON is YAML, so one parser reads both, with line numbers. The package is CommonJS whose
  // exports Node cannot list, hence the default import.
  const findings = await spectral.run(new Document(text, spectralParsers.Yaml, absolute));
  for (const finding of findings) {
    diagnostics.push({
      code: String(finding.code),
      message: finding.message,
      path: [...finding.path],
      severity: SEVERITIES[finding.severity] ?? 'error',
      line: finding.range.start.line + 1,
    });
  }
  diagnostics.sort(bySeverityThenLine);
  result.ok = result.valid && !diagnostics.some((d) => d.severity === 'error');
  return result;
}

/** A diagnostic's path as Spectral's command line prints it (`paths./v1/files/.post`); `(document)` when empty. */
export function formatPath(segments: readonly (string | number)[]): string {
  return segments.length === 0 ? '(document)' : segments.join('.');
}

/**
 * The text `conformance lint` prints for one result: a summary line, then one line per
 * diagnostic (`  line  severity  code  path  message`).
 */
export function formatLintResult(result: LintResult, cwd: string = process.cwd()): string {
  const name = path.relative(cwd, result.file) || result.file;
  const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = result.diagnostics.filter((d) => d.severity === 'warning').length;
  const head = result.valid
    ? `${name}: OpenAPI ${result.openapi}, version ${result.version}, ${result.operations} operations`
    : `${name}: not a valid OpenAPI document`;
  const lines = [`${head}: ${errors} error(s), ${warnings} warning(s)${result.ok ? '' : ' - FAILED'}`];
  for (const d of result.diagnostics) {
    const at = d.line === undefined ? '' : `${d.line}:`;
    lines.push(`  ${at.padEnd(6)}${d.severity.padEnd(8)}${d.code}  ${formatPath(d.path)}\n          ${d.message.replace(/\n/g, '\n          ')}`);
  }
  return `${lines.join('\n')}\n`;
}
