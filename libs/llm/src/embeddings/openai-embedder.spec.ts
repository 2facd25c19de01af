import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAiEmbedder } from './openai-embedder';

describe('OpenAiEmbedder (scripted OpenAI-compatible server on loopback)', () => {
  let server: Server;
  let base: string;
  const seen: { model: string; input: string[] }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const parsed = JSON.parse(body) as { model: string; input: string[] };
        seen.push(parsed);
        if (req.url !== '/v1/embeddings') {
          res.writeHead(404).end();
          return;
        }
        const dims = parsed.model === 'wrong' ? 3 : 4;
        const data = parsed.input.map((t, i) => ({
          object: 'embedding',
          index: i,
          embedding: Array.from({ length: dims }, (_, j) => t.length + j),
        }));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            data: data.reverse(),
            model: parsed.model,
            usage: { prompt_tokens: 1, total_tokens: 1 },
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('batches, orders by index and normalises', async () => {
    const e = new OpenAiEmbedder({ baseUrl: base, model: 'emb-1', dimensions: 4, batchSize: 2 });
    expect(e.id).toBe('openai:emb-1');
    const out = await e.embed(['a', 'bbb', 'cc']);
    expect(out).toHaveLength(3);
    expect(seen.filter((s) => s.model === 'emb-1')).toHaveLength(2);
    const norm = Math.sqrt(Array.from(out[1]!).reduce((s, x) => s + x * x, 0));
    expect(norm).toBeCloseTo(1, 5);
    expect(out[1]![0]! / out[1]![3]!).toBeCloseTo(3 / 6, 5);
  });

  it('refuses vectors of the wrong dimension', async () => {
    const e = new OpenAiEmbedder({ baseUrl: base, model: 'wrong', dimensions: 4 });
    await expect(e.embed(['x'])).rejects.toMatchObject({ code: 'embeddings_unavailable' });
  });

  it('opens its circuit after repeated failures, then refuses without calling the API', async () => {
    const e = new OpenAiEmbedder({
      baseUrl: `${base}/broken`,
      model: 'emb-1',
      dimensions: 4,
      maxRetries: 0,
    });
    for (let i = 0; i < 5; i++)
      await expect(e.embed(['x'])).rejects.toMatchObject({ code: 'embeddings_unavailable' });
    const sent = seen.length;
    const refused = await e.embed(['x']).catch((err: unknown) => err);
    expect(refused).toMatchObject({
      code: 'embeddings_unavailable',
      message: expect.stringContaining('circuit open'),
    });
    expect(seen.length).toBe(sent);
  });
});
