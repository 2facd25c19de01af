import { createClient, type PromiseClient } from '@inquest/grpc-kit';
import { silentLogger } from '@inquest/observability';
import { agentEnum, investigationStatusEnum, knowledgeV1, priorityEnum } from '@inquest/proto';
import { startConfigServiceDouble, tempDir, type ConfigServiceDouble } from '@inquest/testing';
import { start, type RunningService } from '../src/main';

type Client = PromiseClient<knowledgeV1.KnowledgeServiceClient>;

const OOM_RUNBOOK = `# Checkout pods OOMKilled
When checkout pods are OOMKilled the memory limit is too low for the cart cache.
1. Check \`kubectl describe pod\` for Last State: OOMKilled and exit code 137.
2. Raise the memory limit of the checkout deployment to 1Gi and roll out.`;

/** A completed investigation of the same checkout OOM failure (one per run). */
const oomEvent = (teamId: string, n: number) => ({
  event_id: `evt_${teamId}_${n}`,
  occurred_at: new Date(Date.UTC(2026, 10, 1 + n)).toISOString(),
  team_id: teamId,
  investigation: {
    investigation_id: `inv_${n}`,
    team_id: teamId,
    status: 'completed',
    agent: 'investigation_agent',
    status_enum: investigationStatusEnum.toProto('completed'),
    agent_enum: agentEnum.toProto('investigation_agent'),
    message: 'checkout pods OOMKilled, restarting with exit code 137',
    completed_at: new Date(Date.UTC(2026, 10, 1 + n)).toISOString(),
    context: { service: 'checkout' },
    tools_used: [],
    created_at: new Date(Date.UTC(2026, 10, 1 + n)).toISOString(),
    attempt: 1,
    result: {
      summary: `checkout OOMKilled (run ${n})`,
      root_cause: {
        description: 'memory limit too low for the cart cache',
        confidence: 80,
        evidence: ['Last State: OOMKilled'],
      },
      timeline: [],
      affected_systems: ['checkout'],
      recommendations: [
        {
          priority: 'high',
          priority_enum: priorityEnum.toProto('high'),
          action: 'raise the memory limit to 1Gi',
        },
      ],
    },
  },
});

