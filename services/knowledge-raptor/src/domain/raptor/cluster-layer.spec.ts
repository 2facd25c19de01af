import { clusterLayer } from './cluster-layer';
import { fitGmmByBic } from './gmm';
import { gaussian, seededRandom } from './random';
import { runClusterJob } from './run-cluster-job';

function blobs(centers: number, perCenter: number, dims: number, seed: number): Float32Array[] {
  const r = seededRandom(seed);
  const cs = Array.from({ length: centers }, () =>
    Array.from({ length: dims }, () => gaussian(r) * 5),
  );
  const out: Float32Array[] = [];
  for (const c of cs)
    for (let i = 0; i < perCenter; i++)
      out.push(Float32Array.from(c, (x) => x + gaussian(r) * 0.3));
  return out;
}

describe('RAPTOR clustering', () => {
  it('BIC picks the number of well separated blobs', () => {
    const pts = blobs(4, 40, 3, 1).map((v) => Array.from(v));
    expect(fitGmmByBic(pts, 10, 42).k).toBe(4);
  });
  it('clusters a layer deterministically and covers every node', () => {
    const vs = blobs(3, 20, 32, 2);
    const a = clusterLayer(vs, { seed: 7, threshold: 0.1 });
    const b = clusterLayer(vs, { seed: 7, threshold: 0.1 });
    expect(a).toEqual(b);
    expect(new Set(a.flat()).size).toBe(vs.length);
    expect(a.length).toBeGreaterThanOrEqual(3);
    // clusters are (almost) pure: nodes of different blobs rarely share one
    let majority = 0;
    let total = 0;
    for (const c of a) {
      const counts = [0, 0, 0];
      for (const i of c) counts[Math.floor(i / 20)]!++;
      majority += Math.max(...counts);
      total += c.length;
    }
    expect(majority / total).toBeGreaterThan(0.8);
  });
  it('runs in a worker thread', async () => {
    const vs = blobs(2, 15, 16, 3);
    const c = await runClusterJob(vs, { seed: 1, threshold: 0.1 });
    expect(new Set(c.flat()).size).toBe(30);
  }, 30000);
});
