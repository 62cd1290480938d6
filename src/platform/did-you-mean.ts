/** "Did you mean …?" for a mistyped option, key or value: the nearest known word within a small edit distance. */

/** Levenshtein distance, with an adjacent swap counted as one edit (the usual typo). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The closest candidate, or undefined when none is near enough to be a typo of `word`. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.min(3, Math.floor(word.length / 3)));
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    const prefix = candidate.startsWith(word) && word.length >= 3;
    const score = prefix ? Math.min(distance, 1) : distance;
    if (score <= limit && (!best || score < best.distance)) best = { candidate, distance: score };
  }
  return best?.candidate;
}

/** ` (did you mean "x"?)`, or nothing. */
export function didYouMean(word: string, candidates: Iterable<string>, quote = '"'): string {
  const match = closest(word, candidates);
  return match === undefined ? "" : ` (did you mean ${quote}${match}${quote}?)`;
}
