import { silentLogger } from '@inquest/observability';
import { startConfigServiceDouble, tempDir, type ConfigServiceDouble } from '@inquest/testing';
import { TextAnalyzer, loadOpsVocabulary } from '@inquest/vector';
import { start } from '../src/main';

const RUNBOOK = `# Node conntrack table full
The kernel drops new connections when nf_conntrack reaches its maximum. Raise
net.netfilter.nf_conntrack_max on the node and find the client that opens short-lived connections.`;

/** The shipped vocabulary under another version: stored terms and vectors change meaning. */
const analyzerVersion = (version: string) => new TextAnalyzer({ ...loadOpsVocabulary(), version });

describe('index catch-up after an analyzer change', () => {
  let config: ConfigServiceDouble;
  const dataDir = tempDir();
  const env = () => ({
    INQUEST_GRPC_PORT: '0',
    INQUEST_DATA_DIR: dataDir,
    INQUEST_CONFIG_ADDR: config.address,
    // no tree rebuild during the test: only the start-up catch-up can fill the new space
    INQUEST_KB_REBUILD_DEBOUNCE_MS: '3600000',
    INQUEST_KB_SETTINGS_CACHE_MS: '0',
    INQUEST_LOG_LEVEL: 'silent',
  });

  beforeAll(async () => {
    config = await startConfigServiceDouble({ unknownTeam: 'empty' });
  });
  afterAll(async () => {
    await config.stop();
  });

  it('re-indexes every document into the new space at start, without a tree rebuild', async () => {
    const first = await start(env(), {
      logger: silentLogger(),
      analyzer: analyzerVersion('catch-up-a'),
    });
    let documentId: string;
    try {
      expect(await first.indexCatchUp).toBe(0);
      documentId = (
        await first.knowledge.teach({ teamId: 'team-a', content: RUNBOOK, type: 'runbook' })
      ).document_id;
      await first.knowledge.teach({ teamId: 'team-b', content: RUNBOOK, type: 'runbook' });
    } finally {
      await first.stop();
    }

    const second = await start(env(), {
      logger: silentLogger(),
      analyzer: analyzerVersion('catch-up-b'),
    });
    try {
      // both teams' documents, each into its own team
      expect(await second.indexCatchUp).toBe(2);
      const r = await second.knowledge.retrieve({
        teamId: 'team-a',
        query: 'conntrack table full, connections dropped',
        strategy: 'hybrid',
        minRelevance: 0,
      });
      expect(r.results.map((x) => x.document_id)).toEqual([documentId]);
    } finally {
      await second.stop();
    }

    // same analyzer again: nothing is missing, nothing is re-indexed
    const third = await start(env(), {
      logger: silentLogger(),
      analyzer: analyzerVersion('catch-up-b'),
    });
    try {
      expect(await third.indexCatchUp).toBe(0);
    } finally {
      await third.stop();
    }
  });
});
