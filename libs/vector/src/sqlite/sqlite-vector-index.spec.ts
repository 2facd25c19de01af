import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { tempDir } from '@inquest/testing';
import { aChunk } from '../testing/vector-index.contract';
import { cosine, type SearchRequest } from '../vector-index';
import { Bm25Worker } from './bm25-worker';
import { SqliteVectorIndex } from './sqlite-vector-index';

const dir = tempDir();
const dims = 256;
const space = { model: 'scan-test', dimensions: dims };

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296 - 0.5;
  };
}
const rand = rng(11);
const vec = () => Float32Array.from({ length: dims }, () => rand());
/** embeddings are clustered by topic: a topic's direction plus noise */
const topics = Array.from({ length: 60 }, vec);
const near = (base: Float32Array, noise: number) => base.map((x) => x + noise * rand());
const topical = (i: number) => near(topics[i % topics.length]!, 0.9);

/** Lets the background loading of a team's sign codes finish. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await tick();
};

describe('SqliteVectorIndex dense pass', () => {
  it('finds the exact nearest as well from the in-memory sign codes (warm) as from sqlite-vec (cold)', async () => {
    const file = join(dir, 'warm.db');
    const index = SqliteVectorIndex.open({ file, space });
    const chunks = Array.from({ length: 9000 }, (_, i) =>
      aChunk(
        {
          id: `c${i}`,
          teamId: i % 3 ? 'team-a' : 'team-b',
          vector: topical(i),
          payload: { level: `L${1 + (i % 4)}` } as never,
        },
        dims,
      ),
    );
    await index.upsert(chunks);
    const queries: SearchRequest[] = Array.from({ length: 12 }, (_, q) => ({
      teamId: 'team-a',
      mode: 'dense',
      vector: topical(q * 7),
      limit: 10,
      filter: q % 3 === 0 ? { levels: ['L2', 'L4'] } : undefined,
    }));
    // codes load in the background: the first queries are answered by sqlite-vec
    const fresh = SqliteVectorIndex.open({ file, space, codesLoadAtOnce: 0 });
    const cold = [];
    for (const q of queries) cold.push((await fresh.search(q)).map((h) => h.id));
    await settle();
    const warm = [];
    for (const q of queries) warm.push((await fresh.search(q)).map((h) => h.id));
    // exact cosine top 10 by brute force
    const byId = new Map(chunks.map((c) => [c.id, c]));
    const exact = queries.map((q) =>
      chunks
        .filter((c) => c.teamId === 'team-a')
        .filter((c) => !q.filter?.levels || q.filter.levels.includes(c.payload.level))
        .map((c) => ({ id: c.id, s: cosine(q.vector!, c.vector) }))
        .sort((a, b) => b.s - a.s)
        .slice(0, 10)
        .map((x) => x.id),
    );
    const recall = (got: string[][]) =>
      got.reduce((sum, ids, i) => sum + ids.filter((id) => exact[i]!.includes(id)).length, 0) /
      (10 * got.length);
    expect(warm.every((ids) => ids.length === 10)).toBe(true);
    // sign codes of 256 dimensions with 120 coarse candidates: about 0.9 on this data
    expect(recall(warm)).toBeGreaterThanOrEqual(0.85);
    expect(recall(warm)).toBeGreaterThanOrEqual(recall(cold) - 0.02);
    for (const [i, ids] of warm.entries())
      for (const id of ids) {
        const level = byId.get(id)!.payload.level;
        if (queries[i]!.filter) expect(['L2', 'L4']).toContain(level);
      }

    // writes through this handle keep the in-memory codes current
    const probe = vec();
    await fresh.upsert([aChunk({ id: 'new', teamId: 'team-a', vector: probe }, dims)]);
    const hit = await fresh.search({ teamId: 'team-a', mode: 'dense', vector: probe, limit: 1 });
    expect(hit[0]?.id).toBe('new');
    await fresh.delete('team-a', { documentIds: ['doc-new'] });
    const gone = await fresh.search({ teamId: 'team-a', mode: 'dense', vector: probe, limit: 5 });
    expect(gone.map((h) => h.id)).not.toContain('new');

    // a write by another connection to the file is seen too
    await index.upsert([aChunk({ id: 'other', teamId: 'team-a', vector: probe }, dims)]);
    const seen = await fresh.search({ teamId: 'team-a', mode: 'dense', vector: probe, limit: 1 });
    expect(seen[0]?.id).toBe('other');
    await settle();
    const still = await fresh.search({ teamId: 'team-a', mode: 'dense', vector: probe, limit: 1 });
    expect(still[0]?.id).toBe('other');
    // team-b's items never show up in team-a's results
    expect(warm.flat().every((id) => Number(id.slice(1)) % 3 !== 0)).toBe(true);
    await fresh.close();
    await index.close();
  }, 60000);
});

describe('SqliteVectorIndex sparse pass in a worker thread', () => {
  it('ranks exactly as the in-thread pass, for sparse and hybrid searches', async () => {
    const file = join(dir, 'bm25.db');
    const words = ['pod', 'oom', 'disk', 'latency', 'cert', 'dns', 'queue', 'lag', 'node', 'tls'];
    const writer = SqliteVectorIndex.open({ file, space });
    await writer.upsert(
      Array.from({ length: 3000 }, (_, i) =>
        aChunk(
          {
            id: `s${i}`,
            teamId: i % 5 ? 'team-a' : 'team-b',
            vector: topical(i),
            text: Array.from({ length: 12 }, (_, j) => words[(i * 7 + j * j + (i >> 3)) % 10]).join(
              ' ',
            ),
            payload: { level: `L${1 + (i % 2)}` } as never,
          },
          dims,
        ),
      ),
    );
    const inThread = SqliteVectorIndex.open({ file, space, sparseWorkerFrom: Infinity });
    const inWorker = SqliteVectorIndex.open({ file, space, sparseWorkerFrom: 0 });
    const calls = jest.spyOn(Bm25Worker.prototype, 'search');
    try {
      for (let q = 0; q < 10; q++) {
        const req: SearchRequest = {
          teamId: 'team-a',
          mode: q % 2 ? 'sparse' : 'hybrid',
          text: `${words[q]} ${words[(q + 3) % 10]} ${words[(q + 5) % 10]}`,
          vector: topical(q),
          limit: 10,
          filter: q % 3 === 0 ? { levels: ['L2'] } : undefined,
        };
        const a = await inThread.search(req);
        const b = await inWorker.search(req);
        expect(b.map((h) => [h.id, h.score])).toEqual(a.map((h) => [h.id, h.score]));
        expect(a.length).toBeGreaterThan(0);
      }
      expect(calls).toHaveBeenCalledTimes(10);
      // the worker answered (a failed worker would reject and the index fall back silently)
      for (const r of calls.mock.results) expect(Array.isArray(await r.value)).toBe(true);
      // a write through another connection is visible to the worker's next query
      await writer.upsert([
        aChunk({ id: 'fresh', teamId: 'team-a', vector: topical(1), text: 'zebra zebra' }, dims),
      ]);
      const fresh = await inWorker.search({
        teamId: 'team-a',
        mode: 'sparse',
        text: 'zebra',
        limit: 3,
      });
      expect(fresh.map((h) => h.id)).toEqual(['fresh']);
    } finally {
      calls.mockRestore();
      await inWorker.close();
      await inThread.close();
      await writer.close();
    }
  }, 60000);
});
