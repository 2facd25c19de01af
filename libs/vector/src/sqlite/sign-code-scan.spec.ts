import { SignCodeScan, signCode } from './sign-code-scan';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296 - 0.5;
  };
}

const hamming = (a: Uint32Array, b: Uint32Array) => {
  let d = 0;
  for (let i = 0; i < a.length; i++) {
    let x = (a[i]! ^ b[i]!) >>> 0;
    while (x) {
      d += x & 1;
      x >>>= 1;
    }
  }
  return d;
};

describe('SignCodeScan', () => {
  const dims = 96;
  const rand = rng(7);
  const vectors = Array.from({ length: 500 }, () =>
    Float32Array.from({ length: dims }, () => rand()),
  );
  const codes = vectors.map((v) => signCode(v));

  it('sets bit i exactly when component i is positive', () => {
    const v = new Float32Array(40);
    v[0] = 1;
    v[31] = 0.5;
    v[32] = 2;
    v[33] = -1;
    v[39] = 0;
    expect(Array.from(signCode(v))).toEqual([(1 | (1 << 31)) >>> 0, 1]);
  });

  it('finds the k nearest codes by Hamming distance, as a brute-force scan does', () => {
    const scan = new SignCodeScan(3, 4);
    codes.forEach((c, i) => scan.add(1000 + i, 1 + (i % 4), c));
    expect(scan.size).toBe(500);
    for (let q = 0; q < 20; q++) {
      const query = signCode(Float32Array.from({ length: dims }, () => rand()));
      const got = scan.nearest(query, 25);
      expect(got).toHaveLength(25);
      const d = (rid: number) => hamming(codes[rid - 1000]!, query);
      const all = codes.map((c) => hamming(c, query)).sort((a, b) => a - b);
      // the same multiset of distances as the true 25 nearest, in ascending order
      expect(got.map(d)).toEqual(all.slice(0, 25));
    }
  });

  it('keeps only rows of the levels in the mask', () => {
    const scan = new SignCodeScan(3);
    codes.forEach((c, i) => scan.add(i, 1 + (i % 4), c));
    const got = scan.nearest(codes[2]!, 40, (1 << 3) | (1 << 4));
    expect(got).toHaveLength(40);
    expect(got.every((rid) => rid % 4 === 2 || rid % 4 === 3)).toBe(true);
    expect(got[0]).toBe(2);
    // fewer rows than k: all of them
    expect(scan.nearest(codes[0]!, 1000, 1 << 2)).toHaveLength(125);
  });

  it('removes and replaces rows', () => {
    const scan = new SignCodeScan(3);
    codes.slice(0, 10).forEach((c, i) => scan.add(i, 1, c));
    scan.remove(3);
    scan.remove(3);
    scan.remove(42);
    expect(scan.size).toBe(9);
    expect(scan.has(3)).toBe(false);
    expect(scan.nearest(codes[3]!, 10)).not.toContain(3);
    expect(scan.nearest(codes[9]!, 1)).toEqual([9]);
    // rid 0 now carries the code of row 5: a query for it finds both
    scan.add(0, 1, codes[5]!);
    expect(scan.size).toBe(9);
    expect(scan.nearest(codes[5]!, 2).sort()).toEqual([0, 5]);
  });
});
