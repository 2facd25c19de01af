/**
 * Speed of the knowledge base on the embedded store (SQLite + sqlite-vec + FTS5, hashing
 * embeddings), the knowledge-raptor service started in-process and called over gRPC on loopback:
 * - teach throughput with documents of about 1 KB (goal >= 200 documents/s),
 * - hybrid retrieve top 10 latency with `--chunks` chunks in one team (goal p95 <= 50 ms at 100,000),
 * - RAPTOR tree rebuild for `--tree-chunks` chunks (goal <= 60 s at 10,000),
 * - peak RSS of the process (goal <= 1 GB).
 * Flags: --chunks=100000 --tree-chunks=10000 --teach-docs=2000 --queries=300 --concurrency=8
 * --data-dir=PATH keeps the data (and reuses what an earlier run loaded there);
 * --only=retrieve skips the teach and tree measurements.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@inquest/grpc-kit';
import { start } from '@inquest/knowledge-raptor-service';
import { silentLogger } from '@inquest/observability';
import { knowledgeV1 } from '@inquest/proto';
import { freePort } from '@inquest/testing';
import { docFactory, flag, loadKbCorpus, percentile } from './kb-bench-support';

async function pool<T>(
  n: number,
  concurrency: number,
  fn: (i: number) => Promise<T>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        if (i >= n) return;
        await fn(i);
      }
    }),
  );
}

export async function run(args: string[]): Promise<void> {
  const chunks = flag(args, 'chunks', 100_000);
  const treeChunks = flag(args, 'tree-chunks', 10_000);
  const teachDocs = flag(args, 'teach-docs', 2000);
  const queries = flag(args, 'queries', 300);
  const concurrency = flag(args, 'concurrency', 8);
  const keptDir = args.find((a) => a.startsWith('--data-dir='))?.slice('--data-dir='.length);
  const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 200);
  if (keptDir) mkdirSync(keptDir, { recursive: true });
  const dataDir = keptDir ?? mkdtempSync(join(tmpdir(), 'inquest-kb-speed-'));
  const svc = await start(
    {
      INQUEST_GRPC_PORT: '0',
      INQUEST_DATA_DIR: dataDir,
      INQUEST_CONFIG_ADDR: `127.0.0.1:${await freePort()}`,
      // the benchmark triggers tree builds itself
      INQUEST_KB_REBUILD_DEBOUNCE_MS: '3600000',
      INQUEST_LOG_LEVEL: 'silent',
    },
    { logger: silentLogger() },
  );
  const kb = createClient(knowledgeV1.KnowledgeServiceClient, svc.address, { deadlineMs: 120000 });
  const doc = docFactory(7);
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  const out = (s: string) => {
    process.stdout.write(
      `${s}  [rss ${mb(process.memoryUsage().rss)}, peak ${mb(Math.max(peakRss, process.memoryUsage().rss))}]\n`,
    );
  };
  try {
    // 1. teach throughput over gRPC (documents numbered from the team's current size, so a kept
    // data dir gets new documents rather than idempotent re-teaches)
    const before = (await kb.getTreeStats({ team_id: 'speed' })).total_documents;
    let t = performance.now();
    if (only !== 'retrieve')
      await pool(teachDocs, concurrency, (i) =>
        kb.teach({
          team_id: 'speed',
          content: doc(before + i),
          type: 'runbook',
          tags: [],
          format: 'text',
        }),
      );
    const teachSecs = (performance.now() - t) / 1000;
    if (only !== 'retrieve')
      out(
        `teach: ${teachDocs} documents of ~1 KB in ${teachSecs.toFixed(1)} s = ${(teachDocs / teachSecs).toFixed(0)} documents/s (gRPC, concurrency ${concurrency}; goal >= 200/s)`,
      );

    // 2. fill the team to the target chunk count (in process, same code path minus gRPC)
    t = performance.now();
    const loaded = await kb.getTreeStats({ team_id: 'speed' });
    let have = loaded.total_chunks;
    let i = loaded.total_documents;
    while (have < chunks) {
      const batch = Math.min(2000, chunks - have);
      await pool(batch, 4, async () => {
        const n = i++;
        await svc.knowledge.teach({ teamId: 'speed', content: doc(n), type: 'runbook' });
      });
      have = (await kb.getTreeStats({ team_id: 'speed' })).total_chunks;
    }
    out(
      `load: ${have} chunks in the team after ${((performance.now() - t) / 1000).toFixed(0)} s of in-process teaching`,
    );

    // 3. hybrid retrieve top 10 latency
    const { questions } = loadKbCorpus();
    for (let w = 0; w < 20; w++)
      await kb.retrieve({
        team_id: 'speed',
        query: questions[w % questions.length]!.q,
        top_k: 10,
        strategy: 'hybrid',
        levels: [],
        levels_enum: [],
      });
    const lat: number[] = [];
    const took: number[] = [];
    for (let q = 0; q < queries; q++) {
      const s = performance.now();
      const r = await kb.retrieve({
        team_id: 'speed',
        query: questions[q % questions.length]!.q,
        top_k: 10,
        strategy: 'hybrid',
        levels: [],
        levels_enum: [],
      });
      lat.push(performance.now() - s);
      took.push(r.took_ms);
    }
    lat.sort((a, b) => a - b);
    took.sort((a, b) => a - b);
    out(
      `retrieve hybrid top 10 over ${have} chunks (${queries} sequential queries): client p50 ${percentile(lat, 50).toFixed(1)} ms, p95 ${percentile(lat, 95).toFixed(1)} ms, p99 ${percentile(lat, 99).toFixed(1)} ms; server took_ms p95 ${percentile(took, 95).toFixed(1)} ms (goal p95 <= 50 ms)`,
    );

    if (only === 'retrieve') return;
    // 4. RAPTOR tree rebuild of a team with treeChunks chunks
    let j = 10_000_000;
    for (let haveTree = 0; haveTree < treeChunks;) {
      await pool(Math.min(1000, treeChunks - haveTree), 4, async () => {
        await svc.knowledge.teach({ teamId: 'tree', content: doc(j++), type: 'runbook' });
      });
      haveTree = (await kb.getTreeStats({ team_id: 'tree' })).total_chunks;
    }
    const leaves = (await kb.getTreeStats({ team_id: 'tree' })).total_chunks;
    t = performance.now();
    await svc.rebuildTree('tree');
    const treeSecs = (performance.now() - t) / 1000;
    const stats = await kb.getTreeStats({ team_id: 'tree' });
    out(
      `tree rebuild: ${leaves} chunks in ${treeSecs.toFixed(1)} s, depth ${stats.tree_depth}, nodes by layer ${JSON.stringify(stats.nodes_by_level)} (goal <= 60 s at 10,000)`,
    );
    // retrieval while a rebuild runs in the background (clustering is in a worker thread)
    const bg = svc.rebuildTree('tree');
    const during: number[] = [];
    for (let q = 0; q < 50; q++) {
      const s = performance.now();
      await kb.retrieve({
        team_id: 'speed',
        query: questions[q % questions.length]!.q,
        top_k: 10,
        strategy: 'hybrid',
        levels: [],
        levels_enum: [],
      });
      during.push(performance.now() - s);
    }
    await bg;
    during.sort((a, b) => a - b);
    out(`retrieve during a tree rebuild: p95 ${percentile(during, 95).toFixed(1)} ms`);
  } finally {
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    out(`peak RSS of the process: ${(peakRss / 1024 / 1024).toFixed(0)} MB (goal <= 1024 MB)`);
    kb.close();
    await svc.stop();
    if (!keptDir) rmSync(dataDir, { recursive: true, force: true });
  }
}
