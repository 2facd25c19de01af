import type { Logger } from '@inquest/observability';
import type { KnowledgeStore } from '@inquest/store';
import type { SettingsSource } from './knowledge-settings';
import type { Spaces } from './spaces';

export interface IndexCatchUpDeps {
  store: Pick<KnowledgeStore, 'listDocumentsByStatus' | 'listTeamDocuments'>;
  settings: SettingsSource;
  spaces: Spaces;
  /** indexes documents into the team's current space (KnowledgeService.reindex) */
  reindex: (teamId: string, documentIds: string[]) => Promise<void>;
  logger: Logger;
}

/**
 * At start: every team with indexed documents but nothing in its current embedding space gets
 * all of them indexed again. The space is named by the embedder and the analyzer version
 * (ModelSpaces), so a new analyzer or vocabulary version opens an empty space; without this,
 * retrieval would find nothing until the next tree rebuild (which also fills smaller gaps).
 * Teams are caught up one after another; a failure is logged and leaves the team to the tree
 * builder. Resolves with the number of documents re-indexed.
 */
export async function catchUpIndexes(deps: IndexCatchUpDeps): Promise<number> {
  // only the team ids are kept: the records are read again for the (rare) teams to re-index
  const teams = [
    ...new Set((await deps.store.listDocumentsByStatus('indexed')).map((d) => d.team_id)),
  ];
  let done = 0;
  for (const teamId of teams) {
    try {
      const settings = await deps.settings.get(teamId);
      const { index } = deps.spaces.get(settings.raptor.embedding_model);
      if ((await index.count(teamId, 0)) > 0) continue;
      const missing = (await deps.store.listTeamDocuments(teamId))
        .filter((d) => d.status === 'indexed')
        .map((d) => d.document_id);
      if (!missing.length) continue;
      deps.logger.info(
        { team_id: teamId, documents: missing.length },
        'current index space is empty (analyzer or embedding model changed): re-indexing',
      );
      await deps.reindex(teamId, missing);
      done += missing.length;
    } catch (err) {
      deps.logger.warn({ err, team_id: teamId }, 'index catch-up failed; the tree rebuild retries');
    }
  }
  return done;
}
