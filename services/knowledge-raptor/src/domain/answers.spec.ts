import { silentLogger } from '@inquest/observability';
import type { Summarizer } from '@inquest/llm';
import { Answers } from './answers';
import { DEFAULT_SETTINGS } from './knowledge-settings';
import type { RetrieveInput, RetrievedItem } from './retrieval';
import { aRetrievedItem } from './testing/knowledge-harness';

const item = aRetrievedItem;

function answers(results: RetrievedItem[], answerer?: Partial<Summarizer>) {
  const asked: RetrieveInput[] = [];
  const a = new Answers({
    settings: { get: async () => DEFAULT_SETTINGS },
    retrieval: {
      retrieve: async (input) => {
        asked.push(input);
        return { query_id: 'q_1', strategy: 'hybrid', results, took_ms: 1 };
      },
    },
    answerer: {
      id: 'extractive-v1',
      summarize: async () => 'unused',
      ...answerer,
    },
    logger: silentLogger(),
  });
  return { a, asked };
}

describe('Answers', () => {
  it('refuses an empty or overlong question', async () => {
    const { a } = answers([]);
    await expect(
      a.answer({ teamId: 't', question: ' ', includeSources: false }),
    ).rejects.toMatchObject({ kind: 'invalid_input' });
    await expect(
      a.answer({ teamId: 't', question: 'x'.repeat(8193), includeSources: false }),
    ).rejects.toMatchObject({ kind: 'invalid_input' });
  });

  it('says so when nothing was found', async () => {
    const { a } = answers([]);
    expect(await a.answer({ teamId: 't', question: 'why?', includeSources: true })).toEqual({
      query_id: 'q_1',
      answer: 'The knowledge base has nothing on this question yet.',
      confidence: 0,
      sources: [],
    });
  });

  it('quotes the best passage and a close second from another document, with sources', async () => {
    const { a, asked } = answers([
      item({ id: 'a', document_id: 'd1', score: 0.9, title: 'OOM', content: 'Raise the limit.' }),
      item({ id: 'b', document_id: 'd2', score: 0.81, content: '# Cache\nShrink the cache.' }),
      item({ id: 'c', document_id: 'd3', score: 0.2, content: 'Unrelated.' }),
    ]);
    const r = await a.answer({ teamId: 't', question: 'oom?', includeSources: true, service: 's' });
    expect(asked[0]).toMatchObject({ teamId: 't', query: 'oom?', service: 's', topK: 5 });
    expect(r.answer).toBe('[1] Raise the limit.\n\n[2] # Cache\nShrink the cache.');
    expect(r.confidence).toBe(Math.round(((0.9 * 2 + 0.81) / 3) * 1000) / 1000);
    expect(r.sources?.map((s) => [s.document_id, s.title])).toEqual([
      ['d1', 'OOM'],
      ['d2', 'Cache'],
    ]);
    expect((await a.answer({ teamId: 't', question: 'q', includeSources: false })).sources).toBe(
      undefined,
    );
  });

  it('lets a model compose the answer, and quotes the best passage when the model fails', async () => {
    const seen: string[][] = [];
    const { a } = answers([item({ content: 'Raise the limit.' })], {
      id: 'chat-model',
      summarize: async (passages) => {
        seen.push(passages);
        return 'Composed answer.';
      },
    });
    expect((await a.answer({ teamId: 't', question: 'q', includeSources: false })).answer).toBe(
      'Composed answer.',
    );
    expect(seen).toEqual([['Raise the limit.']]);
    const failing = answers([item({ content: 'Raise the limit.' })], {
      id: 'chat-model',
      summarize: async () => {
        throw new Error('model down');
      },
    });
    expect(
      (await failing.a.answer({ teamId: 't', question: 'q', includeSources: false })).answer,
    ).toBe('Raise the limit.');
  });
});
