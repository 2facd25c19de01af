import type { Logger } from '@inquest/observability';
import type { SecretScope } from '@inquest/secrets';
import { splitMarkdownSections } from '../chunker';
import type { TeachInput, TeachResult } from '../document-library';

/** A knowledge source of a team's config (`knowledge_base.sources.<name>`), read for syncing. */
export interface SourceSettings {
  name: string;
  kind: 'git' | 'web' | 'confluence';
  url: string;
  /** git: the branch to read (default: the remote's default branch) */
  branch?: string;
  /** git: globs of the Markdown files to read (default every `*.md`/`*.markdown`) */
  paths?: string[];
  /** web: the pages to read (besides `url`, which may be a page or a sitemap.xml) */
  urls?: string[];
  /** confluence: the spaces to read */
  space_keys?: string[];
  /** confluence and git over https: the user the token belongs to */
  username?: string;
  /** vault reference of the password or API token */
  token_ref?: string;
  /** where token_ref may point: the node that set it */
  scope?: SecretScope;
  /** document type the source's documents are taught as (default runbook) */
  type?: string;
  /** between two syncs; none: only a manual sync reads the source */
  sync_interval_ms?: number;
}

/** One document of a source as it is now; `version` changes whenever its content does. */
export interface SourceDocument {
  path: string;
  version: string;
  title?: string;
  content: string;
  format: 'markdown' | 'text';
}

/** Reads every document of one kind of source. Throws when the source cannot be read. */
export interface SourceConnector {
  fetch(source: SourceSettings, signal?: AbortSignal): Promise<SourceDocument[]>;
}

export interface SourceStatus {
  name: string;
  kind: string;
  url: string;
  /** never: not synced yet; ok: the last sync succeeded; error: it failed (see error) */
  state: 'never' | 'ok' | 'error';
  last_sync_at?: string;
  last_success_at?: string;
  error?: string;
  /** documents of the source (files, pages) the knowledge base holds */
  documents: number;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
}

/** What a sync remembers of a source document: its version and the knowledge documents taught. */
export interface SyncedDocument {
  version: string;
  document_ids: string[];
}

export interface TeamSyncState {
  last_sync_at?: string;
  sources: Record<string, { status: SourceStatus; documents: Record<string, SyncedDocument> }>;
}

/** Where sync state lives between runs and restarts. */
export interface SyncStateStore {
  load(teamId: string): Promise<TeamSyncState | undefined>;
  save(teamId: string, state: TeamSyncState): Promise<void>;
}

/** The knowledge base as a sync writes it: teach a document, remove documents. */
export interface KnowledgeSink {
  teach(input: TeachInput): Promise<TeachResult>;
  /** the one deletion path of a sync (documents of a changed or removed source file) */
  remove(teamId: string, documentIds: string[]): Promise<void>;
}

export interface SyncOptions {
  /** only the sources whose sync_interval has passed */
  onlyDue?: boolean;
  signal?: AbortSignal;
  /**
   * Remove what the sync taught for sources no longer in `sources` (default true). False when
   * the caller does not know the configured sources (config unreachable, nothing known).
   */
  prune?: boolean;
}

export interface SourceSyncDeps {
  connectors: Partial<Record<SourceSettings['kind'], SourceConnector>>;
  sink: KnowledgeSink;
  state: SyncStateStore;
  logger: Logger;
  /** after each source's sync (the tree stats' last_sync_at) */
  onSynced?: (teamId: string, at: string) => Promise<void>;
  now?: () => Date;
}

const emptyStatus = (s: SourceSettings): SourceStatus => ({
  name: s.name,
  kind: s.kind,
  url: s.url,
  state: 'never',
  documents: 0,
  added: 0,
  updated: 0,
  removed: 0,
  unchanged: 0,
});

