import type { DocumentRecord } from '@inquest/store';
import { DocumentIndexer } from './document-indexer';
import { DocumentLibrary } from './document-library';
import { knowledgeHarness } from './testing/knowledge-harness';

describe('DocumentLibrary', () => {
  let h: ReturnType<typeof knowledgeHarness>;
  let scheduled: string[];
  let taught: DocumentRecord[];
  let lib: DocumentLibrary;
  const make = (indexer = new DocumentIndexer({ ...h, now: h.now })) =>
    new DocumentLibrary({
      ...h,
      now: h.now,
      indexer,
      tree: { schedule: (t) => void scheduled.push(t) },
      onTaught: async (d) => void taught.push(d),
    });
  beforeEach(() => {
    h = knowledgeHarness();
    scheduled = [];
    taught = [];
    lib = make();
  });
  afterEach(async () => {
    lib.stop();
    await h.close();
  });

  it('teaches a text document: stored, indexed, announced and the tree rebuilt', async () => {
    const r = await lib.teach({
      teamId: 't1',
      content: 'Restart the checkout pod when its memory keeps growing.',
      type: ' Runbook ',
      service: 'checkout',
      tags: [' k8s ', 'k8s'],
      title: 'Memory leak',
    });
    expect(r).toMatchObject({ status: 'indexed', level: 'L1', chunks: 1, created: true });
    expect(r.document_ids).toEqual([r.document_id]);
    const doc = await h.store.getDocument('t1', r.document_id);
    expect(doc).toMatchObject({ type: 'runbook', tags: ['k8s'], status: 'indexed', chunks: 1 });
    expect(await h.index.count('t1', 0)).toBe(1);
    expect(scheduled).toEqual(['t1']);
    expect(taught.map((d) => d.document_id)).toEqual([r.document_id]);
    // the document's service is in the graph
    expect((await h.store.edgesAround('t1', 'checkout')).length).toBeGreaterThan(0);
  });

  it('teaches each markdown section as its own document, titled by its heading', async () => {
    const r = await lib.teach({
      teamId: 't1',
      content: '# Disk full\nDelete old WAL segments.\n\n# Slow queries\nAdd the missing index.',
      type: 'runbook',
      format: 'markdown',
    });
    expect(r.document_ids).toHaveLength(2);
    expect(r.chunks).toBe(2);
    const titles = await Promise.all(
      r.document_ids.map(async (id) => (await h.store.getDocument('t1', id))?.title),
    );
    expect(titles).toEqual(['Disk full', 'Slow queries']);
  });

  it('answers the stored document when the same content is taught again', async () => {
    const input = { teamId: 't1', content: 'Rotate the TLS certificate.', type: 'runbook' };
    const first = await lib.teach(input);
    const again = await lib.teach({ ...input, content: '  Rotate the   TLS certificate. ' });
    expect(again).toMatchObject({ document_id: first.document_id, created: false });
    expect(await h.store.countDocuments('t1')).toBe(1);
    // another team's identical content is its own document
    expect((await lib.teach({ ...input, teamId: 't2' })).created).toBe(true);
  });

  it('rejects invalid input field by field', async () => {
    await expect(
      lib.teach({ teamId: 't1', content: 'a\u0000b', type: 'poem', tags: ['x'.repeat(65)] }),
    ).rejects.toMatchObject({
      kind: 'invalid_input',
      options: {
        errors: [
          { field: 'content', error: 'must be text (binary or control characters found)' },
          { field: 'type', error: expect.stringContaining('must be one of') },
          { field: 'tags.0', error: 'must be a non-empty string of at most 64 characters' },
        ],
      },
    });
  });

  /** A library whose indexing always fails, with the number of tries so far. */
  const failingLibrary = () => {
    const tries = { n: 0 };
    const broken = new DocumentIndexer({ ...h, now: h.now });
    broken.indexAndMark = async () => {
      tries.n += 1;
      throw new Error('embeddings down');
    };
    return { failing: make(broken), tries };
  };

  it('keeps a document pending when indexing fails', async () => {
    const { failing } = failingLibrary();
    const r = await failing.teach({ teamId: 't1', content: 'Some runbook.', type: 'runbook' });
    failing.stop();
    expect(r).toMatchObject({ status: 'pending', chunks: 0, created: true });
    expect(await lib.status('t1', r.document_id)).toMatchObject({ status: 'pending', chunks: 0 });
  });

  describe('retries (fake timers)', () => {
    beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] }));
    afterEach(() => jest.useRealTimers());

    it('retries a failed indexing and marks the document failed after three more tries', async () => {
      const { failing, tries } = failingLibrary();
      const r = await failing.teach({ teamId: 't1', content: 'A runbook.', type: 'runbook' });
      for (const ms of [4_000, 16_000, 64_000]) await jest.advanceTimersByTimeAsync(ms);
      expect(tries.n).toBe(4);
      expect(await lib.status('t1', r.document_id)).toMatchObject({ status: 'failed' });
    });

    it('runs no retry after stop(), so a closed store is never touched', async () => {
      const { failing, tries } = failingLibrary();
      const r = await failing.teach({ teamId: 't1', content: 'Another.', type: 'runbook' });
      failing.stop();
      await jest.advanceTimersByTimeAsync(100_000);
      expect(tries.n).toBe(1);
      expect(await lib.status('t1', r.document_id)).toMatchObject({ status: 'pending' });
    });
  });

  it('deletes a document with its chunks; an unknown or foreign id is not found', async () => {
    const r = await lib.teach({ teamId: 't1', content: 'Flush the DNS cache.', type: 'runbook' });
    scheduled = [];
    await expect(lib.deleteDocument('t2', r.document_id)).rejects.toMatchObject({
      kind: 'not_found',
    });
    await lib.deleteDocument('t1', r.document_id);
    expect(await h.index.count('t1', 0)).toBe(0);
    expect(await h.store.getDocument('t1', r.document_id)).toBeUndefined();
    expect(scheduled).toEqual(['t1']);
    await expect(lib.status('t1', r.document_id)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('reports the documents, leaves and tree of a team', async () => {
    await lib.teach({ teamId: 't1', content: 'One.', type: 'runbook' });
    await lib.teach({ teamId: 't1', content: 'Two.', type: 'runbook' });
    await h.store.setTreeMeta('t1', { depth: 1, nodes_by_level: { '1': 1 } });
    expect(await lib.treeStats('t1')).toEqual({
      total_documents: 2,
      total_chunks: 2,
      tree_depth: 1,
      nodes_by_level: { '0': 2, '1': 1 },
      last_sync_at: undefined,
    });
  });
});
