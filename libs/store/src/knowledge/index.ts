// Port and adapters of the knowledge area are exported from here.
export type {
  DocumentRecord,
  GraphEdgeRecord,
  KnowledgeStore,
  Learning,
  LearningOutcome,
  PatternRecord,
  QueryRecord,
  TreeMeta,
} from './knowledge-store';
export { SqliteKnowledgeStore } from './sqlite-knowledge-store';
export { MongoKnowledgeStore } from './mongo-knowledge-store';