/** Bounded error text for the status endpoint (no secrets are ever part of connector errors). */
const errorText = (err: unknown) =>
  (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').slice(0, 500);

/**
 * Syncs a team's knowledge sources into its knowledge base: a new source document is taught, a
 * changed one (new version) is taught again and its old documents removed, one gone from the
 * source has its documents removed, an unchanged one is skipped. A source that fails keeps its
 * documents and reports the error; the other sources sync regardless. One sync per team at a time.
 */
export class SourceSync {
  private readonly now: () => Date;
  private readonly running = new Map<string, Promise<SourceStatus[]>>();

  constructor(private readonly deps: SourceSyncDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Syncs the given sources (all of them, or those due when `onlyDue`); answers every status. */
  sync(teamId: string, sources: SourceSettings[], opts: SyncOptions = {}): Promise<SourceStatus[]> {
    const prev = this.running.get(teamId) ?? Promise.resolve([]);
    const next = prev
      .catch(() => [])
      .then(() => this.run(teamId, sources, opts))
      .finally(() => {
        if (this.running.get(teamId) === next) this.running.delete(teamId);
      });
    this.running.set(teamId, next);
    return next;
  }

  /** The status of each configured source (never synced ones included). */
  async status(teamId: string, sources: SourceSettings[]): Promise<SourceStatus[]> {
    const state = await this.deps.state.load(teamId);
    return sources.map((s) => state?.sources[s.name]?.status ?? emptyStatus(s));
  }

  /** When a source of the team last finished a sync (successful or not). */
  async lastSyncAt(teamId: string): Promise<string | undefined> {
    return (await this.deps.state.load(teamId))?.last_sync_at;
  }

  /** True when the source has an interval and its last sync is at least that old. */
  isDue(source: SourceSettings, status: SourceStatus | undefined): boolean {
    if (!source.sync_interval_ms) return false;
    if (!status?.last_sync_at) return true;
    return this.now().getTime() - Date.parse(status.last_sync_at) >= source.sync_interval_ms;
  }

  private async run(
    teamId: string,
    sources: SourceSettings[],
    opts: SyncOptions,
  ): Promise<SourceStatus[]> {
    const state: TeamSyncState = (await this.deps.state.load(teamId)) ?? { sources: {} };
    if (opts.prune !== false) await this.prune(teamId, sources, state, opts.signal);
    let synced = false;
    for (const source of sources) {
      const entry = (state.sources[source.name] ??= { status: emptyStatus(source), documents: {} });
      if (opts.onlyDue && !this.isDue(source, entry.status)) continue;
      opts.signal?.throwIfAborted();
      synced = true;
      entry.status = await this.syncOne(teamId, source, entry, opts.signal);
      state.last_sync_at = entry.status.last_sync_at;
      // saved after each source: a crash later keeps what this one taught
      await this.deps.state.save(teamId, state);
      await this.deps.onSynced?.(teamId, entry.status.last_sync_at!);
    }
    if (!synced && opts.onlyDue) return this.status(teamId, sources);
    return sources.map((s) => state.sources[s.name]!.status);
  }

  /**
   * A source gone from the config takes the documents its syncs taught with it (documents taught
   * by hand or by another source are never in its state). Saved after each file, so a crash
   * resumes where it stopped.
   */
  private async prune(
    teamId: string,
    sources: SourceSettings[],
    state: TeamSyncState,
    signal?: AbortSignal,
  ): Promise<void> {
    const configured = new Set(sources.map((s) => s.name));
    for (const [name, entry] of Object.entries(state.sources)) {
      if (configured.has(name)) continue;
      for (const [path, had] of Object.entries(entry.documents)) {
        signal?.throwIfAborted();
        await this.deps.sink.remove(teamId, had.document_ids);
        delete entry.documents[path];
        await this.deps.state.save(teamId, state);
      }
      delete state.sources[name];
      await this.deps.state.save(teamId, state);
      this.deps.logger.info(
        { team_id: teamId, source: name },
        'knowledge source removed from config: its synced documents are removed',
      );
    }
  }

  private async syncOne(
    teamId: string,
    source: SourceSettings,
    entry: TeamSyncState['sources'][string],
    signal?: AbortSignal,
  ): Promise<SourceStatus> {
    const base: SourceStatus = {
      ...entry.status,
      name: source.name,
      kind: source.kind,
      url: source.url,
      added: 0,
      updated: 0,
      removed: 0,
      unchanged: 0,
    };
    const connector = this.deps.connectors[source.kind];
    try {
      if (!connector) throw new Error(`no connector for sources of kind ${source.kind}`);
      const docs = await connector.fetch(source, signal);
      const seen = new Set<string>();
      const skipped: string[] = [];
      for (const d of docs) {
        if (seen.has(d.path)) continue;
        seen.add(d.path);
        const had = entry.documents[d.path];
        if (had && had.version === d.version) {
          base.unchanged++;
          continue;
        }
        let ids: string[];
        try {
          ids = await this.teach(teamId, source, d);
        } catch (err) {
          // a document the knowledge base refuses (binary, too large) must not stop the others;
          // it is tried again at the next sync, and the status says which
          if ((err as { kind?: string }).kind !== 'invalid_input') throw err;
          skipped.push(`${d.path}: ${errorText(err)}`);
          continue;
        }
        if (had) {
          const stale = had.document_ids.filter((id) => !ids.includes(id));
          if (stale.length) await this.deps.sink.remove(teamId, stale);
          base.updated++;
        } else base.added++;
        entry.documents[d.path] = { version: d.version, document_ids: ids };
      }
      for (const [path, had] of Object.entries(entry.documents)) {
        if (seen.has(path)) continue;
        await this.deps.sink.remove(teamId, had.document_ids);
        delete entry.documents[path];
        base.removed++;
      }
      const at = this.now().toISOString();
      return {
        ...base,
        state: 'ok',
        last_sync_at: at,
        last_success_at: at,
        error: skipped.length
          ? `${skipped.length} document(s) skipped: ${skipped.slice(0, 3).join('; ')}`.slice(0, 500)
          : undefined,
        documents: Object.keys(entry.documents).length,
      };
    } catch (err) {
      this.deps.logger.warn(
        { err: errorText(err), team_id: teamId, source: source.name },
        'knowledge source sync failed; its documents are kept',
      );
      return {
        ...base,
        state: 'error',
        last_sync_at: this.now().toISOString(),
        error: errorText(err),
        documents: Object.keys(entry.documents).length,
      };
    }
  }

  /** Teaches one source document, a knowledge document per top-level Markdown section. */
  private async teach(
    teamId: string,
    source: SourceSettings,
    d: SourceDocument,
  ): Promise<string[]> {
    const sections =
      d.format === 'markdown'
        ? splitMarkdownSections(d.content)
        : [{ title: d.title, content: d.content.trim() }];
    const ids: string[] = [];
    for (const [i, s] of sections.entries()) {
      if (!s.content.trim()) continue;
      const r = await this.deps.sink.teach({
        teamId,
        content: s.content,
        type: source.type ?? 'runbook',
        title: s.title ?? d.title ?? d.path,
        format: 'text',
        source: `${source.kind}:${source.name}`,
        tags: [`source:${source.name}`],
        // the document's identity is where it comes from, not its words: two files with the
        // same text stay two documents, and removing one leaves the other
        dedupeKey: JSON.stringify([source.name, d.path, d.version, i]),
      });
      ids.push(...r.document_ids);
    }
    return ids;
  }
}
