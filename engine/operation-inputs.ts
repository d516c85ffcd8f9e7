/**
 * The path values of a generic case of an operation: the target's fixtures, or values drawn from
 * each parameter's schema that name nothing on the target, so that any OpenAPI target works.
 */
import fc from 'fast-check';
import type { Operation, Parameter } from '../core/spec/load.js';
import { fixtureName } from '../core/operation-needs.js';
import { schemaArbitrary } from '../generators/schema-value.js';
import { validParameterValue } from '../generators/parameter-value.js';
import type { Target } from '../core/target.js';

/**
 * A value for a path parameter that names nothing on the target: drawn from its schema with a
 * fixed seed; a free-form string gets a random-looking word of 8 to 16 characters (never empty,
 * never a word a target may reserve), but a string the schema constrains itself (enum, const,
 * pattern) keeps its own constraints. A schema no value satisfies gives its documented value, or `1`.
 */
export function randomPathValue(param: Parameter): string {
  // Drawn with a fixed seed, so the same for every case: drawn once per parameter.
  let value = drawnPathValues.get(param);
  if (value === undefined) drawnPathValues.set(param, (value = drawPathValue(param)));
  return value;
}

/** {@link randomPathValue} of each parameter already drawn. */
const drawnPathValues = new WeakMap<Parameter, string>();

function drawPathValue(param: Parameter): string {
  const schema = param.schema;
  const constrained = schema.enum !== undefined || schema.const !== undefined || schema.pattern !== undefined || schema.format !== undefined;
  const free = schema.type === 'string' && !constrained ? { minLength: 1, pattern: '^[a-z0-9_]{8,16}$' } : {};
  try {
    const [drawn] = fc.sample(schemaArbitrary({ ...schema, ...free }, { direction: 'request' }), { seed: 1, numRuns: 1 });
    if (drawn !== null && drawn !== undefined && typeof drawn !== 'object') return String(drawn);
  } catch {
    // A schema the generators cannot satisfy: its documented value, below.
  }
  const value = validParameterValue(param);
  return Array.isArray(value) ? value.join(',') : (value ?? '1');
}

/**
 * Path values for a case. `fixtures: true` takes the target's fixtures (for valid requests of
 * safe methods); otherwise each value is drawn from the parameter's schema with a fixed seed, so
 * that probes which must be refused (no credentials, no scope) never name a real resource of an
 * operation that could change it.
 */
export function pathValues(operation: Operation, target: Target, fixtures: boolean): Record<string, string> {
  const values: Record<string, string> = {};
  for (const param of operation.parameters) {
    if (param.in !== 'path') continue;
    const known = target.fixtures[fixtureName(operation, param)];
    if (fixtures && known) {
      values[param.name] = known;
    } else {
      values[param.name] = randomPathValue(param);
    }
  }
  return values;
}
