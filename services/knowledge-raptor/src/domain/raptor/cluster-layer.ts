import { UMAP } from 'umap-js';
import { fitGmmByBic, softAssign } from './gmm';
import { gaussian, seededRandom } from './random';

export interface ClusterLayerOptions {
  seed: number;
  /** soft-assignment threshold (knowledge_base.raptor.cluster_threshold) */
  threshold: number;
  /** UMAP target dimension (RAPTOR uses 10) */
  reductionDim?: number;
  /** upper bound of the BIC search (default 50) */
  maxClusters?: number;
  /** UMAP epochs (default 200 up to 1,000 points, else 80: enough to separate clusters, and fast) */
  epochs?: number;
}

/**
 * RAPTOR clustering of one tree layer: reduce with UMAP (global neighbourhood ~ sqrt(n)),
 * Gaussian mixture with the count chosen by BIC and soft assignment; then inside each global
 * cluster the same again with a local neighbourhood (10). Vectors above 64 dimensions are first
 * projected to 64 with a seeded Gaussian random projection (distances are kept, Johnson-
 * Lindenstrauss) so UMAP's neighbour search stays fast. Deterministic for a given seed.
 * Returns clusters as index lists into `vectors` (a node may be in several).
 */
export function clusterLayer(
  vectors: Float32Array[],
  options: ClusterLayerOptions,
  allowSplit = true,
): number[][] {
  const dim = options.reductionDim ?? 10;
  const n = vectors.length;
  if (n <= dim + 1) return [vectors.map((_, i) => i)];
  const points = project(vectors, 64, options.seed);
  if (n > MAX_UMAP_POINTS && allowSplit) {
    // UMAP on a very large layer costs too much time and memory: split it first into groups of
    // at most MAX_UMAP_POINTS by seeded k-means, then cluster each group the RAPTOR way
    const groups = kmeansGroups(points, Math.ceil(n / MAX_UMAP_POINTS), options.seed);
    const all: number[][] = [];
    for (const g of groups) {
      if (!g.length) continue;
      for (const c of clusterLayer(
        g.map((i) => vectors[i]!),
        options,
        g.length < n,
      ))
        all.push(c.map((i) => g[i]!));
    }
    return all;
  }
  const globalReduced = reduce(
    points,
    Math.max(2, Math.min(15, Math.round(Math.sqrt(n - 1)))),
    options,
    options.seed,
  );
  const global = gmmClusters(globalReduced, options, options.seed);
  const out: number[][] = [];
  global.forEach((members, gi) => {
    if (members.length <= dim + 1) {
      out.push(members);
      return;
    }
    const seed = options.seed + 7919 * (gi + 1);
    // small clusters reuse their global coordinates: a UMAP of its own costs more than it adds
    const local =
      members.length < LOCAL_UMAP_MIN
        ? gmmClusters(
            members.map((i) => globalReduced[i]!),
            options,
            seed,
          )
        : gmmClusters(
            reduce(
              members.map((i) => points[i]!),
              10,
              options,
              seed,
            ),
            options,
            seed,
          );
    for (const l of local) out.push(l.map((i) => members[i]!));
  });
  const seen = new Set<string>();
  return out.filter((c) => {
    const key = [...c].sort((a, b) => a - b).join(',');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Layers above this size are pre-split before UMAP. */
export const MAX_UMAP_POINTS = 4_000;

function kmeansGroups(points: number[][], k: number, seed: number): number[][] {
  const rand = seededRandom(seed ^ 0x1234);
  let centers = Array.from({ length: k }, () =>
    points[Math.floor(rand() * points.length)]!.slice(),
  );
  let assign = new Int32Array(points.length);
  for (let iter = 0; iter < 10; iter++) {
    assign = new Int32Array(points.length);
    points.forEach((p, i) => {
      let best = 0;
      let bestD = Infinity;
      centers.forEach((c, ci) => {
        let d = 0;
        for (let j = 0; j < p.length; j++) d += (p[j]! - c[j]!) ** 2;
        if (d < bestD) {
          bestD = d;
          best = ci;
        }
      });
      assign[i] = best;
    });
    const sums = centers.map((c) => new Array<number>(c.length).fill(0));
    const counts = new Array<number>(k).fill(0);
    points.forEach((p, i) => {
      counts[assign[i]!]!++;
      const s = sums[assign[i]!]!;
      for (let j = 0; j < p.length; j++) s[j]! += p[j]!;
    });
    centers = sums.map((s, ci) => (counts[ci]! ? s.map((x) => x / counts[ci]!) : centers[ci]!));
  }
  const groups: number[][] = Array.from({ length: k }, () => []);
  assign.forEach((g, i) => groups[g]!.push(i));
  return groups;
}

/** Global clusters below this size are clustered locally in the global UMAP coordinates. */
const LOCAL_UMAP_MIN = 300;

function reduce(
  points: number[][],
  neighbors: number,
  options: ClusterLayerOptions,
  seed: number,
): number[][] {
  const n = points.length;
  const umap = new UMAP({
    nComponents: Math.min(options.reductionDim ?? 10, n - 2),
    nNeighbors: Math.min(neighbors, n - 1),
    minDist: 0.0,
    negativeSampleRate: 2,
    nEpochs: options.epochs ?? (n <= 1000 ? 200 : 80),
    random: seededRandom(seed),
  });
  return umap.fit(points);
}

function gmmClusters(reduced: number[][], options: ClusterLayerOptions, seed: number): number[][] {
  const n = reduced.length;
  if (n <= 2) return [reduced.map((_, i) => i)];
  const g = fitGmmByBic(
    reduced,
    Math.min(options.maxClusters ?? 50, Math.max(1, Math.floor(n / 2))),
    seed,
  );
  return softAssign(reduced, g, options.threshold);
}

function project(vectors: Float32Array[], target: number, seed: number): number[][] {
  const d = vectors[0]?.length ?? 0;
  if (d <= target) return vectors.map((v) => Array.from(v));
  const rand = seededRandom(seed ^ 0xabcdef);
  const scale = 1 / Math.sqrt(target);
  const m: Float64Array[] = Array.from({ length: target }, () =>
    Float64Array.from({ length: d }, () => gaussian(rand) * scale),
  );
  return vectors.map((v) =>
    m.map((row) => {
      let s = 0;
      for (let j = 0; j < d; j++) s += row[j]! * v[j]!;
      return s;
    }),
  );
}
