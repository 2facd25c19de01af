import { HashingEmbedder } from '@inquest/llm';
import { silentLogger } from '@inquest/observability';
import { SqliteKnowledgeStore } from '@inquest/store';
import { SqliteVectorIndex, TextAnalyzer } from '@inquest/vector';
import { DEFAULT_SETTINGS, type KbSettings } from '../knowledge-settings';
import type { RetrievedItem } from '../retrieval';
import type { Spaces } from '../spaces';

/**
 * The knowledge domain's ports on in-memory adapters for unit specs: the SQLite knowledge store
 * and vector index on ':memory:', the hashing embedder, fixed settings and a settable clock.
 */
export function knowledgeHarness(overrides: { settings?: Partial<KbSettings> } = {}) {
  const analyzer = new TextAnalyzer();
  const embedder = new HashingEmbedder({ dimensions: 64 });
  const index = SqliteVectorIndex.open({
    file: ':memory:',
    space: { model: embedder.id, dimensions: embedder.dimensions },
    analyzer,
  });
  const store = SqliteKnowledgeStore.open(':memory:');
  const spaces: Spaces = {
    get: () => ({ embedder, index }),
    close: async () => undefined,
  };
  let settings: KbSettings = { ...DEFAULT_SETTINGS, ...overrides.settings };
  let now = Date.parse('2026-03-01T12:00:00Z');
  return {
    analyzer,
    embedder,
    index,
    store,
    spaces,
    settings: { get: async () => settings },
    logger: silentLogger(),
    now: () => new Date(now),
    advance: (ms: number) => (now += ms),
    setSettings: (s: Partial<KbSettings>) => (settings = { ...settings, ...s }),
    close: async () => {
      await index.close();
      await store.close();
    },
  };
}

/** A retrieved passage (an authored leaf of document `d`), with the fields given. */
export function aRetrievedItem(over: Partial<RetrievedItem> = {}): RetrievedItem {
  return {
    id: 'x',
    document_id: 'd',
    content: 'text',
    score: 0.5,
    level: 'L1',
    type: 'runbook',
    tags: [],
    tree_layer: 0,
    provenance: 'authored',
    ...over,
  };
}
