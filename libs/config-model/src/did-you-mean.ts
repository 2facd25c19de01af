/**
 * Edit distance with adjacent transpositions (optimal string alignment): `timeuot` is one edit
 * from `timeout`, as a typist would count it.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known name closest to `input`, when it is close enough to be a likely typo: at most 1 edit
 * for names up to 4 characters, 2 up to 8, 3 beyond; case and `-`/`_` differences are free.
 */
export function closestName(input: string, known: Iterable<string>): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/-/g, '_');
  const target = norm(input);
  const budget = target.length <= 4 ? 1 : target.length <= 8 ? 2 : 3;
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(target, norm(name));
    if (distance <= budget && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
