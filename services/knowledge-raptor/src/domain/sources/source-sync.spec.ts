import { silentLogger } from '@inquest/observability';
import type { TeachInput } from '../document-library';
import {
  SourceSync,
  type SourceDocument,
  type SourceSettings,
  type TeamSyncState,
} from './source-sync';

function harness() {
  let now = Date.parse('2026-01-01T00:00:00Z');
  let docs: SourceDocument[] = [];
  let failure: Error | undefined;
  const taught: TeachInput[] = [];
  const removed: string[] = [];
  const states = new Map<string, TeamSyncState>();
  let n = 0;
  const sync = new SourceSync({
    connectors: {
      git: {
        fetch: async () => {
          if (failure) throw failure;
          return docs;
        },
      },
    },
    sink: {
      teach: async (input) => {
        if (input.content.includes('\u0000'))
          throw Object.assign(new Error('content: is not text'), { kind: 'invalid_input' });
        taught.push(input);
        const id = `doc_${++n}`;
        return { document_id: id, status: 'indexed', level: 'L1', chunks: 1, document_ids: [id] };
      },
      remove: async (_team, ids) => void removed.push(...ids),
    },
    state: {
      load: async (t) => structuredClone(states.get(t)),
      save: async (t, s) => void states.set(t, structuredClone(s)),
    },
    logger: silentLogger(),
    now: () => new Date(now),
  });
  return {
    sync,
    taught,
    removed,
    setDocs: (d: SourceDocument[]) => (docs = d),
    fail: (e?: Error) => (failure = e),
    advance: (ms: number) => (now += ms),
  };
}

const md = (path: string, version: string, text: string): SourceDocument => ({
  path,
  version,
  content: text,
  format: 'markdown',
});
const GIT: SourceSettings = {
  name: 'rb',
  kind: 'git',
  url: 'file:///r',
  sync_interval_ms: 3600_000,
};

describe('SourceSync', () => {
  it('teaches one document per Markdown section, identified by source, path and version', async () => {
    const h = harness();
    h.setDocs([md('a.md', 'v1', '# One\nfirst\n# Two\nsecond')]);
    const [s] = await h.sync.sync('t', [GIT]);
    expect(s).toMatchObject({ state: 'ok', added: 1, documents: 1 });
    expect(h.taught.map((t) => [t.title, t.source, t.tags])).toEqual([
      ['One', 'git:rb', ['source:rb']],
      ['Two', 'git:rb', ['source:rb']],
    ]);
    expect(new Set(h.taught.map((t) => t.dedupeKey)).size).toBe(2);
  });

  it('syncs only due sources on a tick, every source on demand', async () => {
    const h = harness();
    h.setDocs([md('a.md', 'v1', '# A\na')]);
    const manual: SourceSettings = { ...GIT, name: 'manual', sync_interval_ms: undefined };
    await h.sync.sync('t', [GIT, manual], { onlyDue: true });
    expect(h.taught).toHaveLength(1); // the manual-only source waits for a sync request
    h.setDocs([md('a.md', 'v2', '# A\nchanged')]);
    h.advance(1800_000);
    await h.sync.sync('t', [GIT, manual], { onlyDue: true });
    expect(h.taught).toHaveLength(1); // not due yet
    h.advance(1800_000);
    const [s] = await h.sync.sync('t', [GIT, manual], { onlyDue: true });
    expect(s).toMatchObject({ updated: 1 });
    expect(h.removed).toEqual(['doc_1']);
    const all = await h.sync.sync('t', [GIT, manual]);
    expect(all[1]).toMatchObject({ name: 'manual', state: 'ok', added: 1 });
  });

  it('a failed read keeps the documents and reports the error; the next success clears it', async () => {
    const h = harness();
    h.setDocs([md('a.md', 'v1', '# A\na')]);
    await h.sync.sync('t', [GIT]);
    h.fail(new Error('unreachable\n  host'));
    const [failed] = await h.sync.sync('t', [GIT]);
    expect(failed).toMatchObject({ state: 'error', error: 'unreachable host', documents: 1 });
    expect(h.removed).toEqual([]);
    h.fail(undefined);
    const [ok] = await h.sync.sync('t', [GIT]);
    expect(ok).toMatchObject({ state: 'ok', unchanged: 1 });
    expect(ok?.error).toBeUndefined();
    expect(await h.sync.lastSyncAt('t')).toBe(ok?.last_sync_at);
  });

  it('skips a document the knowledge base refuses, says so, and syncs the others', async () => {
    const h = harness();
    h.setDocs([md('bin.md', 'v1', '# Bin\n\u0000'), md('ok.md', 'v1', '# Ok\nfine')]);
    const [s] = await h.sync.sync('t', [GIT]);
    expect(s).toMatchObject({ state: 'ok', added: 1, documents: 1 });
    expect(s?.error).toBe('1 document(s) skipped: bin.md: content: is not text');
  });

  it('runs one sync of a team at a time', async () => {
    const h = harness();
    h.setDocs([md('a.md', 'v1', '# A\na')]);
    const [a, b] = await Promise.all([h.sync.sync('t', [GIT]), h.sync.sync('t', [GIT])]);
    expect(a?.[0]).toMatchObject({ added: 1 });
    expect(b?.[0]).toMatchObject({ added: 0, unchanged: 1 });
    expect(h.taught).toHaveLength(1);
  });

  it('a source removed from the config takes its synced documents with it, and only those', async () => {
    const h = harness();
    const other: SourceSettings = { ...GIT, name: 'wiki', url: 'file:///w' };
    h.setDocs([md('a.md', 'v1', '# A\nalpha'), md('b.md', 'v1', '# B\nbeta')]);
    await h.sync.sync('t', [GIT, other]);
    // each source taught both files: doc_1, doc_2 (rb) and doc_3, doc_4 (wiki)
    expect(h.taught).toHaveLength(4);
    // config unknown (unreachable): nothing is removed
    await h.sync.sync('t', [], { onlyDue: true, prune: false });
    expect(h.removed).toEqual([]);
    // rb is gone from the config: its documents go, wiki's stay, and a tick does it
    const statuses = await h.sync.sync('t', [other], { onlyDue: true });
    expect(h.removed.sort()).toEqual(['doc_1', 'doc_2']);
    expect(statuses.map((x) => x.name)).toEqual(['wiki']);
    // nothing left to remove; the source coming back is synced afresh
    await h.sync.sync('t', [other]);
    expect(h.removed).toHaveLength(2);
    const [again] = await h.sync.sync('t', [GIT]);
    expect(again).toMatchObject({ name: 'rb', added: 2 });
    expect(h.removed.sort()).toEqual(['doc_1', 'doc_2', 'doc_3', 'doc_4']);
  });
});