describe('generated knowledge in its place', () => {
  let config: ConfigServiceDouble;
  let svc: RunningService;
  let kb: Client;
  const dataDir = tempDir();

  beforeAll(async () => {
    config = await startConfigServiceDouble({ unknownTeam: 'empty' });
    svc = await start(
      {
        INQUEST_GRPC_PORT: '0',
        INQUEST_DATA_DIR: dataDir,
        INQUEST_CONFIG_ADDR: config.address,
        INQUEST_KB_REBUILD_DEBOUNCE_MS: '600000',
        INQUEST_KB_SETTINGS_CACHE_MS: '0',
        INQUEST_LOG_LEVEL: 'silent',
      },
      { logger: silentLogger() },
    );
    kb = createClient(knowledgeV1.KnowledgeServiceClient, svc.address, { deadlineMs: 20000 });
  });

  afterAll(async () => {
    kb?.close();
    await svc?.stop();
    await config?.stop();
  });

  const teachRunbook = (teamId: string, content = OOM_RUNBOOK) =>
    kb.teach({
      team_id: teamId,
      content,
      type: 'runbook',
      service: 'checkout',
      tags: [],
      format: 'text',
    });

  it('marks taught documents authored and investigation-learned incidents generated', async () => {
    const rb = await teachRunbook('team-p');
    await svc.knowledge.learnFromInvestigation(oomEvent('team-p', 1));
    const r = await kb.retrieve({
      team_id: 'team-p',
      query: 'checkout OOMKilled exit code 137',
      min_relevance: 0,
      levels: [],
      levels_enum: [],
    });
    const runbook = r.results.find((x) => x.document_id === rb.document_id);
    const incident = r.results.find((x) => x.type === 'incident');
    expect(runbook?.provenance).toBe('authored');
    expect(incident?.provenance).toBe('generated');
    expect(incident?.level).toBe('L3');
  });

  it('keeps repeated investigations of one failure as one incident with occurrences and last seen', async () => {
    for (const n of [1, 2, 3]) await svc.knowledge.learnFromInvestigation(oomEvent('team-d', n));
    // a redelivered event counts once
    await svc.knowledge.learnFromInvestigation(oomEvent('team-d', 3));
    const stats = await kb.getTreeStats({ team_id: 'team-d' });
    expect(stats.total_documents).toBe(1);
    const r = await kb.retrieve({
      team_id: 'team-d',
      query: 'checkout OOMKilled',
      min_relevance: 0,
      levels: ['L3'],
      levels_enum: [],
    });
    const docs = new Set(r.results.map((x) => x.document_id));
    expect(docs.size).toBe(1);
    expect(r.results[0]).toMatchObject({
      type: 'incident',
      provenance: 'generated',
      occurrences: 3,
    });
    expect(r.results[0]!.last_seen_at).toBeTruthy();
    const patterns = (await kb.listPatterns({ team_id: 'team-d', limit: 10 })).patterns;
    expect(patterns).toHaveLength(1);
    expect(patterns[0]!.occurrences).toBe(3);
  });

  it('ranks an authored runbook above an unconfirmed generated incident, not above a confirmed one', async () => {
    const rb = await teachRunbook('team-k');
    await svc.knowledge.learnFromInvestigation(oomEvent('team-k', 1));
    const query = 'checkout pods OOMKilled restarting with exit code 137 memory limit';
    const before = await kb.retrieve({
      team_id: 'team-k',
      query,
      min_relevance: 0,
      levels: [],
      levels_enum: [],
    });
    expect(before.results[0]?.document_id).toBe(rb.document_id);
    const incident = before.results.find((x) => x.type === 'incident')!;
    // a person confirms the incident helped
    await kb.feedback({
      team_id: 'team-k',
      query_id: before.query_id,
      helpful: true,
      document_id: incident.document_id,
    });
    const after = await kb.retrieve({
      team_id: 'team-k',
      query,
      min_relevance: 0,
      levels: [],
      levels_enum: [],
    });
    const confirmed = after.results.find((x) => x.document_id === incident.document_id)!;
    // no longer scaled down (0.8): its score rises by more than the feedback signal alone gives
    expect(confirmed.score).toBeGreaterThan(incident.score * 1.15);
  });

  it('titles tree summaries by the documents they cover and returns them as summaries', async () => {
    const topics = ['memory limit OOMKilled', 'TLS certificate expired', 'disk pressure on nodes'];
    for (let i = 0; i < 12; i++)
      await kb.teach({
        team_id: 'team-s',
        content: `${topics[i % 3]} in svc-${i}: mitigate ${topics[i % 3]} by following step ${i}.`,
        type: 'runbook',
        title: `Runbook ${i}: ${topics[i % 3]}`,
        tags: [],
        format: 'text',
      });
    await svc.rebuildTree('team-s');
    const r = await kb.retrieve({
      team_id: 'team-s',
      query: 'certificate expired mitigate',
      top_k: 40,
      min_relevance: 0,
      levels: [],
      levels_enum: [],
    });
    const summaries = r.results.filter((x) => x.tree_layer >= 1);
    expect(summaries.length).toBeGreaterThan(0);
    for (const s of summaries) {
      expect(s.type).toBe('summary');
      expect(s.provenance).toBe('generated');
      expect(s.title).toMatch(/^Overview: Runbook \d+/);
      expect(s.title).not.toMatch(/Summary of/);
    }
    // a leaf comes first: summaries are a second route, never in a runbook's place
    expect(r.results[0]?.tree_layer).toBe(0);
    expect(r.results[0]?.type).toBe('runbook');
  });

  it('answers with the best passage and its source, not a concatenation', async () => {
    await teachRunbook('team-a');
    await kb.teach({
      team_id: 'team-a',
      content:
        '# Renew the TLS certificate\nDelete the secret api-gateway-tls so cert-manager issues a new certificate.',
      type: 'runbook',
      tags: [],
      format: 'text',
    });
    for (const n of [1, 2]) await svc.knowledge.learnFromInvestigation(oomEvent('team-a', n));
    const a = await kb.answer({
      team_id: 'team-a',
      question: 'checkout OOMKilled, what do I do?',
      include_sources: true,
    });
    expect(a.sources.length).toBeGreaterThanOrEqual(1);
    expect(a.sources.length).toBeLessThanOrEqual(2);
    expect(a.sources[0]).toMatchObject({ type: 'runbook', provenance: 'authored' });
    // the best passage itself, quoted whole
    expect(a.answer).toContain('Raise the memory limit of the checkout deployment to 1Gi');
    expect(a.answer).not.toMatch(/Resolution:\s*$/);
    expect(a.answer).not.toContain('TLS');
  });
});
