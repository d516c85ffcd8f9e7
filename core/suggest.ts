/**
 * "Did you mean …?" for names a person typed: config keys, fixture names, check ids, operationIds.
 * The distance is Damerau–Levenshtein (optimal string alignment: an insertion, deletion,
 * substitution or swap of two neighbours costs 1), so `prodcut_id` is one step from `product_id`.
 */

/** Edit distance between two strings (optimal string alignment), case-sensitive. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known name nearest to `word`, or undefined when none is close: within a third of the
 * word's length (at least 1, at most 3 edits), compared without case; ties go to the first candidate.
 */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `; did you mean "x"?` for the nearest known name, or an empty string when none is close. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const near = nearest(word, candidates);
  return near === undefined ? '' : `; did you mean "${near}"?`;
}

/**
 * One message for names that are not among the known ones, each with its nearest known name, then
 * the known names: `unknown check "foo" (did you mean "bar"?); checks: a, b, c`.
 * @param what singular noun of the names (`check`, `operation`)
 * @param list whether to list every known name after the unknown ones
 */
export function unknownNamesMessage(what: string, unknown: readonly string[], known: readonly string[], list = true): string {
  const each = unknown.map((name) => {
    const near = nearest(name, known);
    return `"${name}"${near === undefined ? '' : ` (did you mean "${near}"?)`}`;
  });
  return `unknown ${what}${unknown.length > 1 ? 's' : ''} ${each.join(', ')}${list ? `; ${what}s: ${known.join(', ')}` : ''}`;
}
