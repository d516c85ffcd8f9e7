/**
 * Reading a data file: its text (YAML 1.2, or JSON, which YAML reads too) into a value that keeps,
 * for every field, the line and column it was written at; then its validation against the schema
 * the project publishes, `spec/data.schema.json`. A problem names the file, the line, the column
 * and the field (`saas.yaml:12:9: organizations[0].products[1].recurring_interval: ...`).
 * @see docs/data-file.md; spec/data.schema.json; YAML 1.2.2, section 1.3 (Relation to JSON: a JSON text is a YAML 1.2 stream)
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { isMap, isPair, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import { nearest } from '../../core/suggest.js';
import { fail, ok, type Result } from '../result.js';

/** A place in a data file: 1-based line and column. */
export interface DataPosition {
  line: number;
  column: number;
}

/** One problem of a data file; {@link describeProblem} makes it the one line a person reads. */
export interface DataProblem {
  /** The file as named to the reader (a path, `request body`). */
  file: string;
  /** Where, when known (a file given as a value rather than text has no lines). */
  position?: DataPosition;
  /** The field at fault, as a path (`organizations[0].prices[2].product`); `(top level)` for the whole file. */
  field: string;
  /** What is wrong, as a sentence. */
  message: string;
}

/** A step of a path into the file's value: an object key or an array index. */
export type DataPath = readonly (string | number)[];

/** A data file read: its value, and where each of its fields is. */
export interface DataText {
  file: string;
  value: unknown;
  /** The position of the value at `path` (with `key`: of that key of the object at `path`), or of the nearest enclosing value the file has. */
  locate(path: DataPath, key?: string): DataPosition | undefined;
}

/** `organizations[0].prices[2].product`; the empty path is `(top level)`. */
export function fieldPath(path: DataPath): string {
  if (path.length === 0) return '(top level)';
  return path.reduce<string>((out, step) => (typeof step === 'number' ? `${out}[${step}]` : out ? `${out}.${step}` : step), '');
}

/** The one line for a problem: `file:line:column: field: message` (without a position: `file: field: message`). @see docs/data-file.md (Errors) */
export function describeProblem(problem: DataProblem): string {
  const where = problem.position ? `${problem.file}:${problem.position.line}:${problem.position.column}` : problem.file;
  return `${where}: ${problem.field}: ${problem.message}`;
}

/**
 * Reads a data file's text (YAML or JSON) with the position of every field.
 * @param file the name problems give the file (its path as the user wrote it)
 * @returns the read file, or its first syntax error (YAML's message, at its line and column)
 * @see docs/data-file.md (Errors); YAML 1.2.2, section 1.3 (Relation to JSON)
 */
export function readDataText(file: string, text: string): Result<DataText, DataProblem> {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, strict: true });
  const positionAt = (offset: number): DataPosition => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  const error = document.errors[0];
  if (error) return fail({ file, position: positionAt(error.pos[0]), field: '(syntax)', message: `not valid YAML or JSON: ${error.message.split('\n')[0]!.replace(/\.$/, '')}` });
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 1000 });
  } catch (thrown) {
    return fail({ file, field: '(syntax)', message: `not valid YAML or JSON: ${(thrown as Error).message}` });
  }
  return ok({ file, value, locate: (path, key) => locateIn(document, path, key, positionAt) });
}

/** The position of a node of `document` (see {@link DataText.locate}). */
function locateIn(document: Document, path: DataPath, key: string | undefined, positionAt: (offset: number) => DataPosition): DataPosition | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? document.contents : document.getIn(path.slice(0, depth), true);
    const range = node && typeof node === 'object' && 'range' in node ? (node.range as [number, number, number] | null | undefined) : undefined;
    if (!range) continue;
    if (key !== undefined && depth === path.length && isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === key);
      const range = pair && isScalar(pair.key) ? pair.key.range : undefined;
      if (range) return positionAt(range[0]);
    }
    return positionAt(range[0]);
  }
  return undefined;
}

/**
 * A data file given as a value (the library's `startReferenceServer({ data: {...} })`): no lines.
 * @param file the name problems give it
 */
export function dataValue(file: string, value: unknown): DataText {
  return { file, value, locate: () => undefined };
}

