import { parentPort, workerData } from 'node:worker_threads';
import { clusterLayer, type ClusterLayerOptions } from './cluster-layer';

/** Worker entry: clusters one layer off the main thread so teach and retrieve never wait on it. */
interface Job {
  vectors: Float32Array[];
  options: ClusterLayerOptions;
}

const job = workerData as Job;
try {
  parentPort?.postMessage({ ok: true, clusters: clusterLayer(job.vectors, job.options) });
} catch (err) {
  parentPort?.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
}
