import { TextAnalyzer } from '../text/text-analyzer';
import type { ChunkPayload, IndexedChunk, VectorIndex } from '../vector-index';

/** A small deterministic vector for tests: one-hot-ish in `dims` dimensions, L2-normalised. */
export function testVector(dims: number, hot: number[], noise = 0.01): Float32Array {
  const v = new Float32Array(dims).fill(noise);
  for (const h of hot) v[h % dims] = 1;
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  return v.map((x) => x / n);
}

/** A chunk builder with sensible defaults. */
export function aChunk(
  over: Partial<IndexedChunk> & { id: string; teamId: string },
  dims = 16,
  hot = [0],
): IndexedChunk {
  const payload: ChunkPayload = {
    document_id: `doc-${over.id}`,
    level: 'L1',
    type: 'runbook',
    tags: [],
    created_at: '2026-01-01T00:00:00.000Z',
    tree_layer: 0,
    content: over.text ?? '',
    ...over.payload,
  };
  return { vector: testVector(dims, hot), text: '', ...over, payload };
}

/**
 * The contract every VectorIndex adapter passes (run with describe.each over adapters).
 * `make` gives a fresh, empty index of a 16-dimension space.
 */
export function vectorIndexContract(make: () => Promise<VectorIndex>): void {
  let index: VectorIndex;
  beforeEach(async () => {
    index = await make();
  });
  afterEach(async () => {
    await index.close();
  });

  const seed = async () => {
    await index.upsert([
      aChunk(
        {
          id: 'a1',
          teamId: 'team-a',
          text: 'Pod is OOMKilled: raise the memory limit of the deployment',
        },
        16,
        [1],
      ),
      aChunk(
        { id: 'a2', teamId: 'team-a', text: 'Rotate the TLS certificate before it expires' },
        16,
        [2],
      ),
      aChunk(
        {
          id: 'a3',
          teamId: 'team-a',
          text: 'Payments incident: database connection pool exhausted',
          payload: { level: 'L3', type: 'incident' } as ChunkPayload,
        },
        16,
        [3],
      ),
      aChunk(
        { id: 'b1', teamId: 'team-b', text: 'OOMKilled pods in team b: memory limit' },
        16,
        [1],
      ),
    ]);
  };

  it('finds by dense vector within the team only', async () => {
    await seed();
    const hits = await index.search({
      teamId: 'team-a',
      mode: 'dense',
      vector: testVector(16, [1]),
      limit: 3,
    });
    expect(hits[0]?.id).toBe('a1');
    expect(hits.map((h) => h.id)).not.toContain('b1');
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it('finds by BM25 with the operations vocabulary (symptom wording -> runbook wording)', async () => {
    await seed();
    const hits = await index.search({
      teamId: 'team-a',
      mode: 'sparse',
      text: 'container exit code 137 out of memory',
      limit: 3,
    });
    expect(hits[0]?.id).toBe('a1');
    expect(hits.every((h) => h.id !== 'b1')).toBe(true);
    const none = await index.search({
      teamId: 'team-a',
      mode: 'sparse',
      text: 'zebra giraffe',
      limit: 3,
    });
    expect(none).toEqual([]);
  });

  it('fuses both paths by RRF in hybrid mode', async () => {
    await seed();
    const hits = await index.search({
      teamId: 'team-a',
      mode: 'hybrid',
      vector: testVector(16, [2]),
      text: 'certificate expired',
      limit: 3,
    });
    expect(hits[0]?.id).toBe('a2');
    // rank 1 on both paths
    expect(hits[0]!.score).toBeCloseTo(2 / 61, 6);
  });

  it('filters by level', async () => {
    await seed();
    const hits = await index.search({
      teamId: 'team-a',
      mode: 'hybrid',
      vector: testVector(16, [1]),
      text: 'pool',
      limit: 5,
      filter: { levels: ['L3'] },
    });
    expect(hits.map((h) => h.id)).toEqual(['a3']);
  });

  it('replaces on upsert, deletes by document and by layer, lists and counts', async () => {
    await seed();
    await index.upsert([
      aChunk({ id: 'a1', teamId: 'team-a', text: 'Disk full on the node' }, 16, [5]),
    ]);
    const sparse = await index.search({
      teamId: 'team-a',
      mode: 'sparse',
      text: 'oomkilled',
      limit: 5,
    });
    expect(sparse.map((h) => h.id)).not.toContain('a1');
    expect(await index.count('team-a')).toBe(3);
    await index.upsert([
      aChunk(
        {
          id: 's1',
          teamId: 'team-a',
          text: 'summary',
          payload: { tree_layer: 1, tree_version: 'v1' } as ChunkPayload,
        },
        16,
        [6],
      ),
      aChunk(
        {
          id: 's2',
          teamId: 'team-a',
          text: 'summary',
          payload: { tree_layer: 1, tree_version: 'v2' } as ChunkPayload,
        },
        16,
        [7],
      ),
    ]);
    expect(await index.count('team-a', 1)).toBe(2);
    await index.delete('team-a', { minTreeLayer: 1, exceptTreeVersion: 'v2' });
    expect((await index.listLayer('team-a', 1, false)).map((c) => c.id)).toEqual(['s2']);
    const leaves = await index.listLayer('team-a', 0, true);
    expect(leaves).toHaveLength(3);
    expect(leaves[0]!.vector).toHaveLength(16);
    await index.delete('team-a', { documentIds: ['doc-a2'] });
    expect(await index.count('team-a', 0)).toBe(2);
    expect(await index.count('team-b')).toBe(1);
    expect(await index.get('team-b', ['a1'])).toEqual([]);
    expect((await index.get('team-a', ['a1']))[0]?.payload.content).toBe('Disk full on the node');
  });

  it('no longer retrieves the chunks of a deleted document, in any mode, in its team only', async () => {
    await seed();
    const doomed = { document_id: 'doc-gone' } as ChunkPayload;
    const text = 'Flush the varnish cache after a purge storm';
    await index.upsert([
      aChunk({ id: 'g1', teamId: 'team-a', text, payload: doomed }, 16, [9]),
      aChunk({ id: 'g2', teamId: 'team-a', text: `${text} again`, payload: doomed }, 16, [9]),
      aChunk({ id: 'g3', teamId: 'team-b', text, payload: doomed }, 16, [9]),
    ]);
    const ids = async (teamId: string) =>
      Promise.all(
        (['dense', 'sparse', 'hybrid'] as const).map(async (mode) =>
          (
            await index.search({
              teamId,
              mode,
              text: 'varnish cache purge',
              vector: testVector(16, [9]),
              limit: 10,
            })
          ).map((h) => h.id),
        ),
      );
    for (const found of await ids('team-a')) expect(found).toEqual(expect.arrayContaining(['g1']));
    await index.delete('team-a', { documentIds: [] });
    expect(await index.count('team-a', 0)).toBe(5);
    await index.delete('team-a', { documentIds: ['doc-gone'] });
    for (const found of await ids('team-a')) {
      expect(found).not.toContain('g1');
      expect(found).not.toContain('g2');
    }
    expect(await index.get('team-a', ['g1', 'g2'])).toEqual([]);
    expect(await index.count('team-a', 0)).toBe(3);
    for (const found of await ids('team-b')) expect(found).toContain('g3');
  });

  it('ranks BM25 the same way for the same analyzer', async () => {
    const analyzer = new TextAnalyzer();
    expect(analyzer.terms('Pods keep restarting')).toContain('c_crashloop');
    await seed();
    const hits = await index.search({
      teamId: 'team-a',
      mode: 'sparse',
      text: 'memory limit',
      limit: 5,
    });
    expect(hits[0]?.id).toBe('a1');
  });
}
