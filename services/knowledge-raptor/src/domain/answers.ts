import { validationError } from '@inquest/errors';
import type { Summarizer } from '@inquest/llm';
import type { Logger } from '@inquest/observability';
import type { SettingsSource } from './knowledge-settings';
import type { RetrievedItem, Retrieval } from './retrieval';

export interface AnswersDeps {
  settings: SettingsSource;
  retrieval: Pick<Retrieval, 'retrieve'>;
  /** composes answers (extractive by default, the configured LLM when there is one) */
  answerer: Summarizer;
  logger: Logger;
}

/** Answers a question from the best retrieved passages (quoted, or composed by the answerer). */
export class Answers {
  constructor(private readonly deps: AnswersDeps) {}

  async answer(input: {
    teamId: string;
    question: string;
    includeSources: boolean;
    service?: string;
    signal?: AbortSignal;
  }) {
    if (typeof input.question !== 'string' || !input.question.trim())
      throw validationError([{ field: 'question', error: 'must not be empty' }]);
    if (input.question.length > 8192)
      throw validationError([{ field: 'question', error: 'must be at most 8192 characters' }]);
    const settings = await this.deps.settings.get(input.teamId);
    const r = await this.deps.retrieval.retrieve({
      teamId: input.teamId,
      query: input.question,
      service: input.service,
      topK: Math.max(settings.retrieval.top_k, 5),
      signal: input.signal,
    });
    if (!r.results.length) {
      return {
        query_id: r.query_id,
        answer: 'The knowledge base has nothing on this question yet.',
        confidence: 0,
        sources: input.includeSources ? [] : undefined,
      };
    }
    const cited = answerPassages(r.results);
    let answer: string;
    if (this.deps.answerer.id.startsWith('extractive')) {
      answer = cited
        .map((t, i) =>
          cited.length > 1 ? `[${i + 1}] ${passageText(t.content)}` : passageText(t.content),
        )
        .join('\n\n');
    } else {
      try {
        answer = await this.deps.answerer.summarize(
          cited.map((t) => t.content),
          { focus: input.question, maxWords: 120, signal: input.signal },
        );
      } catch (err) {
        this.deps.logger.warn({ err }, 'answer model failed; answering with the best passage');
        answer = passageText(cited[0]!.content);
      }
    }
    const scores = cited.map((t) => t.score);
    const confidence = Math.round(((scores[0]! * 2 + (scores[1] ?? scores[0]!)) / 3) * 1000) / 1000;
    return {
      query_id: r.query_id,
      answer,
      confidence,
      sources: input.includeSources
        ? cited.map((t) => ({
            document_id: t.document_id,
            title: t.title ?? firstLine(t.content),
            snippet: t.content.length > 280 ? `${t.content.slice(0, 277)}...` : t.content,
            score: t.score,
            type: t.type,
            provenance: t.provenance,
          }))
        : undefined,
    };
  }
}

/** A second passage is cited when it comes from another document and scores this close to the best. */
export const SECOND_PASSAGE_RATIO = 0.85;
/** Words of a cited passage (cut at a line or sentence end). */
export const PASSAGE_WORDS = 160;

/**
 * The passages an answer cites: the best taught passage (a leaf; a tree summary only when no
 * leaf was found) and a second one from another document when it scores almost as well.
 */
export function answerPassages(results: RetrievedItem[]): RetrievedItem[] {
  const leaves = results.filter((r) => r.tree_layer === 0);
  const pool = leaves.length ? leaves : results;
  const best = pool[0]!;
  const second = pool.find(
    (r) => r.document_id !== best.document_id && r.score >= best.score * SECOND_PASSAGE_RATIO,
  );
  return second ? [best, second] : [best];
}

/**
 * A passage as it is quoted in an answer: at most PASSAGE_WORDS words, cut after a whole line
 * or sentence, without a dangling heading or label ("Resolution:") at the end.
 */
export function passageText(content: string): string {
  let text = content.trim();
  const words = [...text.matchAll(/\S+/g)];
  const over = words[PASSAGE_WORDS];
  if (over?.index !== undefined) {
    const head = text.slice(0, over.index);
    // the last line or sentence end in the second half of the kept words, else the word limit
    let cut = Math.max(
      head.lastIndexOf('\n'),
      ...[...head.matchAll(/[.!?](?=\s)/g)].map((m) => m.index + 1),
    );
    if (cut < head.length / 2) cut = head.length;
    text = `${head.slice(0, cut).trimEnd()} …`;
  }
  const lines = text.split('\n');
  while (lines.length > 1 && /^\s*(#+\s.*|[^.!?]{0,60}:)\s*$/.test(lines[lines.length - 1]!))
    lines.pop();
  return lines.join('\n').trim();
}

function firstLine(s: string): string {
  return (s.split('\n').find((l) => l.trim()) ?? '').replace(/^#+\s*/, '').slice(0, 120);
}
