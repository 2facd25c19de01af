import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { connectEffectiveConfigSource } from '@inquest/config-client';
import { createEgress } from '@inquest/egress';
import { isDomainError } from '@inquest/errors';
import { Subjects, eventEnvelope } from '@inquest/events';
import { startGrpcServer } from '@inquest/grpc-kit';
import {
  ChatSummarizer,
  ExtractiveSummarizer,
  OpenAiChatModel,
  type Summarizer,
} from '@inquest/llm';
import { createLogger, createMetricsRegistry } from '@inquest/observability';
import { knowledgeV1 } from '@inquest/proto';
import {
  busFor,
  Closers,
  mongoFromEnv,
  parseEnv,
  runMain,
  secretsFromEnv,
  type ServiceDeps,
  type RunningService as BaseRunningService,
} from '@inquest/runtime';
import { MongoKnowledgeStore, SqliteKnowledgeStore, type KnowledgeStore } from '@inquest/store';
import { TextAnalyzer } from '@inquest/vector';
import { effectiveKbSettings } from './adapters/effective-kb-settings';
import { HttpReranker } from './adapters/http-reranker';
import { ModelSpaces } from './adapters/model-spaces';
import { FileSyncStateStore } from './adapters/sources/file-sync-state-store';
import { ConfluenceSourceConnector } from './adapters/sources/confluence-source';
import { egressHostCheck, GitSourceConnector } from './adapters/sources/git-source';
import { WebSourceConnector } from './adapters/sources/web-source';
import { EnvSchema } from './config';
import { DocumentIndexer } from './domain/document-indexer';
import { KnowledgeService } from './domain/knowledge-service';
import { runClusterJob } from './domain/raptor/run-cluster-job';
import { resumePendingDocuments } from './domain/resume-pending';
import { TreeBuilder } from './domain/tree-builder';
import { SourceSync } from './domain/sources/source-sync';
import { catchUpIndexes } from './domain/index-catch-up';
import { SourceSyncLoop } from './domain/sources/source-sync-loop';
import { knowledgeHandlers } from './grpc/knowledge-handlers';

export interface RunningService extends BaseRunningService {
  /** the domain, for in-process benchmarks and tests */
  knowledge: KnowledgeService;
  /** rebuilds a team's RAPTOR tree now (benchmarks, tests) */
  rebuildTree(teamId: string): Promise<void>;
  /** the knowledge source sync loop (status, sync now) */
  sources: SourceSyncLoop;
  /** settles when the start-up catch-up of stale index spaces is done (tests, benchmarks) */
  indexCatchUp: Promise<number>;
}

export type { ServiceDeps };

export interface KnowledgeRaptorDeps extends ServiceDeps {
  /** the text analyzer of both retrieval legs (default: the shipped operations vocabulary) */
  analyzer?: TextAnalyzer;
}

