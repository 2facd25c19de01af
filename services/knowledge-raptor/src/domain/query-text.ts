/**
 * The text the sparse (BM25) leg searches a query by. People paste alerts and describe incidents
 * with times, dates, percentages, sizes, versions, replica counts and generated names (pod
 * hashes); those numbers say nothing about which runbook applies, but as tokens they match
 * unrelated numbers in documents (a release date, a limit in an example). They are removed before
 * the sparse leg sees the query. The dense leg keeps the whole query: measured on
 * tools/bench/data/kb, removing them there lowered the hashing embedder's hard-set MRR@10 by
 * 0.007. Numbers of three or four digits stand alone (an exit code 137, an HTTP 502, a port 5432)
 * and stay: they name a failure.
 */
const NOISE: RegExp[] = [
  // ISO dates and timestamps: 2026-05-04, 2026-05-04T10:05:00Z
  /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?Z?)?\b/gi,
  // times of day: 10:05, 09:12:30, 9am, 11 pm
  /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]m)?\b/gi,
  /\b\d{1,2}\s?[ap]m\b/gi,
  // percentages and ratios: 94%, 0.1 %, 0/12
  /\b\d+(?:\.\d+)?\s?%/g,
  /\b\d+\/\d+\b/g,
  // versions and addresses: v3.14, 7.4.1, 10.0.7.21
  /\bv?\d+(?:\.\d+){1,3}\b/gi,
  // quantities with a unit: 300ms, 20 minutes, 12 GB, 4GiB, 400k, 2k req/s (not 502s, 429s)
  /\b(?!\d{3,4}s\b)\d+(?:\.\d+)?\s?(?:ms|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|k|m|b|kb|mb|gb|tb|kib|mib|gib|tib|ki|mi|gi|ti|x)\b/gi,
];

/** Generated name parts: hexadecimal runs with both digits and letters (5c8d, 7f9a2b). */
const HEX_ID = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{4,}\b/gi;
/** Bare numbers that are not codes: one or two digits, or five and more. */
const BARE_NUMBER = /\b(?:\d{1,2}|\d{5,})\b/g;

export function queryText(query: string): string {
  let q = query;
  for (const re of NOISE) q = q.replace(re, ' ');
  q = q.replace(HEX_ID, ' ').replace(BARE_NUMBER, ' ');
  const cleaned = q.replace(/\s+/g, ' ').trim();
  // a query made only of numbers is searched as it is
  return /[\p{L}]/u.test(cleaned) ? cleaned : query;
}