/** The name problems give a data file given as a value (the library's `data` option). */
export const DATA_OPTION_NAME = 'data option';

/**
 * Reads the `data` option of the server: a path to a YAML or JSON file, or the file's content as a value.
 * @returns the read file, or why it cannot be read
 */
export function readDataSource(source: string | Record<string, unknown>): Result<DataText, DataProblem> {
  return typeof source === 'string' ? readDataFile(source) : ok(dataValue(DATA_OPTION_NAME, source));
}

/**
 * Reads a data file from disk.
 * @returns the read file, or why it cannot be read (a missing file, a syntax error)
 * @see docs/data-file.md
 */
export function readDataFile(file: string): Result<DataText, DataProblem> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (thrown) {
    const code = (thrown as NodeJS.ErrnoException).code;
    return fail({ file, field: '(file)', message: code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? (thrown as Error).message})` });
  }
  return readDataText(file, text);
}

let validator: ValidateFunction | undefined;

/** The compiled `spec/data.schema.json`. */
function schemaValidator(): ValidateFunction {
  if (!validator) {
    const schema = JSON.parse(readFileSync(new URL('../../spec/data.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    validator = new Ajv({ allErrors: true, verbose: true, strict: false }).compile(schema);
  }
  return validator;
}

/** The JSON pointer of an ajv error as a path (`/organizations/0/name` to `['organizations', 0, 'name']`). */
function pointerPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .split('/')
    .slice(1)
    .map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((step) => (/^\d+$/.test(step) ? Number(step) : step));
}

/** JSON Schema types as a sentence names them. */
const TYPE_NAMES: Record<string, string> = { object: 'an object', array: 'a list', string: 'a string', integer: 'an integer', number: 'a number', boolean: 'true or false', null: 'null' };

/** One schema error as a problem (field, message, where). */
function schemaProblem(text: DataText, error: ErrorObject): DataProblem & { offset: number } {
  const path = pointerPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const parent = error.parentSchema as { title?: string; properties?: Record<string, unknown>; enum?: unknown[] } | undefined;
  const shown = (value: unknown) => JSON.stringify(value);
  let field = fieldPath(path);
  let message: string;
  let key: string | undefined;
  switch (error.keyword) {
    case 'additionalProperties': {
      key = String(params.additionalProperty);
      field = fieldPath([...path, key]);
      const known = Object.keys(parent?.properties ?? {}).filter((name) => name !== '$schema');
      const near = nearest(key, known);
      message = `unknown field${near === undefined ? '' : ` (did you mean ${near}?)`}; the fields here are ${known.join(', ')}`;
      break;
    }
    case 'required':
      key = undefined;
      field = fieldPath([...path, String(params.missingProperty)]);
      message = 'is required';
      break;
    case 'enum':
      message = `must be one of ${(parent?.enum ?? []).map((v) => (v === null ? 'null' : String(v))).join(', ')}, not ${shown(error.data)}`;
      break;
    case 'type':
      message = `must be ${String(params.type).split(',').map((type) => TYPE_NAMES[type] ?? type).join(' or ')}, not ${shown(error.data)}`;
      break;
    case 'pattern':
      message = `${shown(error.data)} is not ${parent?.title ?? `of the form ${String(params.pattern)}`}`;
      break;
    case 'minItems':
      message = `must have at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}`;
      break;
    default:
      message = error.message ?? 'is not valid';
  }
  const position = text.locate(path, key);
  return { file: text.file, ...(position ? { position } : {}), field, message, offset: position ? position.line * 1e6 + position.column : 0 };
}

/**
 * Validates a read data file against `spec/data.schema.json`.
 * @returns every problem, in the order of the file (one per field); empty when the file fits the schema
 * @see spec/data.schema.json
 */
export function schemaProblems(text: DataText): DataProblem[] {
  const validate = schemaValidator();
  if (validate(text.value)) return [];
  const problems = (validate.errors ?? []).map((error) => schemaProblem(text, error));
  // A value both of the wrong type and off its enum is one problem; keep the first said of each field.
  const seen = new Set<string>();
  return problems
    .sort((a, b) => a.offset - b.offset)
    .filter((problem) => !seen.has(problem.field) && seen.add(problem.field))
    .map(({ offset: _offset, ...problem }) => problem);
}
