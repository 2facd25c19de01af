import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEgress } from '@inquest/egress';
import { HttpReranker } from './http-reranker';

describe('HttpReranker (a /rerank server on loopback)', () => {
  let server: Server;
  let base: string;
  let hits = 0;
  let failing = false;
  const egress = createEgress({ allow: ['127.0.0.1'] });
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits++;
      req.resume();
      req.on('end', () => {
        if (failing) {
          res.writeHead(503).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            results: [
              { index: 1, relevance_score: 0.9 },
              { index: 0, relevance_score: 0.1 },
            ],
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await egress.close();
  });
  beforeEach(() => {
    hits = 0;
    failing = false;
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
    failing = true;
    for (let i = 0; i < 5; i++)
      await expect(r.rerank(`${base}/rerank`, 'q', ['a'], 1)).rejects.toMatchObject({
        kind: 'unavailable',
      });
    expect(hits).toBe(5);
    failing = false;
    await expect(r.rerank(`${base}/rerank`, 'q', ['a'], 1)).rejects.toMatchObject({
      code: 'reranker_unavailable',
      message: expect.stringContaining('circuit open'),
    });
    expect(hits).toBe(5);
    await expect(r.rerank(`${base}/other`, 'q', ['a', 'b'], 2)).resolves.toHaveLength(2);
    expect(hits).toBe(6);
  });
});
