import type {
  DocumentRecord,
  GraphEdgeRecord,
  KnowledgeStore,
  Learning,
  PatternRecord,
} from '../knowledge/knowledge-store';

let counter = 0;

/** An indexed document with sensible defaults (optional fields absent). */
export function aDocumentRecord(overrides: Partial<DocumentRecord> = {}): DocumentRecord {
  const n = ++counter;
  return {
    document_id: `doc_${n}_${Math.random().toString(36).slice(2, 10)}`,
    team_id: 'team-a',
    content_hash: `hash-${n}-${Math.random().toString(36).slice(2, 10)}`,
    type: 'runbook',
    level: 'L2',
    tags: ['db'],
    content: `# Runbook ${n}\nRestart the pod.`,
    status: 'pending',
    chunks: 0,
    created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, n % 60)).toISOString(),
    usage_count: 0,
    helpful: 0,
    unhelpful: 0,
    confidence: 0.7,
    source: 'taught',
    ...overrides,
  };
}

/** A learned pattern seen once. */
export function aPatternRecord(overrides: Partial<PatternRecord> = {}): PatternRecord {
  const n = ++counter;
  return {
    pattern_id: `pat_${n}_${Math.random().toString(36).slice(2, 10)}`,
    team_id: 'team-a',
    service: 'checkout',
    symptoms: ['oom', 'crashloop'],
    root_cause: 'memory limit too low',
    solution: 'raise the limit',
    confidence: 0.45,
    base_confidence: 0.45,
    occurrences: 1,
    first_seen_at: '2026-01-01T00:00:00.000Z',
    last_seen_at: '2026-01-01T00:00:00.000Z',
    version: 0,
    ...overrides,
  };
}

const edge = (from: string, to: string, relation = 'depends_on', weight = 1): GraphEdgeRecord => ({
  from,
  from_kind: 'service',
  to,
  to_kind: 'service',
  relation,
  weight,
});

export interface KnowledgeStoreFactory {
  /** a store on fresh, empty data */
  create(): Promise<KnowledgeStore>;
  /** a second, independent handle (another connection / replica) on the data of the last create() */
  createPeer(): Promise<KnowledgeStore>;
  cleanup?(): Promise<void>;
}

/**
 * The behaviour every KnowledgeStore adapter must show. Call inside a describe block:
 * `describe('Sqlite', () => knowledgeStoreContract(factory))`.
 */
