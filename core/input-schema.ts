/**
 * Validation of the files a person writes for a run (conformance.config.json, a baseline) against
 * their JSON Schemas (harness/schemas/), with every problem in one list and the nearest known key
 * suggested for an unknown one, so that a file is fixed in one pass, not one error per run.
 * @see https://json-schema.org/draft-07/json-schema-validation
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { didYouMean } from './suggest.js';

/** A JSON Schema shipped in harness/schemas/, by file name (`config.schema.json`). */
export function bundledSchema(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`./schemas/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;
}

const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
const compiled = new Map<string, ValidateFunction>();

/** `/accepted/2/checkId` → `accepted[2].checkId`; the root is `(top level)`. */
export function readablePath(pointer: string): string {
  if (!pointer) return '(top level)';
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((out, segment) => (/^\d+$/.test(segment) ? `${out}[${segment}]` : out ? `${out}.${segment}` : segment), '');
}

function describe(error: ErrorObject): string {
  const at = readablePath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const where = error.instancePath ? `${at}: ` : '';
      if (key === 'token' && /\/roles\//.test(error.instancePath)) return `${where}inline "token": name its environment variable with "tokenEnv" instead`;
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {}).filter((k) => k !== '$schema');
      return `${where}unknown key "${key}"${didYouMean(key, known)} (known: ${known.join(', ')})`;
    }
    case 'required':
      return `${error.instancePath ? `${at}: ` : ''}"${String(params.missingProperty)}" is required`;
    case 'type':
      return `${at} must be ${String(params.type).replace(',', ' or ')}, not ${JSON.stringify(error.data)}`;
    case 'pattern':
      return `${at} ${JSON.stringify(error.data)} does not match ${String(params.pattern)}`;
    default:
      return `${at} ${error.message ?? 'is not valid'}`;
  }
}

/**
 * Validates a parsed JSON document against a bundled schema.
 * @param schemaName file name in harness/schemas/
 * @returns one readable line per problem (empty when valid), in document order
 */
export function schemaProblems(schemaName: string, data: unknown): string[] {
  let validate = compiled.get(schemaName);
  if (!validate) {
    validate = ajv.compile(bundledSchema(schemaName));
    compiled.set(schemaName, validate);
  }
  if (validate(data)) return [];
  // A `type` error under a `$ref` repeats once per path; one line per distinct message is enough.
  return [...new Set((validate.errors ?? []).map(describe))];
}

/** One message for many problems: `what has 3 problems:` then one indented line each. */
export function problemsMessage(what: string, problems: readonly string[]): string {
  if (problems.length === 1) return `${what}: ${problems[0]}`;
  return `${what} has ${problems.length} problems:\n${problems.map((p) => `  - ${p}`).join('\n')}`;
}
