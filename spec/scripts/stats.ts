/**
 * `npm run spec:stats`: what the bundled documents and rules.yaml hold. Per document: the number
 * of operations, each operationId with its method and path, and the webhooks; for the rules: how
 * many, how many enforced, pending and untestable, and each pending rule with its issue.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { API_VERSIONS, loadSpec, specPath } from '../../core/spec/load.js';
import { loadRules, ruleStatus, RULES_FILE, type Rule, type RuleStatus } from '../../core/spec/rules.js';

/** What one document holds. */
export interface DocumentStats {
  file: string;
  version: string;
  /** Operations under `paths`, in document order. */
  operations: { operationId: string; method: string; path: string }[];
  /** Webhooks (OAS 3.1 `webhooks`): name, method and operationId. */
  webhooks: { name: string; method: string; operationId: string }[];
}

/** What rules.yaml holds. */
export interface RulesStats {
  total: number;
  byStatus: Record<RuleStatus, number>;
  /** Pending rules with their issue, in file order. */
  pending: { id: string; issue: string }[];
}

/**
 * Counts the operations and webhooks of a document.
 * @throws HarnessError CNF_ERR_SPEC_INVALID when the document is not valid
 */
export async function documentStats(file: string): Promise<DocumentStats> {
  const spec = await loadSpec(file);
  const webhooks: DocumentStats['webhooks'] = [];
  for (const [name, item] of Object.entries<Record<string, any>>(spec.document.webhooks ?? {})) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (op && typeof op === 'object' && 'responses' in op) webhooks.push({ name, method: method.toUpperCase(), operationId: String(op.operationId ?? '') });
    }
  }
  return {
    file: spec.file,
    version: spec.version,
    operations: spec.operations.map((o) => ({ operationId: o.operationId, method: o.method, path: o.path })),
    webhooks,
  };
}

/** Counts rules by status and lists the pending ones. */
export function rulesStats(rules: readonly Rule[]): RulesStats {
  const byStatus: Record<RuleStatus, number> = { enforced: 0, pending: 0, untestable: 0 };
  const pending: RulesStats['pending'] = [];
  for (const rule of rules) {
    byStatus[ruleStatus(rule)] += 1;
    if ('pending' in rule) pending.push({ id: rule.id, issue: rule.pending });
  }
  return { total: rules.length, byStatus, pending };
}

/** The report `npm run spec:stats` prints. */
export function formatStats(documents: readonly DocumentStats[], rules: RulesStats, cwd: string = process.cwd()): string {
  const lines: string[] = [];
  for (const doc of documents) {
    lines.push(`${path.relative(cwd, doc.file)} (version ${doc.version}): ${doc.operations.length} operations, ${doc.webhooks.length} webhooks`);
    const width = Math.max(0, ...doc.operations.map((o) => o.operationId.length));
    for (const o of doc.operations) lines.push(`  ${o.operationId.padEnd(width)}  ${o.method.padEnd(6)} ${o.path}`);
    for (const w of doc.webhooks) lines.push(`  ${w.operationId.padEnd(width)}  ${w.method.padEnd(6)} webhook ${w.name}`);
    lines.push('');
  }
  lines.push(
    `${path.relative(cwd, RULES_FILE)}: ${rules.total} rules: ${rules.byStatus.enforced} enforced, ${rules.byStatus.pending} pending, ${rules.byStatus.untestable} untestable`,
  );
  const byIssue = new Map<string, string[]>();
  for (const { id, issue } of rules.pending) byIssue.set(issue, [...(byIssue.get(issue) ?? []), id]);
  for (const [issue, ids] of [...byIssue].sort(([a], [b]) => Number(a.slice(1)) - Number(b.slice(1)))) {
    lines.push(`  pending ${issue} (${ids.length}):`);
    for (const id of ids) lines.push(`    ${id}`);
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const documents = [];
  for (const version of API_VERSIONS) documents.push(await documentStats(specPath(version)));
  process.stdout.write(formatStats(documents, rulesStats(await loadRules())));
}
