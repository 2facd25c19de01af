import { SignCodeScan, signCode } from './sign-code-scan';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296 - 0.5;
  };
}

/** The score the scan must compute: sign agreement on the query's non-zero dimensions / sqrt(nnz). */
function reference(doc: Float32Array, query: Float32Array): number {
  let agree = 0;
  let nnz = 0;
  for (let i = 0; i < doc.length; i++) {
    const d = Math.sign(doc[i]!);
    if (d) nnz++;
    agree += d * Math.sign(query[i]!);
  }
  return nnz ? agree / Math.sqrt(nnz) : 0;
}

describe('SignCodeScan', () => {
  const dims = 96;
  const rand = rng(7);
  /** sparse like hashed text features: a share of the dimensions are zero */
  const sparse = (density: number) =>
    Float32Array.from({ length: dims }, () => (Math.abs(rand()) < density / 2 ? rand() : 0));
  const vectors = Array.from({ length: 500 }, (_, i) => sparse(0.1 + (i % 9) * 0.1));

  it('sets the positive and negative bits of non-zero components', () => {
    const v = new Float32Array(40);
    v[0] = 1;
    v[31] = 0.5;
    v[32] = 2;
    v[33] = -1;
    v[39] = 0;
    const c = signCode(v);
    expect(Array.from(c.pos)).toEqual([(1 | (1 << 31)) >>> 0, 1]);
    expect(Array.from(c.neg)).toEqual([0, 2]);
    expect(c.nonZero).toBe(4);
  });

  it('returns the k best by the reference score, best first', () => {
    const scan = new SignCodeScan(3, 4);
    vectors.forEach((v, i) => scan.add(1000 + i, 1 + (i % 4), signCode(v)));
    expect(scan.size).toBe(500);
    for (let q = 0; q < 20; q++) {
      const query = sparse(0.3);
      const got = scan.nearest(signCode(query), 25);
      expect(got).toHaveLength(25);
      const want = vectors
        .map((v) => reference(v, query))
        .sort((a, b) => b - a)
        .slice(0, 25);
      const scores = got.map((rid) => reference(vectors[rid - 1000]!, query));
      expect(scores.map((x) => x.toFixed(6))).toEqual(want.map((x) => x.toFixed(6)));
    }
  });

  it('does not favour codes with many non-zero components (the Hamming bias)', () => {
    const scan = new SignCodeScan(3);
    const query = sparse(0.2);
    // a long chunk that agrees with the query wherever the query is non-zero, plus noise
    const long = Float32Array.from(query, (x) => (x ? x : rand()));
    scan.add(1, 1, signCode(long));
    // short chunks unrelated to the query
    for (let i = 0; i < 200; i++) scan.add(100 + i, 1, signCode(sparse(0.05)));
    expect(scan.nearest(signCode(query), 1)).toEqual([1]);
  });

  it('keeps only rows of the levels in the mask', () => {
    const scan = new SignCodeScan(3);
    vectors.forEach((v, i) => scan.add(i, 1 + (i % 4), signCode(v)));
    const got = scan.nearest(signCode(vectors[2]!), 40, (1 << 3) | (1 << 4));
    expect(got).toHaveLength(40);
    expect(got.every((rid) => rid % 4 === 2 || rid % 4 === 3)).toBe(true);
    expect(got[0]).toBe(2);
    // fewer rows than k: all of them
    expect(scan.nearest(signCode(vectors[0]!), 1000, 1 << 2)).toHaveLength(125);
  });

  it('removes and replaces rows', () => {
    const scan = new SignCodeScan(3);
    const dense = Array.from({ length: 10 }, () => Float32Array.from({ length: dims }, rand));
    dense.forEach((v, i) => scan.add(i, 1, signCode(v)));
    scan.remove(3);
    scan.remove(3);
    scan.remove(42);
    expect(scan.size).toBe(9);
    expect(scan.has(3)).toBe(false);
    expect(scan.nearest(signCode(dense[3]!), 10)).not.toContain(3);
    expect(scan.nearest(signCode(dense[9]!), 1)).toEqual([9]);
    // rid 0 now carries the vector of row 5: a query for it finds both
    scan.add(0, 1, signCode(dense[5]!));
    expect(scan.size).toBe(9);
    expect(scan.nearest(signCode(dense[5]!), 2).sort()).toEqual([0, 5]);
  });
});
