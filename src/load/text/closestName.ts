/**
 * The candidate a misspelt name was most likely meant to be, for "did you mean" hints:
 * `descripton` → `description`, `timezone` → `timeZone`, `mediumName` → `medium`.
 * Undefined when nothing is close enough to be a helpful guess.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const typed = name.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const known = candidate.toLowerCase();
    // An SPI element name (`mediumName`) or a plural slip (`genre`) contains the field's name.
    const contains =
      typed.length >= 4 &&
      known.length >= 4 &&
      (typed.startsWith(known) || known.startsWith(typed));
    const distance = contains ? 1 : editDistance(typed, known);
    if (
      distance <= Math.max(1, Math.floor(known.length / 3)) &&
      (!best || distance < best.distance)
    ) {
      best = { candidate, distance };
    }
  }
  return best?.candidate;
}

/** `; did you mean "x"?` or nothing: the tail of a message. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const guess = closestName(name, candidates);
  return guess === undefined || guess === name ? "" : `; did you mean "${guess}"?`;
}

/**
 * Edit distance counting an insertion, a deletion, a substitution or a swap of two neighbouring
 * characters (`mian` → `main`, the commonest slip of a fast typist) as one edit each.
 */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const above = rows[i - 1] as number[];
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      }
      row[j] = best;
    }
    rows.push(row);
  }
  return rows[a.length]?.[b.length] ?? 0;
}
