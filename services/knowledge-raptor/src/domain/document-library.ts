import { MAX_CONTENT_BYTES } from '@inquest/api-contract';
import { createHash, randomBytes } from 'node:crypto';
import { notFound, validationError, type ErrorDetail } from '@inquest/errors';
import type { Logger } from '@inquest/observability';
import type { DocumentRecord, KnowledgeStore } from '@inquest/store';
import { splitMarkdownSections } from './chunker';
import type { DocumentIndexer } from './document-indexer';
import { extractFromDocument } from './graph-extraction';
import type { SettingsSource } from './knowledge-settings';
import { KNOWLEDGE_TYPES, TYPE_LEVEL } from './levels';
import type { Spaces } from './spaces';

export interface TeachInput {
  teamId: string;
  content: string;
  type: string;
  service?: string;
  tags?: string[];
  title?: string;
  author?: string;
  format?: 'text' | 'markdown';
  source?: string;
  confidence?: number;
  /**
   * Identity of the document instead of its content: teaching again with the same key returns
   * the document already there (a repeated incident is one record, its pattern counts repeats).
   */
  dedupeKey?: string;
}

export interface TeachResult {
  document_id: string;
  status: string;
  level: string;
  chunks: number;
  document_ids: string[];
  /** false when identical content was already stored and the earlier document is answered */
  created?: boolean;
}

/** Rebuilds a team's RAPTOR tree after its documents changed (TreeBuilder, debounced). */
export interface TreeScheduler {
  schedule(teamId: string): void;
}

export interface DocumentLibraryDeps {
  store: KnowledgeStore;
  settings: SettingsSource;
  spaces: Spaces;
  indexer: Pick<DocumentIndexer, 'indexAndMark'>;
  tree?: TreeScheduler;
  logger: Logger;
  onTaught?: (doc: DocumentRecord) => Promise<void>;
  now?: () => Date;
}

const id = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;
// control characters other than tab/newline/carriage return, and U+FFFD from undecodable bytes
// eslint-disable-next-line no-control-regex
export const BINARY = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFD]/;

/**
 * A team's documents: teaching (validation, markdown sections, deduplication, indexing with
 * retries), status, deletion and the size of the index and tree.
 */
export class DocumentLibrary {
  private readonly now: () => Date;
  /** indexing retries waiting for their turn; cleared by stop() so none runs on a closed store */
  private readonly retries = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly deps: DocumentLibraryDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async teach(input: TeachInput): Promise<TeachResult> {
    const errors = validateTeach(input);
    if (errors.length) throw validationError(errors);
    const type = input.type.trim().toLowerCase();
    const sections =
      input.format === 'markdown'
        ? splitMarkdownSections(input.content).map((s) => ({
            title: s.title ?? input.title,
            content: s.content,
          }))
        : [{ title: input.title, content: input.content.trim() }];
    if (!sections.length)
      throw validationError([{ field: 'content', error: 'has no text besides headings' }]);
    const results: TeachResult[] = [];
    for (const s of sections)
      results.push(
        await this.teachOne({
          ...input,
          type,
          content: s.content,
          title: s.title?.trim() || undefined,
        }),
      );
    const first = results[0]!;
    return {
      ...first,
      chunks: results.reduce((n, r) => n + r.chunks, 0),
      document_ids: results.map((r) => r.document_id),
    };
  }

  private async teachOne(input: TeachInput): Promise<TeachResult> {
    const tags = normTags(input.tags);
    const service = input.service?.trim() || undefined;
    const hash = createHash('sha256')
      .update(
        JSON.stringify(
          input.dedupeKey
            ? [input.type, service ?? '', 'key', input.dedupeKey]
            : [
                input.type,
                service ?? '',
                input.title ?? '',
                input.content.replace(/\s+/g, ' ').trim(),
              ],
        ),
      )
      .digest('hex');
    const existing = await this.deps.store.findDocumentByHash(input.teamId, hash);
    if (existing) return { ...toTeachResult(existing), created: false };
    const doc: DocumentRecord = {
      document_id: id('doc'),
      team_id: input.teamId,
      content_hash: hash,
      type: input.type,
      level: TYPE_LEVEL[input.type]!,
      service,
      tags,
      title: input.title,
      author: input.author,
      content: input.content,
      status: 'pending',
      chunks: 0,
      created_at: this.now().toISOString(),
      usage_count: 0,
      helpful: 0,
      unhelpful: 0,
      confidence: input.confidence ?? 0.7,
      source: input.source ?? 'taught',
    };
    try {
      await this.deps.store.insertDocument(doc);
    } catch (err) {
      // the same content taught concurrently: answer with the winner
      const again = await this.deps.store.findDocumentByHash(input.teamId, hash);
      if (again) return { ...toTeachResult(again), created: false };
      throw err;
    }
    await this.deps.store.addEdges(input.teamId, extractFromDocument(doc));
    try {
      const indexed = await this.deps.indexer.indexAndMark(doc);
      doc.chunks = indexed.chunks;
      doc.status = 'indexed';
      doc.indexed_at = indexed.indexed_at;
    } catch (err) {
      this.deps.logger.warn(
        { err, document_id: doc.document_id },
        'indexing failed; the document stays pending and is retried',
      );
      this.retryLater(doc, 1);
    }
    this.deps.tree?.schedule(input.teamId);
    if (this.deps.onTaught)
      await this.deps
        .onTaught(doc)
        .catch((err: unknown) => this.deps.logger.warn({ err }, 'kb.taught not published'));
    return { ...toTeachResult(doc), created: true };
  }

