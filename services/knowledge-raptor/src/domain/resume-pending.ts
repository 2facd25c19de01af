import type { Logger } from '@inquest/observability';
import type { DocumentRecord } from '@inquest/store';

/**
 * Indexes again the documents whose indexing was interrupted (a crash, an embeddings outage),
 * all at once. Never rejects: a document that still fails (indexing or recording it) is logged
 * and stays pending for the next start.
 */
export async function resumePendingDocuments(
  pending: readonly DocumentRecord[],
  indexAndMark: (doc: DocumentRecord) => Promise<unknown>,
  logger: Pick<Logger, 'warn'>,
): Promise<number> {
  const outcomes = await Promise.allSettled(pending.map(async (d) => indexAndMark(d)));
  let indexed = 0;
  outcomes.forEach((o, i) => {
    if (o.status === 'fulfilled') indexed++;
    else
      logger.warn(
        { err: o.reason, document_id: pending[i]!.document_id },
        'pending document still not indexable',
      );
  });
  return indexed;
}