/** Composition root of the knowledge-raptor service. */
export async function start(
  env: Record<string, string | undefined>,
  deps: KnowledgeRaptorDeps = {},
): Promise<RunningService> {
  const config = parseEnv(EnvSchema, env);
  const logger =
    deps.logger ?? createLogger({ name: 'knowledge-raptor', level: config.INQUEST_LOG_LEVEL });
  const closers = new Closers({ logger });
  const bus = await busFor(config, deps, { name: 'knowledge-raptor', logger, closers });
  const analyzer = deps.analyzer ?? new TextAnalyzer();
  let store: KnowledgeStore;
  const mongoSettings = mongoFromEnv(config);
  if (mongoSettings) {
    const mongo = await MongoClient.connect(mongoSettings.url);
    closers.add('mongodb', () => mongo.close());
    store = await MongoKnowledgeStore.open(mongo.db(mongoSettings.dbName));
  } else {
    store = SqliteKnowledgeStore.open(join(config.INQUEST_DATA_DIR, 'knowledge.db'));
  }
  closers.add('knowledge store', () => store.close());
  // Settings are served stale while refreshed (only a team's first request waits), and the last
  // answer stays in use while config-hierarchy is down (retried at most once a second).
  const ttl = config.INQUEST_KB_SETTINGS_CACHE_MS;
  const effective = await connectEffectiveConfigSource({
    address: config.INQUEST_CONFIG_ADDR,
    service: 'knowledge-raptor',
    bus,
    ttlMs: ttl,
    staleMs: ttl > 0 ? Infinity : 0,
    errorTtlMs: Math.min(ttl, 1000),
    logger,
  });
  closers.add('effective configs', () => effective.close());
  const settings = effectiveKbSettings(effective, logger);
  const spaces = new ModelSpaces({
    dataDir: config.INQUEST_DATA_DIR,
    analyzer,
    logger,
    qdrantUrl: config.INQUEST_QDRANT_URL,
    qdrantApiKey: config.INQUEST_QDRANT_API_KEY,
    embeddingsBaseUrl: config.INQUEST_EMBEDDINGS_BASE_URL,
    embeddingsApiKey: config.INQUEST_EMBEDDINGS_API_KEY,
    embeddingsDimensions: config.INQUEST_EMBEDDINGS_DIMENSIONS,
    sparsePostingBudget: config.INQUEST_KB_SPARSE_POSTING_BUDGET,
  });
  closers.add('model spaces', () => spaces.close());
  const extractive = new ExtractiveSummarizer();
  let llmSummarizer: Summarizer | undefined;
  if (config.INQUEST_LLM_BASE_URL && config.INQUEST_LLM_MODEL) {
    llmSummarizer = new ChatSummarizer(
      new OpenAiChatModel({
        baseUrl: config.INQUEST_LLM_BASE_URL,
        apiKey: config.INQUEST_LLM_API_KEY ?? '',
        model: config.INQUEST_LLM_MODEL,
      }),
    );
  }
  const egressAllow =
    config.INQUEST_EGRESS_ALLOW?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? [];
  const egress = createEgress({ allow: egressAllow, timeoutMs: 5000 });
  closers.add('egress', () => egress.close());
  const secrets = secretsFromEnv(config, { logger });
  // every team the service serves becomes one whose due sources the sync loop reads
  const syncTeams = new Set<string>();
  const teamSettings = {
    get: (teamId: string) => {
      syncTeams.add(teamId);
      return settings.get(teamId);
    },
  };
  // dependencies point one way: indexer <- tree builder <- knowledge service
  const indexer = new DocumentIndexer({ store, settings: teamSettings, spaces });
  const tree = new TreeBuilder({
    store,
    settings,
    spaces,
    cluster: runClusterJob,
    summarizer: llmSummarizer ?? extractive,
    logger,
    debounceMs: config.INQUEST_KB_REBUILD_DEBOUNCE_MS,
    reindex: (teamId, ids) => indexer.reindex(teamId, ids),
  });
  closers.add('tree builder', () => tree.stop());
  const knowledge = new KnowledgeService({
    store,
    settings: teamSettings,
    spaces,
    indexer,
    tree,
    analyzer,
    answerer: llmSummarizer ?? extractive,
    reranker: new HttpReranker(egress, secrets),
    logger,
    onTaught: async (doc) => {
      await bus.publish(Subjects.kbTaught, {
        ...eventEnvelope(doc.team_id),
        document_id: doc.document_id,
        type: doc.type,
        service: doc.service,
        metadata: { level: doc.level, chunks: doc.chunks, source: doc.source },
      });
    },
  });

  closers.add('indexing retries', () => knowledge.stop());

  const syncState = new FileSyncStateStore(join(config.INQUEST_DATA_DIR, 'source-sync'));
  for (const t of await syncState.teams()) syncTeams.add(t);
  const sourceSync = new SourceSync({
    connectors: {
      git: new GitSourceConnector({
        secrets,
        checkHost: egressHostCheck(egressAllow),
        fileRoots: config.INQUEST_KB_GIT_FILE_ROOTS,
        timeoutMs: config.INQUEST_KB_GIT_TIMEOUT_MS,
      }),
      web: new WebSourceConnector(egress),
      confluence: new ConfluenceSourceConnector(egress, { secrets }),
    },
    sink: {
      teach: (input) => knowledge.teach(input),
      remove: async (teamId, documentIds) => {
        for (const id of documentIds)
          await knowledge.deleteDocument(teamId, id).catch((err: unknown) => {
            // already gone (deleted by hand): the sync's goal is reached
            if (!isDomainError(err) || err.kind !== 'not_found') throw err;
          });
      },
    },
    state: syncState,
    logger,
    onSynced: async (teamId, at) => {
      const meta = await store.getTreeMeta(teamId);
      await store.setTreeMeta(teamId, {
        depth: meta?.depth ?? 0,
        nodes_by_level: meta?.nodes_by_level ?? {},
        last_sync_at: at,
      });
    },
  });
  const sources = new SourceSyncLoop({
    sync: sourceSync,
    settings,
    logger,
    tickMs: config.INQUEST_KB_SOURCE_TICK_MS,
    teams: syncTeams,
  });
  sources.start();
  closers.add('source sync loop', () => sources.stop());

  const subs = [
    await bus.subscribe(
      Subjects.investigationCompleted,
      async (msg) => {
        const eventId = msg.data.event_id;
        try {
          const outcome = await knowledge.learnFromInvestigation(msg.data);
          logger.debug({ event_id: eventId, outcome }, 'investigation.completed consumed');
        } catch (err) {
          // a malformed event never becomes valid: drop it instead of redelivering
          if (isDomainError(err) && err.kind === 'invalid_input') {
            logger.warn({ err, event_id: eventId }, 'investigation.completed event ignored');
            return;
          }
          throw err;
        }
      },
      { durable: 'knowledge-raptor-learn', maxDeliver: 5, backoffMs: [1000, 5000, 30000] },
    ),
  ];
  closers.add('subscriptions', async () => {
    for (const s of subs) await s.unsubscribe();
  });

  // documents whose indexing was interrupted (crash, embeddings outage) are indexed again
  void resumePendingDocuments(
    await store.listDocumentsByStatus('pending'),
    (d) => indexer.indexAndMark(d),
    logger,
  );

  // a new analyzer or vocabulary version opens a new index space: fill it now, in the background
  const indexCatchUp = catchUpIndexes({
    store,
    settings,
    spaces,
    reindex: (teamId, ids) => indexer.reindex(teamId, ids),
    logger,
  });
  // before the spaces and the store close
  closers.add('index catch-up', () => indexCatchUp.then(() => undefined));

  const metrics = createMetricsRegistry(
    'knowledge-raptor',
    config.INQUEST_METRICS_PORT !== undefined,
  );
  const grpc = await startGrpcServer({
    host: config.INQUEST_GRPC_HOST,
    port: config.INQUEST_GRPC_PORT,
    services: [
      {
        definition: knowledgeV1.KnowledgeServiceService,
        implementation: knowledgeHandlers(knowledge, sources, logger),
        name: 'inquest.knowledge.v1.KnowledgeService',
      },
    ],
    logger,
    metrics,
    metricsPort: config.INQUEST_METRICS_PORT,
  });
  closers.add('grpc server', () => grpc.shutdown(), { timeoutMs: 10_000 });
  return {
    name: 'knowledge-raptor',
    address: grpc.address,
    metricsAddress: grpc.metricsAddress,
    knowledge,
    rebuildTree: (teamId) => tree.buildNow(teamId),
    sources,
    indexCatchUp,
    stop: () => closers.closeAll(),
  };
}

if (require.main === module) runMain('knowledge-raptor', () => start(process.env));
