import { aDocumentRecord } from '@inquest/store/testing';
import { DocumentIndexer, TITLE_WEIGHT, weightedText } from './document-indexer';
import { knowledgeHarness } from './testing/knowledge-harness';

describe('DocumentIndexer', () => {
  let h: ReturnType<typeof knowledgeHarness>;
  let indexer: DocumentIndexer;
  beforeEach(() => {
    h = knowledgeHarness();
    indexer = new DocumentIndexer({ ...h, now: h.now });
  });
  afterEach(() => h.close());

  const doc = (content: string, over = {}) =>
    aDocumentRecord({ team_id: 't1', title: 'Disk full', service: 'db', content, ...over });

  it('stores one leaf per chunk with the document facts in its payload', async () => {
    const d = doc('The disk of the database filled up. Delete old WAL segments.');
    expect(await indexer.indexDocument(d)).toBe(1);
    const [leaf] = await h.index.listLayer('t1', 0, true);
    expect(leaf?.id).toBe(`${d.document_id}:0`);
    expect(leaf?.payload).toMatchObject({
      document_id: d.document_id,
      service: 'db',
      title: 'Disk full',
      tree_layer: 0,
      content: d.content,
    });
    expect(leaf?.vector?.length).toBe(h.embedder.dimensions);
  });

  it('indexAndMark records the document as indexed with its chunk count and the time', async () => {
    const d = doc('Restart the pod when it is stuck.');
    await h.store.insertDocument(d);
    const r = await indexer.indexAndMark(d);
    expect(r).toEqual({ chunks: 1, indexed_at: h.now().toISOString() });
    expect(await h.store.getDocument('t1', d.document_id)).toMatchObject({
      status: 'indexed',
      chunks: 1,
      indexed_at: h.now().toISOString(),
    });
  });

  it('reindex embeds the named documents again (and only those)', async () => {
    const a = doc('First runbook about certificates.');
    const b = doc('Second runbook about queues.');
    await h.store.insertDocument(a);
    await h.store.insertDocument(b);
    await indexer.reindex('t1', [b.document_id]);
    const ids = (await h.index.listLayer('t1', 0, false)).map((l) => l.payload.document_id);
    expect(ids).toEqual([b.document_id]);
  });
});

describe('weightedText', () => {
  it('repeats the title, then service, tags and the piece', () => {
    const t = weightedText({ title: 'OOM', service: 'api', tags: ['k8s', 'mem'] }, 'body');
    expect(t.split('\n')).toEqual([...Array(TITLE_WEIGHT).fill('OOM'), 'api', 'k8s mem', 'body']);
  });

  it('leaves out what a document does not have', () => {
    expect(weightedText({ tags: [] }, 'just the body')).toBe('just the body');
  });
});