export function knowledgeStoreContract(factory: KnowledgeStoreFactory): void {
  let store: KnowledgeStore;
  const peers: KnowledgeStore[] = [];
  beforeEach(async () => {
    store = await factory.create();
  });
  afterEach(async () => {
    for (const p of peers.splice(0)) await p.close();
    await store.close();
    await factory.cleanup?.();
  });
  const peer = async () => {
    const p = await factory.createPeer();
    peers.push(p);
    return p;
  };

  describe('documents', () => {
    it('stores and reads back, found by content hash, scoped to the team', async () => {
      const doc = aDocumentRecord();
      await store.insertDocument(doc);
      expect(await store.getDocument('team-a', doc.document_id)).toEqual(doc);
      expect(await store.findDocumentByHash('team-a', doc.content_hash)).toEqual(doc);
      expect(await store.getDocument('team-b', doc.document_id)).toBeUndefined();
      expect(await store.findDocumentByHash('team-b', doc.content_hash)).toBeUndefined();
      expect(await store.getDocument('team-a', 'doc_missing')).toBeUndefined();
      const full = aDocumentRecord({
        service: 'checkout',
        title: 'T',
        author: 'ana',
        indexed_at: '2026-01-02T00:00:00.000Z',
        last_used_at: '2026-01-03T00:00:00.000Z',
        error: 'x',
      });
      await store.insertDocument(full);
      expect(await store.getDocument('team-a', full.document_id)).toEqual(full);
    });

    it('rejects a second document with the same content hash in a team, not in another team', async () => {
      const doc = aDocumentRecord();
      await store.insertDocument(doc);
      await expect(
        store.insertDocument(aDocumentRecord({ content_hash: doc.content_hash })),
      ).rejects.toHaveProperty('message');
      await store.insertDocument(
        aDocumentRecord({ team_id: 'team-b', content_hash: doc.content_hash }),
      );
      expect(await store.countDocuments('team-a')).toBe(1);
      expect(await store.countDocuments('team-b')).toBe(1);
    });

    it('updates the status; an error is kept only while given; other teams are untouched', async () => {
      const doc = aDocumentRecord();
      await store.insertDocument(doc);
      await store.updateDocumentStatus('team-a', doc.document_id, {
        status: 'failed',
        error: 'embeddings unavailable',
      });
      expect(await store.getDocument('team-a', doc.document_id)).toMatchObject({
        status: 'failed',
        error: 'embeddings unavailable',
        chunks: 0,
      });
      await store.updateDocumentStatus('team-a', doc.document_id, {
        status: 'indexed',
        chunks: 3,
        indexed_at: '2026-01-05T00:00:00.000Z',
      });
      const got = await store.getDocument('team-a', doc.document_id);
      expect(got).toMatchObject({
        status: 'indexed',
        chunks: 3,
        indexed_at: '2026-01-05T00:00:00.000Z',
      });
      expect(got?.error).toBeUndefined();
      await store.updateDocumentStatus('team-b', doc.document_id, { status: 'failed' });
      expect((await store.getDocument('team-a', doc.document_id))?.status).toBe('indexed');
      await store.updateDocumentStatus('team-a', doc.document_id, { status: 'pending' });
      expect(await store.getDocument('team-a', doc.document_id)).toMatchObject({
        status: 'pending',
        chunks: 3,
        indexed_at: '2026-01-05T00:00:00.000Z',
      });
    });

    it('reads many by id (only the team own), lists by status and by team in creation order', async () => {
      const docs = Array.from({ length: 620 }, (_, i) =>
        aDocumentRecord({
          created_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
          status: i % 2 ? 'indexed' : 'pending',
        }),
      );
      for (const d of docs) await store.insertDocument(d);
      const other = aDocumentRecord({ team_id: 'team-b', status: 'pending' });
      await store.insertDocument(other);
      const got = await store.getDocuments('team-a', [
        ...docs.map((d) => d.document_id),
        other.document_id,
        'doc_missing',
      ]);
      expect(got.map((d) => d.document_id).sort()).toEqual(docs.map((d) => d.document_id).sort());
      expect(await store.getDocuments('team-a', [])).toEqual([]);
      const pending = await store.listDocumentsByStatus('pending');
      expect(pending).toHaveLength(311);
      expect(pending.map((d) => d.document_id)).toContain(other.document_id);
      const listed = await store.listTeamDocuments('team-a');
      expect(listed.map((d) => d.document_id)).toEqual(docs.map((d) => d.document_id));
      expect(await store.countDocuments('team-a')).toBe(620);
      expect(await store.countDocuments('team-c')).toBe(0);
    });

    it('deletes a document of the team only; the content can be taught again afterwards', async () => {
      const doc = aDocumentRecord();
      const kept = aDocumentRecord();
      await store.insertDocument(doc);
      await store.insertDocument(kept);
      expect(await store.deleteDocument('team-b', doc.document_id)).toBe(false);
      expect(await store.deleteDocument('team-a', 'doc_missing')).toBe(false);
      expect(await store.getDocument('team-a', doc.document_id)).toEqual(doc);

      expect(await store.deleteDocument('team-a', doc.document_id)).toBe(true);
      expect(await store.getDocument('team-a', doc.document_id)).toBeUndefined();
      expect(await store.findDocumentByHash('team-a', doc.content_hash)).toBeUndefined();
      expect(await store.countDocuments('team-a')).toBe(1);
      expect(await (await peer()).getDocument('team-a', doc.document_id)).toBeUndefined();
      expect(await store.deleteDocument('team-a', doc.document_id)).toBe(false);
      await store.insertDocument(aDocumentRecord({ content_hash: doc.content_hash }));
      expect(await store.countDocuments('team-a')).toBe(2);
    });

    it('records usage once per document per call and feedback per document', async () => {
      const a = aDocumentRecord();
      const b = aDocumentRecord();
      const foreign = aDocumentRecord({ team_id: 'team-b' });
      for (const d of [a, b, foreign]) await store.insertDocument(d);
      await store.recordUsage(
        'team-a',
        [a.document_id, a.document_id, foreign.document_id],
        '2026-02-01T00:00:00.000Z',
      );
      await store.recordUsage('team-a', [a.document_id, b.document_id], '2026-02-02T00:00:00.000Z');
      await store.recordUsage('team-a', [], '2026-02-03T00:00:00.000Z');
      expect(await store.getDocument('team-a', a.document_id)).toMatchObject({
        usage_count: 2,
        last_used_at: '2026-02-02T00:00:00.000Z',
      });
      expect((await store.getDocument('team-a', b.document_id))?.usage_count).toBe(1);
      expect((await store.getDocument('team-b', foreign.document_id))?.usage_count).toBe(0);

      const at = '2026-02-04T00:00:00.000Z';
      await store.addFeedback(
        'team-a',
        'q_1',
        [a.document_id, a.document_id, b.document_id],
        true,
        'great',
        at,
      );
      await store.addFeedback('team-a', 'q_2', [a.document_id], false, undefined, at);
      await store.addFeedback('team-a', 'q_3', [foreign.document_id], false, undefined, at);
      expect(await store.getDocument('team-a', a.document_id)).toMatchObject({
        helpful: 1,
        unhelpful: 1,
      });
      expect(await store.getDocument('team-a', b.document_id)).toMatchObject({
        helpful: 1,
        unhelpful: 0,
      });
      expect(await store.getDocument('team-b', foreign.document_id)).toMatchObject({
        helpful: 0,
        unhelpful: 0,
      });
    });
  });

  it('stores queries scoped to the team', async () => {
    const q = {
      query_id: 'q_abc',
      team_id: 'team-a',
      query: 'pods restarting',
      service: 'checkout',
      document_ids: ['doc_1', 'doc_2'],
      created_at: '2026-01-01T00:00:00.000Z',
    };
    await store.insertQuery(q);
    await store.insertQuery({ ...q, query_id: 'q_plain', service: undefined });
    expect(await store.getQuery('team-a', 'q_abc')).toEqual(q);
    expect((await store.getQuery('team-a', 'q_plain'))?.service).toBeUndefined();
    expect(await store.getQuery('team-b', 'q_abc')).toBeUndefined();
    expect(await store.getQuery('team-a', 'q_missing')).toBeUndefined();
  });

  describe('learning from events', () => {
    const learning = (
      pattern: PatternRecord,
      expectedVersion: number,
      overrides: Partial<Learning> = {},
    ): Learning => ({
      eventId: `evt_${++counter}`,
      teamId: pattern.team_id,
      pattern,
      expectedVersion,
      edges: [edge('checkout', 'payments')],
      ...overrides,
    });

    it('creates a pattern and its edges once per event', async () => {
      const p = aPatternRecord();
      const l = learning(p, 0);
      expect(await store.isEventProcessed(l.eventId)).toBe(false);
      expect(await store.applyLearning(l)).toBe('applied');
      expect(await store.isEventProcessed(l.eventId)).toBe(true);
      expect(await store.listPatterns('team-a')).toEqual([{ ...p, version: 1 }]);
      expect(await store.listPatterns('team-b')).toEqual([]);
      expect(await store.applyLearning(l)).toBe('duplicate');
      expect(await store.applyLearning({ ...l, pattern: aPatternRecord() })).toBe('duplicate');
      expect(await store.listPatterns('team-a')).toHaveLength(1);
      expect(await store.edgesAround('team-a', 'checkout')).toEqual([edge('checkout', 'payments')]);
    });

    it('updates a pattern only at the version it was read at', async () => {
      const p = aPatternRecord();
      await store.applyLearning(learning(p, 0, { edges: [] }));
      const second = {
        ...p,
        occurrences: 2,
        confidence: 0.6,
        symptoms: ['oom', 'crashloop', '5xx'],
        last_seen_at: '2026-01-02T00:00:00.000Z',
      };
      expect(await store.applyLearning(learning(second, 1))).toBe('applied');
      expect(await store.listPatterns('team-a')).toEqual([{ ...second, version: 2 }]);

      // a writer that read version 1 lost the race: nothing of its learning is stored
      const stale = learning({ ...p, occurrences: 2, confidence: 0.99 }, 1, {
        edges: [edge('checkout', 'ledger')],
      });
      expect(await store.applyLearning(stale)).toBe('conflict');
      expect(await store.isEventProcessed(stale.eventId)).toBe(false);
      expect(await store.listPatterns('team-a')).toEqual([{ ...second, version: 2 }]);
      expect(await store.edgesAround('team-a', 'ledger')).toEqual([]);
      // read again, recompute, apply: accepted under the same event id
      const retried = { ...stale, pattern: { ...second, occurrences: 3 }, expectedVersion: 2 };
      expect(await store.applyLearning(retried)).toBe('applied');
      expect((await store.listPatterns('team-a'))[0]).toMatchObject({ occurrences: 3, version: 3 });
      expect(await store.edgesAround('team-a', 'ledger')).toHaveLength(1);

      // a new pattern whose id exists already is a conflict, not an overwrite
      expect(await store.applyLearning(learning({ ...p, root_cause: 'other' }, 0))).toBe(
        'conflict',
      );
      expect((await store.listPatterns('team-a'))[0]?.root_cause).toBe('memory limit too low');
    });

    it('counts an event once when two replicas race with the same and with different events', async () => {
      const other = await peer();
      const p = aPatternRecord();
      await store.applyLearning(learning(p, 0, { edges: [] }));
      // different events that both read version 1: exactly one wins
      const outcomes = await Promise.all([
        store.applyLearning(learning({ ...p, occurrences: 2 }, 1)),
        other.applyLearning(learning({ ...p, occurrences: 2 }, 1)),
      ]);
      expect(outcomes.filter((o) => o === 'applied')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'conflict')).toHaveLength(1);
      // the same event delivered to both at once: the pattern and the edge count it once
      const same = learning({ ...p, occurrences: 3 }, 2, { edges: [edge('checkout', 'search')] });
      const twice = await Promise.all([store.applyLearning(same), other.applyLearning(same)]);
      expect(twice.every((o) => o === 'applied' || o === 'duplicate')).toBe(true);
      expect((await store.listPatterns('team-a'))[0]).toMatchObject({ occurrences: 3, version: 3 });
      expect((await store.edgesAround('team-a', 'search'))[0]?.weight).toBe(1);
      expect(await other.isEventProcessed(same.eventId)).toBe(true);
    });
  });

  it('adds edge weights and finds edges from and to an entity, per team', async () => {
    await store.addEdges('team-a', [
      edge('checkout', 'payments'),
      edge('ana', 'checkout', 'expert_in', 0.5),
    ]);
    await store.addEdges('team-a', [edge('checkout', 'payments', 'depends_on', 2)]);
    await store.addEdges('team-b', [edge('checkout', 'fraud')]);
    await store.addEdges('team-a', []);
    const around = await store.edgesAround('team-a', 'checkout');
    expect(around.sort((a, b) => a.from.localeCompare(b.from))).toEqual([
      edge('ana', 'checkout', 'expert_in', 0.5),
      edge('checkout', 'payments', 'depends_on', 3),
    ]);
    expect(await store.edgesAround('team-a', 'fraud')).toEqual([]);
    expect(await store.edgesAround('team-b', 'checkout')).toEqual([edge('checkout', 'fraud')]);
    // concurrent first inserts of one edge from two replicas both count
    const other = await peer();
    await Promise.all([
      store.addEdges('team-a', [edge('search', 'index')]),
      other.addEdges('team-a', [edge('search', 'index')]),
    ]);
    expect((await store.edgesAround('team-a', 'index'))[0]?.weight).toBe(2);
  });

  it('keeps tree metadata per team, replaced on every set, visible to other replicas', async () => {
    expect(await store.getTreeMeta('team-a')).toBeUndefined();
    await store.setTreeMeta('team-a', {
      depth: 2,
      nodes_by_level: { '0': 40, '1': 6 },
      last_sync_at: '2026-01-01T00:00:00.000Z',
    });
    await store.setTreeMeta('team-a', { depth: 1, nodes_by_level: { '0': 41 } });
    expect(await store.getTreeMeta('team-a')).toEqual({ depth: 1, nodes_by_level: { '0': 41 } });
    expect(await store.getTreeMeta('team-b')).toBeUndefined();
    expect(await (await peer()).getTreeMeta('team-a')).toEqual({
      depth: 1,
      nodes_by_level: { '0': 41 },
    });
  });
}
