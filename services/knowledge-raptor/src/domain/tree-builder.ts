import { createHash } from 'node:crypto';
import type { Summarizer } from '@inquest/llm';
import type { Logger } from '@inquest/observability';
import type { ChunkPayload, IndexedChunk, StoredChunk } from '@inquest/vector';
import type { ClusterLayerOptions } from './raptor/cluster-layer';
import type { KnowledgeStore } from '@inquest/store';
import type { SettingsSource } from './knowledge-settings';
import type { Spaces } from './spaces';

export type Clusterer = (
  vectors: Float32Array[],
  options: ClusterLayerOptions,
) => Promise<number[][]>;

export interface TreeBuilderDeps {
  store: KnowledgeStore;
  settings: SettingsSource;
  spaces: Spaces;
  cluster: Clusterer;
  summarizer: Summarizer;
  logger: Logger;
  /** wait after the last teach before rebuilding (ms) */
  debounceMs: number;
  /** re-embeds documents missing from the team's current embedding space */
  reindex: (teamId: string, documentIds: string[]) => Promise<void>;
  /** seed of UMAP and the mixtures (same input + seed = same tree) */
  seed?: number;
}

/** Passages per summary and words per summary: bounds the cost of one node. */
const MAX_PASSAGES = 24;
const SUMMARY_WORDS = 100;

/**
 * Builds each team's RAPTOR tree in the background: debounced after teaching, one build per team
 * at a time (a teach during a build triggers another afterwards), clustering in a worker thread.
 * A new tree is written next to the old one (tree_version) and the old summaries are deleted
 * after, so retrieval always sees a whole tree.
 */
export class TreeBuilder {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly dirty = new Set<string>();
  private stopped = false;

  constructor(private readonly deps: TreeBuilderDeps) {}

  schedule(teamId: string): void {
    if (this.stopped) return;
    const old = this.timers.get(teamId);
    if (old) clearTimeout(old);
    const t = setTimeout(() => {
      this.timers.delete(teamId);
      void this.run(teamId);
    }, this.deps.debounceMs);
    t.unref();
    this.timers.set(teamId, t);
  }

  /** Builds now (waits for a running build first); resolves when the tree is current. */
  async buildNow(teamId: string): Promise<void> {
    const t = this.timers.get(teamId);
    if (t) clearTimeout(t);
    this.timers.delete(teamId);
    await this.run(teamId);
  }

