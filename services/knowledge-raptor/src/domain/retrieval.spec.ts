import { DocumentIndexer } from './document-indexer';
import { DocumentLibrary } from './document-library';
import { GraphQueries } from './graph-queries';
import { DEFAULT_SETTINGS } from './knowledge-settings';
import { Retrieval, UNCONFIRMED_GENERATED_FACTOR } from './retrieval';
import type { ExternalReranker } from './spaces';
import { knowledgeHarness } from './testing/knowledge-harness';

describe('Retrieval', () => {
  let h: ReturnType<typeof knowledgeHarness>;
  let lib: DocumentLibrary;
  const retrieval = (reranker?: ExternalReranker) =>
    new Retrieval({ ...h, now: h.now, graph: new GraphQueries(h), reranker });
  const teach = (content: string, over: { source?: string; title?: string } = {}) =>
    lib.teach({ teamId: 't1', content, type: 'runbook', ...over });
  let disk: string;
  let cert: string;

  beforeEach(async () => {
    h = knowledgeHarness();
    lib = new DocumentLibrary({ ...h, indexer: new DocumentIndexer(h) });
    disk = (await teach('The database disk is full: delete old WAL segments.')).document_id;
    cert = (await teach('The TLS certificate expired: rotate it with cert-manager.')).document_id;
  });
  afterEach(() => h.close());

  it('checks every field and names each problem', async () => {
    await expect(
      retrieval().retrieve({
        teamId: 't1',
        query: ' ',
        topK: 0,
        strategy: 'fuzzy',
        minRelevance: 2,
        levels: ['L9'],
      }),
    ).rejects.toMatchObject({
      options: {
        errors: ['query', 'top_k', 'strategy', 'min_relevance', 'levels'].map((field) => ({
          field,
          error: expect.any(String),
        })),
      },
    });
  });

  it.each(['dense', 'sparse', 'hybrid'])(
    'finds the matching document first (%s), records the query and the usage',
    async (strategy) => {
      const r = await retrieval().retrieve({
        teamId: 't1',
        query: 'disk full WAL segments',
        strategy,
        minRelevance: 0,
      });
      expect(r.strategy).toBe(strategy);
      expect(r.results[0]).toMatchObject({ document_id: disk, provenance: 'authored' });
      const q = await h.store.getQuery('t1', r.query_id);
      expect(q?.document_ids).toContain(disk);
      expect((await h.store.getDocument('t1', disk))?.usage_count).toBe(1);
    },
  );

  it('records neither the query nor the usage of an internal lookup', async () => {
    const r = await retrieval().retrieve({
      teamId: 't1',
      query: 'disk full WAL segments',
      minRelevance: 0,
      internal: true,
    });
    expect(r.results[0]?.document_id).toBe(disk);
    expect(r.query_id).toBe('');
    expect((await h.store.getDocument('t1', disk))?.usage_count).toBe(0);
  });

  it('drops results under the minimum relevance and keeps to top_k', async () => {
    const all = await retrieval().retrieve({ teamId: 't1', query: 'disk', minRelevance: 0 });
    expect(all.results.length).toBeGreaterThan(0);
    const some = await retrieval().retrieve({
      teamId: 't1',
      query: 'disk full WAL',
      minRelevance: 0,
      topK: 1,
    });
    expect(some.results).toHaveLength(1);
    const none = await retrieval().retrieve({ teamId: 't1', query: 'disk', minRelevance: 1 });
    expect(none.results).toEqual([]);
  });

  it('marks a learned incident generated and ranks it under the factor until confirmed', async () => {
    const learned = (
      await teach('The database disk is full: delete old WAL segments now.', {
        source: 'investigation',
      })
    ).document_id;
    const r = await retrieval().retrieve({
      teamId: 't1',
      query: 'database disk full WAL segments',
      minRelevance: 0,
    });
    const gen = r.results.find((x) => x.document_id === learned)!;
    expect(gen.provenance).toBe('generated');
    expect(r.results.findIndex((x) => x.document_id === disk)).toBeLessThan(r.results.indexOf(gen));
    expect(UNCONFIRMED_GENERATED_FACTOR).toBeLessThan(1);
  });

  it('orders by an external reranker, and keeps its own order when the reranker fails', async () => {
    h.setSettings({
      retrieval: { ...DEFAULT_SETTINGS.retrieval, reranker: 'http://reranker.test/rerank' },
    });
    const prefersCert: ExternalReranker = {
      rerank: async (_url, _q, docs) =>
        docs.map((d, index) => ({ index, score: d.includes('certificate') ? 0.99 : 0.1 })),
    };
    const r = await retrieval(prefersCert).retrieve({
      teamId: 't1',
      query: 'disk full',
      minRelevance: 0,
    });
    expect(r.results[0]?.document_id).toBe(cert);
    const failing: ExternalReranker = {
      rerank: async () => {
        throw new Error('reranker down');
      },
    };
    const kept = await retrieval(failing).retrieve({
      teamId: 't1',
      query: 'disk full',
      minRelevance: 0,
    });
    expect(kept.results[0]?.document_id).toBe(disk);
  });

  it('mmr lowers a near duplicate of a better result', async () => {
    await teach('The database disk is full: delete old WAL segments!');
    const query = { teamId: 't1', query: 'database disk full WAL segments', minRelevance: 0 };
    const plain = (await retrieval().retrieve(query)).results;
    h.setSettings({ retrieval: { ...DEFAULT_SETTINGS.retrieval, reranker: 'mmr' } });
    const diverse = (await retrieval().retrieve(query)).results;
    // the first retrieve raised the usage of both: compare the second's share of the first's
    expect(diverse.slice(0, 2).map((x) => x.document_id)).toEqual(
      plain.slice(0, 2).map((x) => x.document_id),
    );
    expect(diverse[1]!.score / diverse[0]!.score).toBeLessThan(
      (plain[1]!.score / plain[0]!.score) * 0.9,
    );
  });

  describe('feedback', () => {
    it('counts on every result of the query, or on the one named', async () => {
      const r = await retrieval().retrieve({ teamId: 't1', query: 'disk cert', minRelevance: 0 });
      const ids = [...new Set(r.results.map((x) => x.document_id))];
      expect(ids.sort()).toEqual([disk, cert].sort());
      await retrieval().feedback({ teamId: 't1', queryId: r.query_id, helpful: true });
      await retrieval().feedback({
        teamId: 't1',
        queryId: r.query_id,
        helpful: false,
        documentId: cert,
      });
      expect(await h.store.getDocument('t1', disk)).toMatchObject({ helpful: 1, unhelpful: 0 });
      expect(await h.store.getDocument('t1', cert)).toMatchObject({ helpful: 1, unhelpful: 1 });
    });

    it('does not find an unknown query, or a document the query did not return', async () => {
      const r = await retrieval().retrieve({
        teamId: 't1',
        query: 'disk full WAL',
        minRelevance: 0.3,
      });
      const fb = retrieval();
      await expect(
        fb.feedback({ teamId: 't1', queryId: 'q_nope', helpful: true }),
      ).rejects.toMatchObject({ kind: 'not_found' });
      await expect(
        fb.feedback({ teamId: 't2', queryId: r.query_id, helpful: true }),
      ).rejects.toMatchObject({ kind: 'not_found' });
      await expect(
        fb.feedback({ teamId: 't1', queryId: r.query_id, helpful: true, documentId: 'doc_x' }),
      ).rejects.toMatchObject({ kind: 'not_found' });
      await expect(
        fb.feedback({ teamId: 't1', queryId: ' ', helpful: true }),
      ).rejects.toMatchObject({ kind: 'invalid_input' });
    });
  });
});
