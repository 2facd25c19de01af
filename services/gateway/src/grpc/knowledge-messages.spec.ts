import { knowledgeV1 } from '@inquest/proto';
import {
  chunkBody,
  documentStatusOf,
  knowledgeLevelOf,
  levelFilterFields,
} from './knowledge-messages';

const { DocumentStatus: S, KnowledgeLevel: L } = knowledgeV1;

describe('knowledge messages', () => {
  it('reads the enums first, the strings of an older knowledge-raptor otherwise', () => {
    expect(documentStatusOf({ status: 'pending', status_enum: S.DOCUMENT_STATUS_INDEXED })).toBe(
      'indexed',
    );
    expect(documentStatusOf({ status: 'failed', status_enum: S.DOCUMENT_STATUS_UNSPECIFIED })).toBe(
      'failed',
    );
    expect(knowledgeLevelOf({ level: 'L1', level_enum: L.KNOWLEDGE_LEVEL_L4 })).toBe('L4');
    expect(knowledgeLevelOf({ level: 'L2', level_enum: L.KNOWLEDGE_LEVEL_UNSPECIFIED })).toBe('L2');
    expect(() => knowledgeLevelOf({ level: 'L9', level_enum: 0 })).toThrow(
      /unknown knowledge level/,
    );
  });

  it('shows a chunk with its level named and no enum field', () => {
    const chunk: knowledgeV1.RetrievedChunk = {
      id: 'c1',
      document_id: 'd1',
      content: 'x',
      score: 0.5,
      level: '',
      level_enum: L.KNOWLEDGE_LEVEL_L3,
      type: 'incident',
      tags: [],
      tree_layer: 0,
    };
    const body = chunkBody(chunk);
    expect(body).toMatchObject({ id: 'c1', level: 'L3' });
    expect(body).not.toHaveProperty('level_enum');
  });

  it('writes the level filter in both forms', () => {
    expect(levelFilterFields(['L1', 'L3'])).toEqual({
      levels: ['L1', 'L3'],
      levels_enum: [L.KNOWLEDGE_LEVEL_L1, L.KNOWLEDGE_LEVEL_L3],
    });
  });
});
