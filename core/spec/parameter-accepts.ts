/**
 * Whether a query or path value, as text in a URL, is valid against its parameter's schema: the
 * one question the checks (positive and negative data) and the generators both ask.
 * @see https://spec.openapis.org/oas/v3.1.0#parameter-object
 */
import type { Parameter } from './load.js';
import { schemaValidator } from './schema-validator.js';

/** The JSON values a text may stand for in a URL: itself, a number, a boolean or null when it reads as one. */
function readings(text: string): unknown[] {
  const out: unknown[] = [text];
  if (text.trim() !== '' && Number.isFinite(Number(text))) out.push(Number(text));
  if (text === 'true' || text === 'false') out.push(text === 'true');
  if (text === 'null') out.push(null);
  return out;
}

/** Every combination of readings of a list of texts, at most 64 (beyond that the first reading of each). */
function listReadings(texts: readonly string[]): unknown[][] {
  let combos: unknown[][] = [[]];
  for (const text of texts) {
    const next = combos.flatMap((combo) => readings(text).map((r) => [...combo, r]));
    combos = next.length > 64 ? combos.map((combo) => [...combo, readings(text)[0]]) : next;
  }
  return combos;
}

/**
 * Whether a parameter value as sent (one text, or repeated texts for an exploded array) is valid
 * against the parameter's schema under some reading of the text (a string, a number, a boolean; an
 * array of them for an array schema, one value also read as a one-item array). Lenient on purpose:
 * a value is called invalid only when no reading of it is valid, which is what makes a negative
 * case negative.
 * @param param a dereferenced parameter
 * @param value the text sent; an array for a repeated parameter
 */
export function parameterAccepts(param: Parameter, value: string | readonly string[]): boolean {
  let valid: (v: unknown) => boolean;
  try {
    valid = schemaValidator(param.schema);
  } catch {
    // A schema the validator cannot compile decides nothing: treat the value as possibly valid.
    return true;
  }
  const texts = typeof value === 'string' ? [value] : [...value];
  const candidates: unknown[] = [...listReadings(texts)];
  if (texts.length === 1) candidates.push(...readings(texts[0]!));
  // A comma-separated list (style form without explode, or simple): its items.
  if (texts.length === 1 && texts[0]!.includes(',')) candidates.push(...listReadings(texts[0]!.split(',')));
  return candidates.some((candidate) => valid(candidate));
}
