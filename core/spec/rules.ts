/**
 * Loads spec/rules.yaml, the behavioural rules of the API that no schema can express, and
 * validates every entry: its fields, a unique stable id, and exactly one of `enforced_by`,
 * `pending` and `untestable`.
 * @see docs/design.md (Parts: spec/, rules.yaml)
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { HarnessError } from '../errors.js';

/** Path of the bundled rules file. */
export const RULES_FILE = fileURLToPath(new URL('../../spec/rules.yaml', import.meta.url));

/**
 * Headings of the API description (`##` and `###`) a rule's `section` may name; a rule the project's
 * design derives from the description names `design.md: <heading>` instead.
 * @see spec/rules.yaml (the `section` of each entry)
 */
export const API_DESCRIPTION_SECTIONS: readonly string[] = [
  'What the service does',
  'Resources and fields',
  'Conventions',
  'Product',
  'Price (common fields)',
  'Benefit',
  'ProductMediaFile',
  'File (generic, returned by the files endpoints)',
  'AttachedCustomField and CustomField',
  'Customer',
  'Customer payment method',
  'License key (customer portal)',
  'Subscription',
  'Order',
  'Refund',
  'Customer seat',
  'Webhook endpoint',
  'States and transitions',
  'Endpoints',
  'Create file body',
  'List filters',
  'Authentication',
  'Events',
  'Errors',
  'Limits',
  'Versioning',
];

/** Prefix of a `section` that names a heading of the project's design rather than of the API description. */
export const DESIGN_SECTION_PREFIX = 'design.md: ';

/** `id` syntax: snake_case segments joined by dots (`lists.filters.metadata`). */
export const RULE_ID_PATTERN = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/;

/** `pending` syntax: an issue reference, `#` and a number. */
export const ISSUE_PATTERN = /^#[1-9][0-9]*$/;

/** What is true of every rule. */
interface RuleBase {
  /** Stable id, never renamed: checks cite it in their `rule` field. */
  id: string;
  /** The API description heading (or `design.md: <heading>`) the statement comes from. */
  section: string;
  /** The rule in our words, as the harness asserts it. */
  statement: string;
  /** A short quote or paraphrase of the source. */
  source: string;
}

/** A rule a check or suite enforces: check ids and `suite:<name>` references. */
export interface EnforcedRule extends RuleBase {
  enforced_by: string[];
}

/** A rule an open issue will enforce (server behaviour, harness checks or stateful suites). */
export interface PendingRule extends RuleBase {
  pending: string;
}

/** A rule no client of the API can observe, with the reason. */
export interface UntestableRule extends RuleBase {
  untestable: string;
}

/** One entry of rules.yaml: exactly one of `enforced_by`, `pending`, `untestable`. */
export type Rule = EnforcedRule | PendingRule | UntestableRule;

/** Where a rule stands. */
export type RuleStatus = 'enforced' | 'pending' | 'untestable';

const STATUS_FIELDS = ['enforced_by', 'pending', 'untestable'] as const;
const TEXT_FIELDS = ['id', 'section', 'statement', 'source'] as const;
const KNOWN_FIELDS = new Set<string>([...TEXT_FIELDS, ...STATUS_FIELDS]);

