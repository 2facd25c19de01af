import { internal } from '@inquest/errors';
import { documentStatusEnum, knowledgeLevelEnum, type knowledgeV1 } from '@inquest/proto';

// Statuses and levels of knowledge-raptor's messages, read from the enums (or, from a
// knowledge-raptor built before them, from the deprecated strings), and the level filter in both
// forms (ADR 0012).

type DocumentStatus = (typeof documentStatusEnum.names)[number];
type KnowledgeLevel = (typeof knowledgeLevelEnum.names)[number];

function named<N extends string>(what: string, name: N | undefined): N {
  if (name === undefined) throw internal(`knowledge-raptor answered an unknown ${what}`);
  return name;
}

/** The status of a taught document. */
export const documentStatusOf = (r: { status: string; status_enum: knowledgeV1.DocumentStatus }) =>
  named<DocumentStatus>('document status', documentStatusEnum.read(r.status_enum, r.status));

/** The level of a taught document or a retrieved chunk. */
export const knowledgeLevelOf = (r: {
  level: string;
  level_enum: knowledgeV1.KnowledgeLevel;
}): KnowledgeLevel => named('knowledge level', knowledgeLevelEnum.read(r.level_enum, r.level));

/** The level filter of a RetrieveRequest, as enums and as the deprecated strings. */
export const levelFilterFields = (
  levels: KnowledgeLevel[],
): Pick<knowledgeV1.RetrieveRequest, 'levels' | 'levels_enum'> => ({
  levels,
  levels_enum: levels.map((l) => knowledgeLevelEnum.toProto(l)),
});

/** A retrieved chunk as the REST API shows it: its level named, without the enum field. */
export function chunkBody({ level_enum, level, ...rest }: knowledgeV1.RetrievedChunk) {
  return { ...rest, level: knowledgeLevelOf({ level, level_enum }) };
}
