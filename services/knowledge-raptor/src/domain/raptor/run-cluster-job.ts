import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ClusterLayerOptions } from './cluster-layer';

/**
 * Clusters a layer in a worker thread. From the built code the worker is cluster-worker.js; when
 * running from TypeScript sources (tests) the worker compiles them with @swc/core on the fly.
 */
export function runClusterJob(
  vectors: Float32Array[],
  options: ClusterLayerOptions,
): Promise<number[][]> {
  const compiled = __filename.endsWith('.js');
  const entry = join(__dirname, compiled ? 'cluster-worker.js' : 'cluster-worker.ts');
  const data = { vectors, options, __entry: entry };
  const worker = compiled
    ? new Worker(entry, { workerData: data })
    : new Worker(
        `const { workerData } = require('node:worker_threads');
         const swc = require('@swc/core');
         const fs = require('node:fs');
         require.extensions['.ts'] = (m, filename) => {
           const out = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
             filename, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } });
           m._compile(out.code, filename);
         };
         require(workerData.__entry);`,
        { eval: true, workerData: data },
      );
  return new Promise((resolve, reject) => {
    worker.once('message', (msg: { ok: boolean; clusters?: number[][]; error?: string }) => {
      void worker.terminate();
      if (msg.ok) resolve(msg.clusters!);
      else reject(new Error(`clustering failed: ${msg.error}`));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`cluster worker exited with ${code}`));
    });
  });
}
