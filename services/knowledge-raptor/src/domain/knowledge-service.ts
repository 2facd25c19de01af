import type { Summarizer } from '@inquest/llm';
import type { Logger } from '@inquest/observability';
import type { DocumentRecord, KnowledgeStore } from '@inquest/store';
import type { TextAnalyzer } from '@inquest/vector';
import { Answers } from './answers';
import type { DocumentIndexer } from './document-indexer';
import { DocumentLibrary, type TreeScheduler } from './document-library';
import { GraphQueries } from './graph-queries';
import type { SettingsSource } from './knowledge-settings';
import { PatternLearning } from './pattern-learning';
import { Retrieval } from './retrieval';
import type { ExternalReranker, Spaces } from './spaces';

export interface KnowledgeServiceDeps {
  store: KnowledgeStore;
  settings: SettingsSource;
  spaces: Spaces;
  analyzer: TextAnalyzer;
  /** indexes documents into the team's current space (shared with the tree builder) */
  indexer: DocumentIndexer;
  /** rebuilds a team's tree after its documents changed */
  tree?: TreeScheduler;
  /** composes answers (extractive by default, the configured LLM when there is one) */
  answerer: Summarizer;
  reranker?: ExternalReranker;
  logger: Logger;
  onTaught?: (doc: DocumentRecord) => Promise<void>;
  now?: () => Date;
}

/**
 * The knowledge domain's one entry point for the gRPC handlers and the event consumer: it wires
 * documents, retrieval, answers, learned patterns and graph queries together and hands each call
 * to the one that owns it.
 */
export class KnowledgeService {
  readonly documents: DocumentLibrary;
  readonly retrieval: Retrieval;
  readonly answers: Answers;
  readonly patterns: PatternLearning;
  readonly graphs: GraphQueries;

  constructor(deps: KnowledgeServiceDeps) {
    this.graphs = new GraphQueries(deps);
    this.documents = new DocumentLibrary(deps);
    this.retrieval = new Retrieval({ ...deps, graph: this.graphs });
    this.answers = new Answers({ ...deps, retrieval: this.retrieval });
    this.patterns = new PatternLearning({
      ...deps,
      teach: (input) => this.documents.teach(input),
    });
  }

  /** Stops background work (indexing retries) before the store closes. */
  stop(): void {
    this.documents.stop();
  }

  teach: DocumentLibrary['teach'] = (input) => this.documents.teach(input);
  status: DocumentLibrary['status'] = (teamId, documentId) =>
    this.documents.status(teamId, documentId);
  deleteDocument: DocumentLibrary['deleteDocument'] = (teamId, documentId) =>
    this.documents.deleteDocument(teamId, documentId);
  treeStats: DocumentLibrary['treeStats'] = (teamId) => this.documents.treeStats(teamId);
  retrieve: Retrieval['retrieve'] = (input) => this.retrieval.retrieve(input);
  feedback: Retrieval['feedback'] = (input) => this.retrieval.feedback(input);
  answer: Answers['answer'] = (input) => this.answers.answer(input);
  listPatterns: PatternLearning['listPatterns'] = (input) => this.patterns.listPatterns(input);
  learnFromInvestigation: PatternLearning['learnFromInvestigation'] = (event) =>
    this.patterns.learnFromInvestigation(event);
  graph: GraphQueries['graph'] = (teamId, entity, depth) =>
    this.graphs.graph(teamId, entity, depth);
}
