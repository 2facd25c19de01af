/**
 * In-memory copy of one team's binary (sign-bit) codes for the coarse dense pass.
 *
 * sqlite-vec's vec0 k-NN over bit vectors costs grow with k (100,000 codes of 768 bits on two
 * cores: 7 ms at k=10, 19 ms at k=150, 70 ms at k=500) and a plain-table scan with
 * vec_distance_hamming is no faster; a popcount scan here is about 6 ms for any k, so the coarse
 * pass can keep enough candidates for the exact cosine rescoring. sqlite-vec stays the store
 * and the search path while a team's codes are loading.
 */
export class SignCodeScan {
  private codes: Uint32Array;
  private rids: Float64Array;
  private levels: Uint8Array;
  private readonly pos = new Map<number, number>();
  private n = 0;

  constructor(
    /** 32-bit words per code (dimensions / 32, rounded up) */
    readonly words: number,
    capacity = 1024,
  ) {
    this.codes = new Uint32Array(capacity * words);
    this.rids = new Float64Array(capacity);
    this.levels = new Uint8Array(capacity);
  }

  get size(): number {
    return this.n;
  }

  has(rid: number): boolean {
    return this.pos.has(rid);
  }

  /** Adds (or replaces) the code of row `rid`; `level` is a bit index 0..7 used by level masks. */
  add(rid: number, level: number, code: Uint32Array): void {
    if (this.pos.has(rid)) this.remove(rid);
    if (this.n === this.rids.length) this.grow();
    const at = this.n++;
    this.codes.set(code.subarray(0, this.words), at * this.words);
    this.rids[at] = rid;
    this.levels[at] = level;
    this.pos.set(rid, at);
  }

  /** Removes row `rid` (the last entry moves into its slot). */
  remove(rid: number): void {
    const at = this.pos.get(rid);
    if (at === undefined) return;
    this.pos.delete(rid);
    const last = --this.n;
    if (at !== last) {
      const w = this.words;
      this.codes.copyWithin(at * w, last * w, last * w + w);
      this.rids[at] = this.rids[last]!;
      this.levels[at] = this.levels[last]!;
      this.pos.set(this.rids[at], at);
    }
  }

  /**
   * The rows of the `k` codes nearest to `query` by Hamming distance, nearest first, among
   * rows whose level bit is in `levelMask`. Ties at the cut-off are broken by insertion slot.
   */
  nearest(query: Uint32Array, k: number, levelMask = 0xff): number[] {
    const w = this.words;
    const n = this.n;
    const maxD = w * 32;
    const dist = new Uint16Array(n);
    const hist = new Uint32Array(maxD + 1);
    const codes = this.codes;
    const levels = this.levels;
    for (let i = 0; i < n; i++) {
      if (!((1 << levels[i]!) & levelMask)) {
        dist[i] = FILTERED;
        continue;
      }
      let d = 0;
      const o = i * w;
      for (let j = 0; j < w; j++) d += popcount(codes[o + j]! ^ query[j]!);
      dist[i] = d;
      hist[d]!++;
    }
    // the distance at which the k nearest are reached, then one pass to collect them
    let cut = 0;
    for (let seen = 0; cut < maxD; cut++) {
      seen += hist[cut]!;
      if (seen >= k) break;
    }
    const picked: number[] = [];
    const atCut: number[] = [];
    for (let i = 0; i < n; i++) {
      const d = dist[i]!;
      if (d < cut) picked.push(i);
      else if (d === cut && d !== FILTERED) atCut.push(i);
    }
    for (const i of atCut) {
      if (picked.length >= k) break;
      picked.push(i);
    }
    picked.sort((a, b) => dist[a]! - dist[b]! || a - b);
    return picked.map((i) => this.rids[i]!);
  }

  private grow(): void {
    const cap = this.rids.length * 2;
    const codes = new Uint32Array(cap * this.words);
    codes.set(this.codes);
    const rids = new Float64Array(cap);
    rids.set(this.rids);
    const levels = new Uint8Array(cap);
    levels.set(this.levels);
    this.codes = codes;
    this.rids = rids;
    this.levels = levels;
  }
}

/** distance marker of rows outside the level mask (above any real distance) */
const FILTERED = 0xffff;

/** Sign bits of a vector (bit i set when v[i] > 0, as sqlite-vec's vec_quantize_binary). */
export function signCode(v: Float32Array, words = Math.ceil(v.length / 32)): Uint32Array {
  const out = new Uint32Array(words);
  for (let i = 0; i < v.length; i++) if (v[i]! > 0) out[i >>> 5]! |= 1 << (i & 31);
  return out;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}
