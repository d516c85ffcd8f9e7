/**
 * The README's table of operations, rendered from the document so that a test can keep the two
 * in step: operationId, method and path, credentials, scopes and success statuses.
 */
import type { LoadedSpec } from './load.js';

/**
 * Renders the operations of a document as a Markdown table, in document order.
 * @see spec/openapi.yaml (paths: operations and their security)
 */
export function operationsTable(spec: LoadedSpec): string {
  const rows = spec.operations.map((operation) => {
    const schemes = [...new Set(operation.security.flatMap((alt) => Object.keys(alt)))];
    const credentials =
      operation.security.length > 0 ? schemes.join(', ') : operation.raw['x-client-authentication'] ? 'client credentials (form body)' : 'none';
    const scopes = operation.scopes.length
      ? `${operation.scopes.map((s) => `\`${s}\``).join(' or ')}${operation.raw['x-scopes-inferred'] ? ' (inferred)' : ''}`
      : '—';
    const success = operation.responseStatuses.filter((k) => k.startsWith('2')).join(', ');
    return `| \`${operation.operationId}\` | ${operation.method} \`${operation.path}\` | ${credentials} | ${scopes} | ${success} |`;
  });
  return ['| operationId | request | credentials | scopes | success |', '|---|---|---|---|---|', ...rows].join('\n');
}
