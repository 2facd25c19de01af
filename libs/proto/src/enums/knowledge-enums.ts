import { DocumentStatus, KnowledgeLevel } from '../gen/inquest/knowledge/v1/knowledge_service';
import { stringEnum } from './string-enum';

/** `TeachResponse.status_enum`, `GetDocumentStatusResponse.status_enum`. */
export const documentStatusEnum = stringEnum(
  {
    pending: DocumentStatus.DOCUMENT_STATUS_PENDING,
    indexed: DocumentStatus.DOCUMENT_STATUS_INDEXED,
    failed: DocumentStatus.DOCUMENT_STATUS_FAILED,
  },
  DocumentStatus.DOCUMENT_STATUS_UNSPECIFIED,
);

/** `TeachResponse.level_enum`, `RetrievedChunk.level_enum`, `RetrieveRequest.levels_enum`. */
export const knowledgeLevelEnum = stringEnum(
  {
    L1: KnowledgeLevel.KNOWLEDGE_LEVEL_L1,
    L2: KnowledgeLevel.KNOWLEDGE_LEVEL_L2,
    L3: KnowledgeLevel.KNOWLEDGE_LEVEL_L3,
    L4: KnowledgeLevel.KNOWLEDGE_LEVEL_L4,
  },
  KnowledgeLevel.KNOWLEDGE_LEVEL_UNSPECIFIED,
);
