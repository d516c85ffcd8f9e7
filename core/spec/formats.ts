/**
 * The date and time formats of the validators (`date-time`, `date`, `time`: RFC 3339 section 5.6,
 * as ajv-formats checks them), remembered per string. Every answer's timestamps are validated, and
 * the same records' timestamps come back in answer after answer; checking one takes a few regular
 * expressions and date arithmetic, remembering it one map lookup. The verdict is ajv-formats' own.
 *
 * The functions are replaced in ajv-formats' `fullFormats` object itself, when this module is first
 * imported (by core/spec/load.ts, before any validator exists): validators compiled in this process
 * and validators loaded from the cache (core/spec/validator-cache.ts, whose code reads
 * `fullFormats` at load) then use the same functions.
 * @see docs/decisions.md (Harness: "Date formats remembered per string")
 */
import formatsModule from 'ajv-formats/dist/formats.js';

/** Most strings a format remembers; past it, it starts again (a long session sees ever new timestamps). */
const MAX_REMEMBERED = 50_000;

type FormatDefinition = { validate?: unknown };
const full = (formatsModule as unknown as { fullFormats: Record<string, FormatDefinition> }).fullFormats;

/** The format's function, remembering its verdict per string. */
function remembered(validate: (text: string) => boolean): (text: string) => boolean {
  const verdicts = new Map<string, boolean>();
  const check = (text: string): boolean => {
    let verdict = verdicts.get(text);
    if (verdict === undefined) {
      verdict = validate(text);
      if (verdicts.size >= MAX_REMEMBERED) verdicts.clear();
      verdicts.set(text, verdict);
    }
    return verdict;
  };
  Object.defineProperty(check, 'remembers', { value: true });
  return check;
}

for (const name of ['date-time', 'date', 'time']) {
  const definition = full[name];
  const validate = definition?.validate;
  if (typeof validate === 'function' && !(validate as { remembers?: boolean }).remembers) definition!.validate = remembered(validate as (text: string) => boolean);
}

/** The formats' names whose verdicts are remembered. */
export const REMEMBERED_FORMATS: readonly string[] = ['date-time', 'date', 'time'];