/** Where a rule stands: enforced, pending an issue, or untestable. */
export function ruleStatus(rule: Rule): RuleStatus {
  if ('enforced_by' in rule) return 'enforced';
  if ('pending' in rule) return 'pending';
  return 'untestable';
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

/**
 * Problems of one entry, as readable sentences; empty when it is well-formed.
 * @param entry one parsed element of rules.yaml
 */
export function ruleProblems(entry: unknown): string[] {
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return ['is not a mapping'];
  const rule = entry as Record<string, unknown>;
  const problems: string[] = [];
  for (const field of TEXT_FIELDS) {
    if (!(field in rule)) problems.push(`missing field "${field}"`);
    else if (!isText(rule[field])) problems.push(`"${field}" must be a non-empty string`);
  }
  if (isText(rule.id) && !RULE_ID_PATTERN.test(rule.id)) problems.push(`id "${rule.id}" is not snake_case segments joined by dots`);
  if (isText(rule.section) && !rule.section.startsWith(DESIGN_SECTION_PREFIX) && !API_DESCRIPTION_SECTIONS.includes(rule.section)) {
    problems.push(`section "${rule.section}" is not a heading of the API description (nor "${DESIGN_SECTION_PREFIX}<heading>")`);
  }
  for (const field of Object.keys(rule)) if (!KNOWN_FIELDS.has(field)) problems.push(`unknown field "${field}"`);

  const statuses = STATUS_FIELDS.filter((field) => field in rule);
  if (statuses.length !== 1) {
    problems.push(`must have exactly one of ${STATUS_FIELDS.join(', ')} (has ${statuses.length ? statuses.join(', ') : 'none'})`);
  }
  if ('enforced_by' in rule) {
    const by = rule.enforced_by;
    if (!Array.isArray(by) || by.length === 0 || !by.every(isText)) problems.push('"enforced_by" must be a non-empty list of check ids or suite:<name>');
  }
  if ('pending' in rule && !(typeof rule.pending === 'string' && ISSUE_PATTERN.test(rule.pending))) {
    problems.push(`"pending" must be an issue reference like "#5" (got ${JSON.stringify(rule.pending)})`);
  }
  if ('untestable' in rule && !isText(rule.untestable)) problems.push('"untestable" must give the reason');
  return problems;
}

/**
 * Validates parsed rules: every entry well-formed and ids unique.
 * @param entries the parsed YAML document (a list)
 * @param file the file name for messages
 * @throws HarnessError CNF_ERR_SPEC_INVALID naming the entry and every problem found
 */
export function validateRules(entries: unknown, file = 'rules.yaml'): Rule[] {
  if (!Array.isArray(entries)) throw new HarnessError('CNF_ERR_SPEC_INVALID', `${file} must be a list of rules`);
  const problems: string[] = [];
  const seen = new Map<string, number>();
  entries.forEach((entry, index) => {
    const id = (entry as { id?: unknown } | null)?.id;
    const name = `rule ${index + 1}${typeof id === 'string' ? ` (${id})` : ''}`;
    for (const problem of ruleProblems(entry)) problems.push(`${name}: ${problem}`);
    if (typeof id === 'string') {
      const first = seen.get(id);
      if (first !== undefined) problems.push(`${name}: duplicate id, first used by rule ${first + 1}`);
      else seen.set(id, index);
    }
  });
  if (problems.length > 0) {
    throw new HarnessError('CNF_ERR_SPEC_INVALID', `${file} has ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
  }
  return entries as Rule[];
}

/**
 * Reads and validates rules.yaml.
 * @param file path of a rules file (default: the bundled spec/rules.yaml)
 * @returns the rules in file order
 * @throws HarnessError CNF_ERR_SPEC_INVALID when the file cannot be read or parsed, or an entry is
 *   malformed (missing field, duplicate id, not exactly one of enforced_by/pending/untestable)
 */
export async function loadRules(file: string = RULES_FILE): Promise<Rule[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new HarnessError('CNF_ERR_SPEC_INVALID', `cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = YAML.parse(text);
  } catch (error) {
    throw new HarnessError('CNF_ERR_SPEC_INVALID', `${file} is not valid YAML: ${(error as Error).message}`, { cause: error });
  }
  return validateRules(parsed, path.basename(file));
}

/**
 * The `enforced_by` references that name neither a known check nor a known suite.
 * @param rules loaded rules
 * @param checkIds known check ids (checks/index.ts CHECK_IDS)
 * @param suites known suite names (files suites/<name>.suite.ts)
 * @returns `{rule, reference}` for every unknown reference
 */
export function unknownEnforcers(rules: readonly Rule[], checkIds: readonly string[], suites: readonly string[]): { rule: string; reference: string }[] {
  const unknown: { rule: string; reference: string }[] = [];
  for (const rule of rules) {
    if (!('enforced_by' in rule)) continue;
    for (const reference of rule.enforced_by) {
      const known = reference.startsWith('suite:') ? suites.includes(reference.slice('suite:'.length)) : checkIds.includes(reference);
      if (!known) unknown.push({ rule: rule.id, reference });
    }
  }
  return unknown;
}