  private run(teamId: string): Promise<void> {
    const cur = this.running.get(teamId);
    if (cur) {
      this.dirty.add(teamId);
      return cur.then(() => (this.running.has(teamId) ? this.running.get(teamId) : undefined));
    }
    const p = (async () => {
      do {
        this.dirty.delete(teamId);
        try {
          await this.build(teamId);
        } catch (err) {
          this.deps.logger.error({ err, team_id: teamId }, 'RAPTOR tree build failed');
        }
      } while (this.dirty.has(teamId) && !this.stopped);
    })().finally(() => this.running.delete(teamId));
    this.running.set(teamId, p);
    return p;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.running.values()]);
  }

  private async build(teamId: string): Promise<void> {
    const started = Date.now();
    const settings = await this.deps.settings.get(teamId);
    const { embedder, index } = this.deps.spaces.get(settings.raptor.embedding_model);
    let leaves = await index.listLayer(teamId, 0, true);
    const docs = await this.deps.store.listTeamDocuments(teamId);
    const present = new Set(leaves.map((l) => l.payload.document_id));
    const missing = docs
      .filter((d) => d.status === 'indexed' && !present.has(d.document_id))
      .map((d) => d.document_id);
    if (missing.length) {
      await this.deps.reindex(teamId, missing);
      leaves = await index.listLayer(teamId, 0, true);
    }
    // same contents -> same order -> same tree, whatever the document ids
    leaves.sort((a, b) =>
      a.payload.content < b.payload.content
        ? -1
        : a.payload.content > b.payload.content
          ? 1
          : a.id < b.id
            ? -1
            : 1,
    );
    const version = `tv${Date.now().toString(36)}`;
    const nodesByLevel: Record<string, number> = { '0': leaves.length };
    let layer: StoredChunk[] = leaves.filter((l) => l.vector);
    let depth = 0;
    const leafDoc = new Map(leaves.map((l) => [l.id, l.payload.document_id] as const));
    const docsUnder = new Map<string, string[]>(leaves.map((l) => [l.id, [l.payload.document_id]]));
    const docTitle = new Map(
      leaves.map((l) => [l.payload.document_id, l.payload.title ?? firstLine(l.payload.content)]),
    );
    for (let level = 1; level <= settings.raptor.max_tree_depth && layer.length >= 2; level++) {
      const clusters = await this.deps.cluster(
        layer.map((n) => n.vector!),
        { seed: this.deps.seed ?? 42, threshold: settings.raptor.cluster_threshold },
      );
      if (!clusters.length || (clusters.length >= layer.length && level > 1)) break;
      const next: IndexedChunk[] = [];
      const texts: string[] = [];
      for (const members of clusters) {
        const nodes = members.map((i) => layer[i]!);
        const childIds = nodes.map((n) => n.id).sort();
        const passages = nodes.slice(0, MAX_PASSAGES).map((n) => n.payload.content);
        const summary = await this.deps.summarizer.summarize(passages, { maxWords: SUMMARY_WORDS });
        const docIds = nodes.flatMap((n) => docsUnder.get(n.id) ?? []);
        const payload: ChunkPayload = {
          document_id: mostCommon(docIds) ?? leafDoc.values().next().value ?? '',
          level: mostCommon(nodes.map((n) => n.payload.level)) ?? 'L1',
          type: 'summary',
          service: allSame(nodes.map((n) => n.payload.service)),
          tags: [...new Set(nodes.flatMap((n) => n.payload.tags))].slice(0, 16),
          created_at: nodes
            .map((n) => n.payload.created_at)
            .sort()
            .pop()!,
          tree_layer: level,
          tree_version: version,
          title: summaryTitle(docIds.map((d) => docTitle.get(d) ?? '')),
          content: summary,
          children: childIds,
        };
        const id = `sum_${createHash('sha1')
          .update(`${teamId}|${level}|${childIds.join(',')}`)
          .digest('hex')
          .slice(0, 24)}`;
        docsUnder.set(id, docIds);
        next.push({ id, teamId, vector: new Float32Array(0), text: summary, payload });
        texts.push(summary);
      }
      const vectors = await embedder.embed(texts);
      next.forEach((n, i) => (n.vector = vectors[i]!));
      await index.upsert(next);
      nodesByLevel[String(level)] = next.length;
      depth = level;
      layer = next.map((n) => ({ id: n.id, payload: n.payload, vector: n.vector }));
      if (next.length === 1) break;
    }
    await index.delete(teamId, { minTreeLayer: 1, exceptTreeVersion: version });
    // last_sync_at is the last source sync's (set by the sync), not the tree build's
    const meta = await this.deps.store.getTreeMeta(teamId);
    await this.deps.store.setTreeMeta(teamId, {
      depth,
      nodes_by_level: nodesByLevel,
      ...(meta?.last_sync_at ? { last_sync_at: meta.last_sync_at } : {}),
    });
    this.deps.logger.info(
      {
        team_id: teamId,
        leaves: leaves.length,
        depth,
        nodes_by_level: nodesByLevel,
        ms: Date.now() - started,
      },
      'RAPTOR tree rebuilt',
    );
  }
}

/** titles a summary's title names before "and N more" */
const TITLE_NAMES = 3;

/**
 * The title of a summary node: "Overview: " and the titles of the documents it covers, most
 * covered first (a summary is never mistaken for one of its documents, and says what it is about).
 */
export function summaryTitle(documentTitles: string[]): string {
  const counts = new Map<string, number>();
  for (const t of documentTitles.map((x) => x.trim()).filter(Boolean))
    counts.set(t, (counts.get(t) ?? 0) + 1);
  const titles = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([t]) => t);
  if (!titles.length) return 'Overview';
  const named = titles.slice(0, TITLE_NAMES).join('; ');
  const more = titles.length - TITLE_NAMES;
  return `Overview: ${named}${more > 0 ? ` and ${more} more` : ''}`.slice(0, 300);
}

function firstLine(s: string): string {
  return (s.split('\n').find((l) => l.trim()) ?? '').replace(/^#+\s*/, '').slice(0, 120);
}

function mostCommon(xs: string[]): string | undefined {
  const c = new Map<string, number>();
  let best: string | undefined;
  for (const x of xs) {
    const n = (c.get(x) ?? 0) + 1;
    c.set(x, n);
    if (best === undefined || n > c.get(best)!) best = x;
  }
  return best;
}

function allSame(xs: (string | undefined)[]): string | undefined {
  return xs.length && xs.every((x) => x === xs[0]) ? xs[0] : undefined;
}
