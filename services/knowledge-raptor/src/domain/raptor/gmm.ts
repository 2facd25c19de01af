import { seededRandom } from './random';

/** A fitted Gaussian mixture with diagonal covariances. */
export interface GaussianMixture {
  k: number;
  weights: number[];
  means: number[][];
  variances: number[][];
  logLikelihood: number;
  bic: number;
}

const LOG2PI = Math.log(2 * Math.PI);
const REG = 1e-6;

/**
 * Fits a k-component diagonal Gaussian mixture by EM (k-means++ initialisation from the seeded
 * PRNG). BIC = -2 ln L + p ln n with p = 2kd + k - 1.
 */
export function fitGmm(
  points: number[][],
  k: number,
  seed: number,
  maxIter = 100,
): GaussianMixture {
  const n = points.length;
  const d = points[0]?.length ?? 0;
  const rand = seededRandom(seed);
  const means = kmeansPlusPlus(points, k, rand);
  const globalVar = new Array<number>(d).fill(0);
  const globalMean = new Array<number>(d).fill(0);
  for (const p of points) for (let j = 0; j < d; j++) globalMean[j]! += p[j]! / n;
  for (const p of points)
    for (let j = 0; j < d; j++) globalVar[j]! += (p[j]! - globalMean[j]!) ** 2 / n;
  let variances = means.map(() => globalVar.map((v) => v + REG));
  let weights = new Array<number>(k).fill(1 / k);
  const resp = points.map(() => new Float64Array(k));
  let prev = -Infinity;
  let ll = -Infinity;
  for (let iter = 0; iter < maxIter; iter++) {
    ll = eStep(points, weights, means, variances, resp);
    // M step
    const nk = new Float64Array(k);
    for (let i = 0; i < n; i++) for (let c = 0; c < k; c++) nk[c]! += resp[i]![c]!;
    for (let c = 0; c < k; c++) {
      const m = means[c]!;
      const v = variances[c]!;
      if (nk[c]! < 1e-10) continue;
      m.fill(0);
      for (let i = 0; i < n; i++) {
        const r = resp[i]![c]!;
        if (r < 1e-12) continue;
        const p = points[i]!;
        for (let j = 0; j < d; j++) m[j]! += (r * p[j]!) / nk[c]!;
      }
      v.fill(0);
      for (let i = 0; i < n; i++) {
        const r = resp[i]![c]!;
        if (r < 1e-12) continue;
        const p = points[i]!;
        for (let j = 0; j < d; j++) v[j]! += (r * (p[j]! - m[j]!) ** 2) / nk[c]!;
      }
      for (let j = 0; j < d; j++) v[j]! += REG;
    }
    weights = Array.from(nk, (x) => Math.max(x, 1e-10) / n);
    if (Math.abs(ll - prev) < 1e-4 * n) break;
    prev = ll;
  }
  variances = variances.map((v) => v.map((x) => Math.max(x, REG)));
  const params = 2 * k * d + k - 1;
  return { k, weights, means, variances, logLikelihood: ll, bic: -2 * ll + params * Math.log(n) };
}

/** Posterior probabilities of each component for each point; returns the total log-likelihood. */
export function eStep(
  points: number[][],
  weights: number[],
  means: number[][],
  variances: number[][],
  out: Float64Array[],
): number {
  const k = weights.length;
  const d = points[0]?.length ?? 0;
  const consts = variances.map((v, c) => {
    let s = Math.log(weights[c]!);
    for (let j = 0; j < d; j++) s -= 0.5 * (LOG2PI + Math.log(v[j]!));
    return s;
  });
  let ll = 0;
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    const row = out[i]!;
    let max = -Infinity;
    for (let c = 0; c < k; c++) {
      const m = means[c]!;
      const v = variances[c]!;
      let s = consts[c]!;
      for (let j = 0; j < d; j++) s -= (p[j]! - m[j]!) ** 2 / (2 * v[j]!);
      row[c] = s;
      if (s > max) max = s;
    }
    let sum = 0;
    for (let c = 0; c < k; c++) sum += Math.exp(row[c]! - max);
    const lse = max + Math.log(sum);
    ll += lse;
    for (let c = 0; c < k; c++) row[c] = Math.exp(row[c]! - lse);
  }
  return ll;
}

function kmeansPlusPlus(points: number[][], k: number, rand: () => number): number[][] {
  const n = points.length;
  const centers: number[][] = [[...points[Math.floor(rand() * n)]!]];
  const dist = new Float64Array(n).fill(Infinity);
  while (centers.length < k) {
    const last = centers[centers.length - 1]!;
    let total = 0;
    for (let i = 0; i < n; i++) {
      const p = points[i]!;
      let s = 0;
      for (let j = 0; j < p.length; j++) s += (p[j]! - last[j]!) ** 2;
      if (s < dist[i]!) dist[i] = s;
      total += dist[i]!;
    }
    let r = rand() * total;
    let pick = n - 1;
    for (let i = 0; i < n; i++) {
      r -= dist[i]!;
      if (r <= 0) {
        pick = i;
        break;
      }
    }
    centers.push([...points[pick]!]);
  }
  return centers;
}

/**
 * Chooses the component count by BIC over 1..maxK (on a seeded sample of at most
 * `sampleSize` points for speed; every count up to 10, then a geometric grid, stopping after
 * three counts in a row that do not improve), then fits the chosen count on all points.
 */
export function fitGmmByBic(
  points: number[][],
  maxK: number,
  seed: number,
  sampleSize = 800,
): GaussianMixture {
  const n = points.length;
  const rand = seededRandom(seed ^ 0x5eed);
  let sample = points;
  if (n > sampleSize) {
    const idx = points.map((_, i) => i);
    for (let i = idx.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [idx[i], idx[j]] = [idx[j]!, idx[i]!];
    }
    sample = idx.slice(0, sampleSize).map((i) => points[i]!);
  }
  const upper = Math.max(1, Math.min(maxK, sample.length - 1));
  const grid: number[] = [];
  for (let k = 1; k <= upper; k = k < 10 ? k + 1 : Math.ceil(k * 1.25)) grid.push(k);
  if (grid[grid.length - 1] !== upper) grid.push(upper);
  let best: GaussianMixture | undefined;
  let worse = 0;
  for (const k of grid) {
    const g = fitGmm(sample, k, seed, 40);
    if (!best || g.bic < best.bic) {
      best = g;
      worse = 0;
    } else if (++worse >= 3) {
      // BIC is U-shaped in k: three larger counts in a row without improvement end the search
      break;
    }
  }
  return sample === points ? best! : fitGmm(points, best!.k, seed);
}

/**
 * Soft assignment: a point joins every component whose posterior exceeds `threshold` (and
 * always its most likely one). Returns member index lists of the non-empty components.
 */
export function softAssign(points: number[][], g: GaussianMixture, threshold: number): number[][] {
  const resp = points.map(() => new Float64Array(g.k));
  eStep(points, g.weights, g.means, g.variances, resp);
  const members: number[][] = Array.from({ length: g.k }, () => []);
  resp.forEach((row, i) => {
    let arg = 0;
    for (let c = 1; c < g.k; c++) if (row[c]! > row[arg]!) arg = c;
    for (let c = 0; c < g.k; c++) if (c === arg || row[c]! > threshold) members[c]!.push(i);
  });
  return members.filter((m) => m.length > 0);
}
