import { DocumentIndexer } from './document-indexer';
import { DocumentLibrary } from './document-library';
import {
  agentEnum,
  investigationStatusEnum,
  priorityEnum,
  type InvestigationFinishedEvent,
} from '@inquest/events';
import { LEARN_MIN_CONFIDENCE, PatternLearning } from './pattern-learning';
import { PATTERN_TAG_PREFIX } from './retrieval';
import { knowledgeHarness } from './testing/knowledge-harness';

const oom = (n: number, over: { confidence?: number; description?: string } = {}) =>
  ({
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
      message: 'checkout pods OOMKilled, restarting with exit code 137',
      context: { service: 'checkout' },
      tools_used: [],
      created_at: '2026-03-01T09:55:00Z',
      attempt: 1,
      result: {
        summary: `checkout OOMKilled (run ${n})`,
        root_cause: {
          description: over.description ?? 'memory limit too low for the cart cache',
          confidence: over.confidence ?? 80,
          evidence: ['Last State: OOMKilled'],
        },
        timeline: [],
        affected_systems: ['checkout', 'redis'],
        recommendations: [
          { priority: 'low', priority_enum: priorityEnum.toProto('low'), action: 'add an alert' },
          {
            priority: 'high',
            priority_enum: priorityEnum.toProto('high'),
            action: 'raise the memory limit to 1Gi',
          },
        ],
      },
    },
  }) satisfies InvestigationFinishedEvent;

describe('PatternLearning', () => {
  let h: ReturnType<typeof knowledgeHarness>;
  let learning: PatternLearning;
  beforeEach(() => {
    h = knowledgeHarness();
    const lib = new DocumentLibrary({ ...h, now: h.now, indexer: new DocumentIndexer(h) });
    learning = new PatternLearning({ ...h, now: h.now, teach: (i) => lib.teach(i) });
  });
  afterEach(() => h.close());

  it('reads status and priorities from the enums, and from the strings of an older producer', async () => {
    const failed = oom(1);
    failed.investigation.status_enum = investigationStatusEnum.toProto('failed');
    expect(await learning.learnFromInvestigation(failed)).toBe('ignored');

    const older = oom(2);
    older.investigation.status_enum = 0;
    older.investigation.agent_enum = 0;
    for (const r of older.investigation.result.recommendations) r.priority_enum = 0;
    expect(await learning.learnFromInvestigation(older)).toBe('learned');
    const [p] = await h.store.listPatterns('t1');
    expect(p?.solution).toBe('raise the memory limit to 1Gi; add an alert');
    const [doc] = await h.store.listTeamDocuments('t1');
    expect(doc?.tags).toContain('investigation_agent');
  });

  it('joins recommendations that are whole sentences with a space, not "limit.; If"', async () => {
    const sentences = oom(3);
    sentences.investigation.result.recommendations = [
      {
        priority: 'high',
        priority_enum: priorityEnum.toProto('high'),
        action: 'Raise the memory limit of checkout-api above its working set.',
      },
      {
        priority: 'high',
        priority_enum: priorityEnum.toProto('high'),
        action: 'If the fix cannot be made at once, roll checkout-api back.',
      },
      { priority: 'low', priority_enum: priorityEnum.toProto('low'), action: 'add an alert' },
    ];
    expect(await learning.learnFromInvestigation(sentences)).toBe('learned');
    const [p] = await h.store.listPatterns('t1');
    expect(p?.solution).toBe(
      'Raise the memory limit of checkout-api above its working set. If the fix cannot be made at once, roll checkout-api back. add an alert',
    );
  });

  it('turns a completed investigation into an incident document and a new pattern', async () => {
    expect(await learning.learnFromInvestigation(oom(1))).toBe('learned');
    const [p] = await h.store.listPatterns('t1');
    expect(p).toMatchObject({
      service: 'checkout',
      root_cause: 'memory limit too low for the cart cache',
      solution: 'raise the memory limit to 1Gi; add an alert',
      occurrences: 1,
    });
    const [doc] = await h.store.listTeamDocuments('t1');
    expect(doc).toMatchObject({ type: 'incident', source: 'investigation', author: 'inquest' });
    expect(doc?.tags).toContain(`${PATTERN_TAG_PREFIX}${p!.pattern_id}`);
    expect(doc?.content).toContain('Root cause: memory limit too low for the cart cache');
    expect(doc?.content.indexOf('[high]')).toBeLessThan(doc!.content.indexOf('[low]'));
    expect((await h.store.edgesAround('t1', 'redis')).length).toBeGreaterThan(0);
  });

  it('counts a redelivered event once and a repeated failure on the same pattern and document', async () => {
    await learning.learnFromInvestigation(oom(1));
    expect(await learning.learnFromInvestigation(oom(1))).toBe('duplicate');
    h.advance(60_000);
    expect(await learning.learnFromInvestigation(oom(2))).toBe('learned');
    const ps = await h.store.listPatterns('t1');
    expect(ps).toHaveLength(1);
    expect(ps[0]).toMatchObject({ occurrences: 2, last_seen_at: h.now().toISOString() });
    expect(await h.store.countDocuments('t1')).toBe(1);
  });

  it('learns nothing from uncertain, empty or unfinished results', async () => {
    const low = oom(3, { confidence: LEARN_MIN_CONFIDENCE - 1 });
    const none = oom(4, { description: 'No problem found: 3/3 pods ready' });
    const running = {
      ...oom(5),
      investigation: {
        ...oom(5).investigation,
        status: 'running',
        status_enum: investigationStatusEnum.toProto('running'),
      },
    };
    for (const e of [low, none, running, { ...oom(6), event_id: '' }])
      expect(await learning.learnFromInvestigation(e)).toBe('ignored');
    expect(await h.store.listPatterns('t1')).toEqual([]);
    expect(await h.store.countDocuments('t1')).toBe(0);
  });

  it('lists the patterns a query resembles, within the service', async () => {
    await learning.learnFromInvestigation(oom(1));
    await learning.learnFromInvestigation({
      ...oom(7, { description: 'TLS certificate expired on the ingress' }),
      investigation: {
        ...oom(7).investigation,
        message: 'ingress returns x509 certificate has expired errors',
        context: { service: 'ingress' },
        result: {
          ...oom(7).investigation.result,
          root_cause: {
            description: 'TLS certificate expired on the ingress',
            confidence: 90,
            evidence: [],
          },
        },
      },
    });
    const found = await learning.listPatterns({ teamId: 't1', query: 'pods OOMKilled' });
    expect(found[0]?.service).toBe('checkout');
    expect(await learning.listPatterns({ teamId: 't1', service: 'ingress' })).toHaveLength(1);
    expect(await learning.listPatterns({ teamId: 't1' })).toHaveLength(2);
    expect(await learning.listPatterns({ teamId: 't1', limit: 1 })).toHaveLength(1);
  });

  it('takes the vocabulary concepts of a text as its symptoms, else its frequent terms', () => {
    expect(learning.symptomsOf('pod OOMKilled', 'KubePodCrashLooping')).toContain(
      'alert:KubePodCrashLooping',
    );
    expect(learning.symptomsOf('zebra zebra quokka')).toEqual(
      expect.arrayContaining([expect.stringMatching(/^zebra/)]),
    );
    expect(learning.termOverlap('disk full', 'disk full')).toBe(1);
    expect(learning.termOverlap('disk', '')).toBe(0);
  });
});
