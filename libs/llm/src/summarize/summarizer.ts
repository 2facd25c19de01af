/** Condenses several passages into one summary (RAPTOR cluster summaries, answers). */
export interface Summarizer {
  readonly id: string;
  summarize(passages: string[], options?: SummarizeOptions): Promise<string>;
}

export interface SummarizeOptions {
  /** upper bound on the summary length in words (default 120) */
  maxWords?: number;
  /** when set, sentences relevant to this text are preferred (query-focused summary) */
  focus?: string;
  signal?: AbortSignal;
}
