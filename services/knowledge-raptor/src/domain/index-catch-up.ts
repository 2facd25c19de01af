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
 * Indexed documents whose chunks are not in the team's current embedding space: the space is
 * named by the embedder and the analyzer version (ModelSpaces), so a new analyzer or vocabulary
 * version opens an empty space and every document of the team is missing from it.
 */
export async function missingFromSpace(
  deps: Pick<IndexCatchUpDeps, 'store' | 'settings' | 'spaces'>,
  teamId: string,
): Promise<string[]> {
  const settings = await deps.settings.get(teamId);
  const { index } = deps.spaces.get(settings.raptor.embedding_model);
  const present = new Set(
    (await index.listLayer(teamId, 0, false)).map((c) => c.payload.document_id),
  );
  return (await deps.store.listTeamDocuments(teamId))
    .filter((d) => d.status === 'indexed' && !present.has(d.document_id))
    .map((d) => d.document_id);
}

/**
 * At start: every team with indexed documents gets the ones missing from its current space
 * indexed again (after an analyzer or vocabulary change, or a space lost on disk), so retrieval
 * does not wait for the next tree rebuild. Teams are caught up one after another; a failure is
 * logged and leaves the team to the tree builder's own catch-up. Resolves with the number of
 * documents re-indexed.
 */
export async function catchUpIndexes(deps: IndexCatchUpDeps): Promise<number> {
  const teams = [
    ...new Set((await deps.store.listDocumentsByStatus('indexed')).map((d) => d.team_id)),
  ];
  let done = 0;
  for (const teamId of teams) {
    try {
      const missing = await missingFromSpace(deps, teamId);
      if (!missing.length) continue;
      deps.logger.info(
        { team_id: teamId, documents: missing.length },
        'documents missing from the current index space (analyzer or model changed): re-indexing',
      );
      await deps.reindex(teamId, missing);
      done += missing.length;
    } catch (err) {
      deps.logger.warn({ err, team_id: teamId }, 'index catch-up failed; the tree rebuild retries');
    }
  }
  return done;
}
