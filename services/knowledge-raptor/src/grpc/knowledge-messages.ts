import { documentStatusEnum, knowledgeLevelEnum, type knowledgeV1 } from '@inquest/proto';

// Statuses and levels written twice, as enums and as the deprecated strings that peers built
// before the enums still read; requests read the enums first (ADR 0012).

/** `status` of a teach or status answer, in both forms. */
export const documentStatusFields = (status: string) => ({
  status,
  status_enum: documentStatusEnum.toProto(status),
});

/** `level` of a teach answer or a retrieved chunk, in both forms. */
export const levelFields = (level: string) => ({
  level,
  level_enum: knowledgeLevelEnum.toProto(level),
});

/**
 * The level filter of a RetrieveRequest: the enums when set and all known, else the strings (a
 * caller built before the enums, or an enum value this build does not know).
 */
export function levelsOf(
  req: Pick<knowledgeV1.RetrieveRequest, 'levels' | 'levels_enum'>,
): string[] {
  const named = req.levels_enum.map((l) => knowledgeLevelEnum.fromProto(l));
  return req.levels_enum.length && named.every((l) => l !== undefined)
    ? (named as string[])
    : req.levels;
}
