export type { Summarizer, SummarizeOptions } from './summarizer';
export { ExtractiveSummarizer, splitSentences } from './extractive-summarizer';
export { ChatSummarizer } from './chat-summarizer';
