import { createHash } from 'node:crypto';
import { unavailable } from '@inquest/errors';
import {
  agentEnum,
  investigationStatusEnum,
  priorityEnum,
  type InvestigationFinishedEvent,
} from '@inquest/events';
import type { KnowledgeStore, PatternRecord } from '@inquest/store';
import { CONCEPT_PREFIX, type TextAnalyzer } from '@inquest/vector';
import { BINARY, type TeachInput, type TeachResult } from './document-library';
import { extractFromInvestigation } from './graph-extraction';
import {
  baseConfidence,
  findMatchingPattern,
  patternConfidence,
  symptomSimilarity,
} from './patterns';
import { PATTERN_TAG_PREFIX } from './retrieval';

/** root_cause.confidence (0..100) below which an investigation is not learned from */
export const LEARN_MIN_CONFIDENCE = 50;
/** reads and writes of the learned patterns before giving up until the event is redelivered */
const LEARN_ATTEMPTS = 5;

export interface PatternLearningDeps {
  store: KnowledgeStore;
  analyzer: TextAnalyzer;
  /** teaches the incident document an investigation becomes */
  teach: (input: TeachInput) => Promise<TeachResult>;
  now?: () => Date;
}

/**
 * Learned patterns: completed investigations become incident documents and raise (or start) the
 * pattern their symptoms match; listing finds the patterns a query's symptoms resemble.
 */
export class PatternLearning {
  private readonly now: () => Date;