  private retryLater(doc: DocumentRecord, attempt: number): void {
    if (this.stopped) return;
    const t = setTimeout(
      () => {
        this.retries.delete(t);
        void this.retry(doc, attempt);
      },
      1000 * 4 ** attempt,
    );
    t.unref();
    this.retries.add(t);
  }

  private async retry(doc: DocumentRecord, attempt: number): Promise<void> {
    try {
      await this.deps.indexer.indexAndMark(doc);
      this.deps.tree?.schedule(doc.team_id);
    } catch (err) {
      if (attempt < 3) return this.retryLater(doc, attempt + 1);
      if (this.stopped) return;
      await this.deps.store
        .updateDocumentStatus(doc.team_id, doc.document_id, {
          status: 'failed',
          error: (err as Error).message,
        })
        .catch((e: unknown) =>
          this.deps.logger.warn(
            { err: e, document_id: doc.document_id },
            'document could not be marked failed; it stays pending and is resumed at start',
          ),
        );
    }
  }

  /** Cancels the waiting indexing retries (shutdown); a pending document is resumed at start. */
  stop(): void {
    this.stopped = true;
    for (const t of this.retries) clearTimeout(t);
    this.retries.clear();
  }

  async status(teamId: string, documentId: string) {
    const d = await this.deps.store.getDocument(teamId, documentId);
    if (!d) throw notFound(`document ${documentId} not found`);
    return {
      document_id: d.document_id,
      status: d.status,
      indexed_at: d.indexed_at,
      chunks: d.chunks,
    };
  }

  /**
   * Deletes a team's document: its chunks in the team's current embedding space (the one
   * retrieval searches), then its record. The tree is rebuilt so summaries stop covering it.
   * Another team's id is not found.
   */
  async deleteDocument(teamId: string, documentId: string): Promise<void> {
    const d = await this.deps.store.getDocument(teamId, documentId);
    if (!d) throw notFound(`document ${documentId} not found`);
    const settings = await this.deps.settings.get(teamId);
    const { index } = this.deps.spaces.get(settings.raptor.embedding_model);
    // chunks first: a failure leaves the record, so the delete can be repeated
    await index.delete(teamId, { documentIds: [documentId] });
    if (!(await this.deps.store.deleteDocument(teamId, documentId)))
      throw notFound(`document ${documentId} not found`);
    this.deps.tree?.schedule(teamId);
  }

  async treeStats(teamId: string) {
    const settings = await this.deps.settings.get(teamId);
    const { index } = this.deps.spaces.get(settings.raptor.embedding_model);
    const meta = await this.deps.store.getTreeMeta(teamId);
    const leaves = await index.count(teamId, 0);
    const nodes: Record<string, number> = { ...(meta?.nodes_by_level ?? {}), '0': leaves };
    return {
      total_documents: await this.deps.store.countDocuments(teamId),
      total_chunks: leaves,
      tree_depth: meta?.depth ?? 0,
      nodes_by_level: nodes,
      last_sync_at: meta?.last_sync_at,
    };
  }
}

function validateTeach(input: TeachInput): ErrorDetail[] {
  const errors: ErrorDetail[] = [];
  if (typeof input.content !== 'string' || !input.content.trim())
    errors.push({ field: 'content', error: 'must not be empty' });
  else if (Buffer.byteLength(input.content, 'utf8') > MAX_CONTENT_BYTES)
    errors.push({ field: 'content', error: 'must be at most 1 MiB' });
  else if (BINARY.test(input.content))
    errors.push({ field: 'content', error: 'must be text (binary or control characters found)' });
  if (
    typeof input.type !== 'string' ||
    !KNOWLEDGE_TYPES.includes(input.type.trim().toLowerCase())
  ) {
    errors.push({ field: 'type', error: `must be one of ${KNOWLEDGE_TYPES.join(', ')}` });
  }
  if (input.service !== undefined && (input.service.length > 128 || BINARY.test(input.service))) {
    errors.push({ field: 'service', error: 'must be at most 128 characters of text' });
  }
  if (input.title !== undefined && input.title.length > 300)
    errors.push({ field: 'title', error: 'must be at most 300 characters' });
  const tags = input.tags ?? [];
  if (!Array.isArray(tags) || tags.length > 32)
    errors.push({ field: 'tags', error: 'must be an array of at most 32 strings' });
  else {
    tags.forEach((t, i) => {
      if (typeof t !== 'string' || !t.trim() || t.length > 64)
        errors.push({
          field: `tags.${i}`,
          error: 'must be a non-empty string of at most 64 characters',
        });
    });
  }
  return errors;
}

function normTags(tags: string[] | undefined): string[] {
  return [...new Set((tags ?? []).map((t) => t.trim()).filter(Boolean))];
}

function toTeachResult(d: DocumentRecord): TeachResult {
  return {
    document_id: d.document_id,
    status: d.status === 'indexed' ? 'indexed' : 'pending',
    level: d.level,
    chunks: d.chunks,
    document_ids: [d.document_id],
  };
}
