import { createEgress } from '@inquest/egress';
import { startJsonAnswerServer, type JsonAnswerServer } from '@inquest/testing';
import { HttpReranker } from './http-reranker';

describe('HttpReranker (a /rerank server on loopback)', () => {
  const RANKED = {
    results: [
      { index: 1, relevance_score: 0.9 },
      { index: 0, relevance_score: 0.1 },
    ],
  };
  let reranker: JsonAnswerServer;
  let base: string;
  const egress = createEgress({ allow: ['127.0.0.1'] });
  beforeAll(async () => {
    reranker = await startJsonAnswerServer();
    base = reranker.url;
  });
  afterAll(async () => {
    await reranker.stop();
    await egress.close();
  });
  beforeEach(() => {
    reranker.hits = 0;
    reranker.answer = { status: 200, body: RANKED };
  });

  it('answers the indexes and scores of the /rerank API', async () => {
    const r = new HttpReranker(egress);
    await expect(r.rerank(`${base}/rerank`, 'q', ['a', 'b'], 2)).resolves.toEqual([
      { index: 1, score: 0.9 },
      { index: 0, score: 0.1 },
    ]);
  });

  it("opens a URL's circuit after repeated failures; other URLs are not affected", async () => {
    const r = new HttpReranker(egress);
    reranker.answer = { status: 503, body: {} };
    for (let i = 0; i < 5; i++)
      await expect(r.rerank(`${base}/rerank`, 'q', ['a'], 1)).rejects.toMatchObject({
        kind: 'unavailable',
      });
    expect(reranker.hits).toBe(5);
    reranker.answer = { status: 200, body: RANKED };
    await expect(r.rerank(`${base}/rerank`, 'q', ['a'], 1)).rejects.toMatchObject({
      code: 'reranker_unavailable',
      message: expect.stringContaining('circuit open'),
    });
    expect(reranker.hits).toBe(5);
    await expect(r.rerank(`${base}/other`, 'q', ['a', 'b'], 2)).resolves.toHaveLength(2);
    expect(reranker.hits).toBe(6);
  });
});