  constructor(private readonly deps: PatternLearningDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async listPatterns(input: {
    teamId: string;
    query?: string;
    service?: string;
    limit?: number;
  }): Promise<PatternRecord[]> {
    const limit = Math.min(Math.max(input.limit || 20, 1), 100);
    let ps = await this.deps.store.listPatterns(input.teamId);
    if (input.service) ps = ps.filter((p) => !p.service || p.service === input.service);
    if (input.query?.trim()) {
      const qs = this.symptomsOf(input.query);
      const scored = ps
        .map((p) => ({
          p,
          s:
            0.7 * symptomSimilarity(qs, p.symptoms) +
            0.3 *
              this.termOverlap(
                input.query!,
                `${p.root_cause} ${p.solution} ${p.symptoms.join(' ')}`,
              ),
        }))
        .filter((x) => x.s > 0);
      scored.sort((a, b) => b.s - a.s || b.p.confidence - a.p.confidence);
      return scored.slice(0, limit).map((x) => x.p);
    }
    return ps
      .sort((a, b) => b.confidence - a.confidence || b.occurrences - a.occurrences)
      .slice(0, limit);
  }

  /** Symptoms of a text: its vocabulary concepts, else its five most frequent terms. */
  symptomsOf(text: string, alert?: string): string[] {
    const concepts = [
      ...new Set(this.deps.analyzer.conceptsOf(text).map((c) => c.slice(CONCEPT_PREFIX.length))),
    ];
    const out = concepts.length
      ? concepts
      : topTerms(
          this.deps.analyzer.terms(text).filter((t) => !t.startsWith(CONCEPT_PREFIX)),
          5,
        );
    if (alert) out.push(`alert:${alert}`);
    return out;
  }

  /** Dice overlap of two texts' analyzed terms. */
  termOverlap(a: string, b: string): number {
    const A = new Set(this.deps.analyzer.terms(a));
    const B = new Set(this.deps.analyzer.terms(b));
    if (!A.size || !B.size) return 0;
    let inter = 0;
    for (const x of A) if (B.has(x)) inter++;
    return (2 * inter) / (A.size + B.size);
  }

  /**
   * Consumes inquest.v1.investigation.completed: the investigation becomes an L3 incident
   * document, its affected systems go into the graph, and its symptoms raise a matching learned
   * pattern or start a new one. Idempotent by event_id (a redelivered event counts once).
   */
  async learnFromInvestigation(
    event: InvestigationFinishedEvent,
  ): Promise<'learned' | 'duplicate' | 'ignored'> {
    const inv = event.investigation;
    if (!event.event_id || !event.team_id || !inv) return 'ignored';
    // the enums, or the strings of a producer built before them
    const status = investigationStatusEnum.read(inv.status_enum, inv.status);
    if ((status ?? inv.status) && status !== 'completed') return 'ignored';
    const agent = agentEnum.read(inv.agent_enum, inv.agent) ?? (inv.agent || undefined);
    if (await this.deps.store.isEventProcessed(event.event_id)) return 'duplicate';
    // an event from an older producer may lack any of these: read them as optional
    const result: Partial<NonNullable<typeof inv.result>> = inv.result ?? {};
    const rc: Partial<NonNullable<typeof result.root_cause>> = result.root_cause ?? {};
    // undetermined, "no problem found" and low-confidence results teach nothing (issue 13)
    if ((rc.confidence ?? 0) < LEARN_MIN_CONFIDENCE) return 'ignored';
    if (
      /^(no problem found|no known failure|the root cause is undetermined)/i.test(
        rc.description ?? '',
      )
    )
      return 'ignored';
    const service = inv.context?.service || undefined;
    const recs = (result.recommendations ?? [])
      .map((r) => ({
        ...r,
        priority: priorityEnum.read(r.priority_enum, r.priority) ?? r.priority,
      }))
      .sort((a, b) => prio(a.priority) - prio(b.priority));
    // fragments ("raise the limit; add an alert") joined by "; ", whole sentences by a space
    // (the engine's "… against the limit. If the fix …", not "… against the limit.; If …")
    const solution = recs
      .map((r) => r.action)
      .filter(Boolean)
      .reduce((acc, a) => (acc ? `${acc}${/[.!?]$/.test(acc) ? ' ' : '; '}${a}` : a), '');
    const lines = [
      `# Incident: ${result.summary || inv.message || inv.investigation_id}`,
      `Investigation: ${inv.investigation_id ?? ''} (agent ${agent ?? 'unknown'}, completed ${inv.completed_at ?? event.occurred_at ?? ''})`,
      service ? `Service: ${service}` : '',
      inv.context?.environment ? `Environment: ${inv.context.environment}` : '',
      inv.context?.related_alert ? `Alert: ${inv.context.related_alert}` : '',
      `Symptoms: ${inv.message ?? ''}${inv.context?.hint ? ` (${inv.context.hint})` : ''}`,
      rc.description ? `Root cause: ${rc.description}` : '',
      rc.evidence?.length ? `Evidence:\n${rc.evidence.map((e) => `- ${e}`).join('\n')}` : '',
      recs.length
        ? `Resolution:\n${recs.map((r) => `- [${r.priority}] ${r.action}`).join('\n')}`
        : '',
      result.affected_systems?.length
        ? `Affected systems: ${result.affected_systems.join(', ')}`
        : '',
    ].filter(Boolean);
    const symptoms = this.symptomsOf(
      `${inv.message ?? ''} ${inv.context?.hint ?? ''}`,
      inv.context?.related_alert,
    );
    // the same failure seen again (the pattern it matches) stays one incident document: the
    // pattern counts occurrences and last seen, retrieval reports them with the incident
    // from the event id: a redelivery after a crash links the same document and pattern
    const newPatternId = `pat_${createHash('sha256').update(event.event_id).digest('hex').slice(0, 20)}`;
    const linked =
      findMatchingPattern(
        await this.deps.store.listPatterns(event.team_id),
        symptoms,
        rc.description ?? '',
        service,
        (x, y) => this.termOverlap(x, y),
      )?.pattern_id ?? newPatternId;
    await this.deps.teach({
      teamId: event.team_id,
      content: lines.join('\n').replace(new RegExp(BINARY.source, 'g'), ' ').slice(0, 200_000),
      type: 'incident',
      service,
      tags: ['investigation', ...(agent ? [agent] : []), `${PATTERN_TAG_PREFIX}${linked}`],
      title: `Incident: ${(result.summary || inv.message || '').slice(0, 150)}`,
      author: 'inquest',
      source: 'investigation',
      confidence: Math.max(0.3, Math.min(1, (rc.confidence ?? 50) / 100)),
      dedupeKey: `incident|${linked}`,
    });
    const edges = extractFromInvestigation(service, result.affected_systems ?? []);
    // optimistic concurrency: another event may update the matched pattern between our read and
    // write (two replicas, or concurrent deliveries); then read again and recompute
    for (let attempt = 0; attempt < LEARN_ATTEMPTS; attempt++) {
      const patterns = await this.deps.store.listPatterns(event.team_id);
      const now = this.now().toISOString();
      const match = findMatchingPattern(patterns, symptoms, rc.description ?? '', service, (a, b) =>
        this.termOverlap(a, b),
      );
      let pattern: PatternRecord;
      if (match) {
        const occurrences = match.occurrences + 1;
        pattern = {
          ...match,
          symptoms: [...new Set([...match.symptoms, ...symptoms])].slice(0, 20),
          solution: match.solution || solution,
          root_cause: match.root_cause || rc.description || '',
          occurrences,
          confidence: patternConfidence(match.base_confidence, occurrences),
          last_seen_at: now,
        };
      } else {
        const base = baseConfidence(rc.confidence);
        pattern = {
          pattern_id: newPatternId,
          team_id: event.team_id,
          service,
          symptoms,
          root_cause: rc.description ?? '',
          solution,
          confidence: patternConfidence(base, 1),
          base_confidence: base,
          occurrences: 1,
          first_seen_at: now,
          last_seen_at: now,
          version: 0,
        };
      }
      const outcome = await this.deps.store.applyLearning({
        eventId: event.event_id,
        teamId: event.team_id,
        pattern,
        expectedVersion: match?.version ?? 0,
        edges,
      });
      if (outcome === 'applied') return 'learned';
      if (outcome === 'duplicate') return 'duplicate';
    }
    // the event is redelivered later (the bus backs off)
    throw unavailable(`learned patterns of team ${event.team_id} kept changing; try again`);
  }
}

function prio(p: string): number {
  return p === 'high' ? 0 : p === 'medium' ? 1 : 2;
}

function topTerms(terms: string[], n: number): string[] {
  const c = new Map<string, number>();
  for (const t of terms) if (t.length > 2 && !/^\d+$/.test(t)) c.set(t, (c.get(t) ?? 0) + 1);
  return [...c.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([t]) => t);
}
