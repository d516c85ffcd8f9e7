/**
 * curl reproducers for failures (docs/reports.md, Console: every failure prints "Reproduce with:" and a command).
 */
import type { Target } from './target.js';
import type { HttpRequest } from './types.js';

/** A secret value and the environment variable that holds it, so reproducers never print secrets. */
export interface SecretRef {
  value: string;
  env: string;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Renders a request as a single-line curl command. Each secret value is replaced by `${ENV}`
 * and that argument is double-quoted so the shell expands it.
 * @param request the request as sent
 * @param secrets values to hide, longest first is not required (each is replaced everywhere)
 */
export function toCurl(request: HttpRequest, secrets: readonly SecretRef[] = []): string {
  const parts: string[] = ['curl', '-sS', '-i'];
  if (request.method !== 'GET') parts.push('-X', request.method);
  const quote = (text: string): string => {
    const hidden = secrets.filter((s) => s.value && text.includes(s.value));
    if (hidden.length === 0) return shellQuote(text);
    let out = text.replace(/["\\$`]/g, (c) => `\\${c}`);
    for (const s of hidden) out = out.split(s.value).join(`\${${s.env}}`);
    return `"${out}"`;
  };
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'content-length' || name === 'host') continue;
    parts.push('-H', quote(`${name}: ${value}`));
  }
  if (request.body !== undefined) parts.push('--data-raw', quote(request.body));
  parts.push(quote(request.url));
  return parts.join(' ');
}

/**
 * A multi-step failure's requests as curl commands, in the order they were sent (for
 * `Reproducer.steps`); secrets are hidden as in {@link toCurl}.
 */
export function curlSteps(requests: readonly HttpRequest[], secrets: readonly SecretRef[] = []): string[] {
  return requests.map((request) => toCurl(request, secrets));
}

/** The secrets of a target with the variable that holds each, for reproducers. */
export function secretsOf(target: Target): SecretRef[] {
  return Object.entries(target.roles).map(([role, cred]) => ({
    value: cred!.token,
    env: cred!.env ?? `CONFORMANCE_${role.toUpperCase()}_TOKEN`,
  }));
}
