import { ExtractiveSummarizer } from '@inquest/llm';
import {
  agentEnum,
  investigationStatusEnum,
  type InvestigationFinishedEvent,
} from '@inquest/events';
import { DocumentIndexer } from './document-indexer';
import { KnowledgeService } from './knowledge-service';
import { knowledgeHarness } from './testing/knowledge-harness';

describe('KnowledgeService (the pieces wired together)', () => {
  let h: ReturnType<typeof knowledgeHarness>;
  let kb: KnowledgeService;
  const scheduled: string[] = [];
  beforeEach(() => {
    h = knowledgeHarness();
    kb = new KnowledgeService({
      ...h,
      now: h.now,
      indexer: new DocumentIndexer(h),
      answerer: new ExtractiveSummarizer(),
      tree: { schedule: (t) => void scheduled.push(t) },
    });
  });
  afterEach(() => h.close());

  it('teaches, retrieves, answers and takes feedback on one team', async () => {
    const taught = await kb.teach({
      teamId: 't1',
      content: 'When the checkout disk is full, delete old WAL segments.',
      type: 'runbook',
      service: 'checkout',
    });
    expect(scheduled).toContain('t1');
    const found = await kb.retrieve({ teamId: 't1', query: 'checkout disk full', minRelevance: 0 });
    expect(found.results[0]?.document_id).toBe(taught.document_id);
    const a = await kb.answer({
      teamId: 't1',
      question: 'checkout disk full?',
      includeSources: true,
    });
    expect(a.answer).toBe('When the checkout disk is full, delete old WAL segments.');
    expect(a.sources?.[0]?.document_id).toBe(taught.document_id);
    await kb.feedback({ teamId: 't1', queryId: a.query_id, helpful: true });
    expect((await kb.status('t1', taught.document_id)).status).toBe('indexed');
    expect((await h.store.getDocument('t1', taught.document_id))?.helpful).toBe(1);
    expect((await kb.treeStats('t1')).total_documents).toBe(1);
    expect((await kb.graph('t1', 'checkout')).entity).toBe('checkout');
  });

  it('learns an incident that retrieval then reports with its occurrences', async () => {
    const event = (n: number): InvestigationFinishedEvent => ({
      event_id: `evt_${n}`,
      occurred_at: '2026-03-01T10:00:00Z',
      team_id: 't1',
      investigation: {
        investigation_id: `inv_${n}`,
        team_id: 't1',
        status: 'completed',
        status_enum: investigationStatusEnum.toProto('completed'),
        agent: 'investigation_agent',
        agent_enum: agentEnum.toProto('investigation_agent'),
        message: 'checkout pods OOMKilled with exit code 137',
        context: { service: 'checkout' },
        tools_used: [],
        created_at: '2026-03-01T09:55:00Z',
        attempt: 1,
        result: {
          summary: 'checkout OOMKilled',
          root_cause: { description: 'memory limit too low', confidence: 90, evidence: [] },
          timeline: [],
          affected_systems: [],
          recommendations: [],
        },
      },
    });
    expect(await kb.learnFromInvestigation(event(1))).toBe('learned');
    expect(await kb.learnFromInvestigation(event(2))).toBe('learned');
    const [p] = await kb.listPatterns({ teamId: 't1', query: 'OOMKilled' });
    expect(p?.occurrences).toBe(2);
    const r = await kb.retrieve({ teamId: 't1', query: 'checkout OOMKilled', minRelevance: 0 });
    expect(r.results[0]).toMatchObject({ provenance: 'generated', occurrences: 2 });
    await kb.deleteDocument('t1', r.results[0]!.document_id);
    expect((await kb.treeStats('t1')).total_documents).toBe(0);
  });
});
