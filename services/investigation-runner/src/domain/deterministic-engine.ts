import { timeoutError } from '@inquest/errors';
import type { InvestigationResultRecord } from '@inquest/store';
import { toolSettingsOf } from './agents';
import { checkDataSources, planRun, type SubAgentPlan } from './agent-tools';
import type { EngineOutcome, EngineRun, InvestigationEngine } from './engine';
import {
  compileCatalog,
  sanitize,
  scanOutput,
  type CompiledSignature,
  type Entity,
  type Finding,
  type ScanResult,
  type TimelineEntry,
} from './evidence';
import { fillFromEntity, fillFromRequest, type Filled, type Params } from './param-filler';
import type {
  KnowledgeChunk,
  KnowledgeSource,
  LearnedPatternView,
  ToolDescriptor,
  ToolGateway,
} from './ports';
import { SIGNATURE_CATALOG, type SignatureEntry } from './signature-catalog.data';
import { RunProgress } from './run-progress';
import { isBuiltin, type ToolRunner } from './tool-runner';

export interface DeterministicEngineOptions {
  /** tool-server calls per investigation (default 24) */
  maxCalls?: number;
  /** calls of one tool with different entities (default 3) */
  maxVariantsPerTool?: number;
  /** rounds of chaining (default 3) */
  maxRounds?: number;
  /** share of the time budget the gathering may use (default 0.8) */
  gatherShare?: number;
  catalog?: SignatureEntry[];
}

interface Observation {
  tool: string;
  scan: ScanResult;
}

interface Knowledge {
  runbooks: KnowledgeChunk[];
  incidents: KnowledgeChunk[];
  patterns: LearnedPatternView[];
}

interface Hypothesis {
  sig: CompiledSignature;
  findings: Finding[];
  entity?: string;
  score: number;
  notes: string[];
  runbooks: KnowledgeChunk[];
  patterns: LearnedPatternView[];
}

const PRIORITY_ORDER = { high: 0, medium: 1, low: 2 } as const;

/**
 * The default engine: no LLM. Calls the tools it can fill from the request, chains tools from
 * entities found in their outputs (breadth-first, within a budget), reads the outputs for the
 * failure signatures of the catalog, consults the knowledge base and learned patterns, and
 * ranks hypotheses.
 */
export class DeterministicEngine implements InvestigationEngine {
  private readonly signatures: CompiledSignature[];
  private readonly maxCalls: number;
  private readonly maxVariants: number;
  private readonly maxRounds: number;
  private readonly gatherShare: number;

  constructor(
    private readonly tools: ToolGateway,
    private readonly knowledge: KnowledgeSource,
    options: DeterministicEngineOptions = {},
  ) {
    this.signatures = compileCatalog(options.catalog ?? SIGNATURE_CATALOG);
    this.maxCalls = options.maxCalls ?? 24;
    this.maxVariants = options.maxVariantsPerTool ?? 3;
    this.maxRounds = options.maxRounds ?? 3;
    this.gatherShare = options.gatherShare ?? 0.8;
  }

  async run(run: EngineRun): Promise<EngineOutcome> {
    const progress = new RunProgress(run, this.tools, this.knowledge, 3);
    const runner = progress.runner;
    progress.step('planning');
    const plan = await planRun(run, this.tools);
    progress.complete();
    const gatherUntil = Date.now() + Math.max(0, run.deadline - Date.now()) * this.gatherShare;
    const observations = new Map<string, Observation>();
    const knowledge: Knowledge = { runbooks: [], incidents: [], patterns: [] };
    const budget = { calls: this.maxCalls };
    const onDone = (label: string) => progress.complete(label);
    await Promise.all(
      plan.subAgents.map((sub) =>
        this.gather(run, sub, runner, observations, knowledge, budget, gatherUntil, onDone),
      ),
    );
    checkDataSources(plan, runner);
    if (run.signal.aborted) throw run.signal.reason;
    progress.step('analysing evidence');
    const result = this.analyse(run, [...observations.values()], knowledge, runner.used.length);
    progress.finish();
    return { result, toolsUsed: [...runner.used] };
  }

  private async gather(
    run: EngineRun,
    sub: SubAgentPlan,
    runner: ToolRunner,
    observations: Map<string, Observation>,
    knowledge: Knowledge,
    budget: { calls: number },
    until: number,
    onDone: (label: string) => void,
  ): Promise<void> {
    const record = (tool: ToolDescriptor, params: Params, output: unknown) => {
      const key = `${tool.fullName}:${JSON.stringify(params)}`;
      if (!observations.has(key))
        observations.set(key, {
          tool: tool.fullName,
          scan: scanOutput(tool.fullName, output, this.signatures),
        });
    };
    const builtins = sub.tools.filter((t) => isBuiltin(t.fullName));
    const external = sub.tools.filter((t) => !isBuiltin(t.fullName));
    const service = run.context.service;
    const knowledgeCalls = builtins.map(async (t) => {
      const params: Params = { query: [run.message, run.context.hint].filter(Boolean).join(' ') };
      if (service) params['service'] = service;
      const out = await runner.call(t, params);
      if (out.ok) absorbKnowledge(t.fullName, out.output, knowledge);
      onDone(t.fullName);
    });
    const knowledgeDone = Promise.all(knowledgeCalls);
    // Observed at once: when the tool rounds below throw first (cancel, timeout), a knowledge
    // call rejecting later must not become an unhandled rejection (it would end the process).
    knowledgeDone.catch(() => undefined);

    // breadth-first: round 0 from the request, later rounds from entities of earlier outputs
    const deferred: { tool: ToolDescriptor; filled: Filled; variants: number }[] = [];
    let round: { tool: ToolDescriptor; params: Params }[] = [];
    for (const tool of external) {
      const filled = fillFromRequest(
        tool,
        run.message,
        run.context,
        toolSettingsOf(run.effective, tool.fullName).defaultNamespace,
      );
      if (filled.missing.length === 0) round.push({ tool, params: filled.params });
      else deferred.push({ tool, filled, variants: 0 });
    }
    const entities: Entity[] = [];
    const tried = new Set<string>();
    for (let r = 0; r <= this.maxRounds && round.length > 0; r++) {
      if (Date.now() > until) break;
      const batch = round.filter(() => budget.calls-- > 0);
      round = [];
      await Promise.all(
        batch.map(async ({ tool, params }) => {
          const out = await runner.call(tool, params);
          if (out.ok) {
            record(tool, params, out.output);
            const scan = observations.get(`${tool.fullName}:${JSON.stringify(params)}`)?.scan;
            if (scan) entities.push(...scan.entities);
          }
          onDone(tool.fullName);
        }),
      );
      // unhealthy entities first: "list pods" leads to "describe" and "logs" of the failing pod
      const ordered = [
        ...entities.filter((e) => e.unhealthy),
        ...entities.filter((e) => !e.unhealthy),
      ];
      for (const d of deferred) {
        for (const e of ordered) {
          if (d.variants >= this.maxVariants) break;
          const params = fillFromEntity(d.tool, d.filled, e);
          if (!params) continue;
          const key = `${d.tool.fullName}:${JSON.stringify(params)}`;
          if (tried.has(key)) continue;
          tried.add(key);
          d.variants++;
          round.push({ tool: d.tool, params });
        }
      }
    }
    await knowledgeDone;
    if (Date.now() > until && run.deadline < Date.now())
      throw timeoutError('the investigation ran out of time');
  }

  private analyse(
    run: EngineRun,
    observations: Observation[],
    knowledge: Knowledge,
    toolCalls: number,
  ): InvestigationResultRecord {
    const findings = observations.flatMap((o) => o.scan.findings);
    const events = observations.flatMap((o) => o.scan.events);
    const entities = observations.flatMap((o) => o.scan.entities);
    const bySig = new Map<string, Finding[]>();
    for (const f of findings) bySig.set(f.signatureId, [...(bySig.get(f.signatureId) ?? []), f]);
    const firstSymptom = Math.min(
      ...findings
        .filter((f) => f.at !== undefined && this.kindOf(f.signatureId) !== 'change')
        .map((f) => f.at!),
    );
    const hypotheses: Hypothesis[] = [];
    for (const sig of this.signatures) {
      const fs = bySig.get(sig.entry.id);
      if (!fs?.length) continue;
      hypotheses.push(this.score(sig, fs, firstSymptom, knowledge));
    }
    hypotheses.sort((a, b) => b.score - a.score);
    const top = hypotheses[0];
    const service = run.context.service;

    let rootCause: InvestigationResultRecord['root_cause'];
    const recs: { priority: 'high' | 'medium' | 'low'; action: string }[] = [];
    if (top) {
      const entity = top.entity ?? service ?? 'the affected service';
      rootCause = {
        description: fill(top.sig.entry.rootCause, entity),
        confidence: Math.round(top.score),
        evidence: [
          ...top.findings.slice(0, 6).map((f) => `${f.tool}: ${f.fact}`),
          ...top.notes,
          ...top.patterns
            .slice(0, 2)
            .map(
              (p) =>
                `learned_patterns: seen ${p.occurrences}x before: ${sanitize(p.rootCause, 160)}`,
            ),
          ...top.runbooks
            .slice(0, 2)
            .map(
              (c) =>
                `knowledge_search: runbook "${sanitize(c.title ?? c.content, 80)}" covers this failure`,
            ),
        ],
      };
      for (const r of top.sig.entry.recommendations)
        recs.push({ priority: r.priority, action: fill(r.action, entity) });
      for (const p of top.patterns)
        recs.push({
          priority: p.confidence >= 0.7 ? 'high' : 'medium',
          action: `Known fix from past incidents: ${sanitize(p.solution, 300)}`,
        });
      for (const h of hypotheses.slice(1, 3)) {
        const r = h.sig.entry.recommendations[0];
        if (r)
          recs.push({
            priority: r.priority === 'high' ? 'medium' : 'low',
            action: fill(r.action, h.entity ?? service ?? 'the affected service'),
          });
      }
    } else {
      const pattern = knowledge.patterns.find((p) => p.confidence >= 0.5);
      if (pattern) {
        rootCause = {
          description: sanitize(pattern.rootCause, 500),
          confidence: Math.round(Math.min(60, pattern.confidence * 60)),
          evidence: [
            `learned_patterns: matches a pattern seen ${pattern.occurrences}x (symptoms: ${sanitize(pattern.symptoms.join(', '), 160)})`,
          ],
        };
        recs.push({ priority: 'high', action: sanitize(pattern.solution, 300) });
      } else {
        rootCause = {
          description:
            'No known failure signature was found in the data gathered; the root cause is undetermined.',
          confidence: observations.length > 0 ? 10 : 0,
          evidence: observations
            .slice(0, 5)
            .map((o) => `${o.tool}: no failure signature in its output`),
        };
        recs.push({
          priority: 'medium',
          action:
            'Widen the time window or add tool servers with logs, events and metrics of the service.',
        });
      }
    }
    for (const c of knowledge.runbooks.slice(0, 2)) {
      recs.push({
        priority: 'medium',
        action: `Follow the runbook "${sanitize(c.title ?? c.content, 80)}": ${sanitize(c.content, 200)}`,
      });
    }
    const recommendations = dedupe(recs, (r) => r.action)
      .sort((a, b) => PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority])
      .slice(0, 8);

    const timeline = buildTimeline(events);
    const affected = dedupe(
      [
        ...(service ? [service] : []),
        ...(top ? top.findings.map((f) => f.entity).filter((e): e is string => !!e) : []),
        ...entities
          .filter(
            (e) =>
              e.unhealthy &&
              [
                'deployment',
                'service',
                'node',
                'instance',
                'pod',
                'statefulset',
                'database',
                'host',
              ].includes(e.kind),
          )
          .map((e) => e.name),
      ].map(workloadName),
      (x) => x,
    ).slice(0, 8);
    const others = hypotheses
      .slice(1, 3)
      .map((h) => `${h.sig.entry.title} (${Math.round(h.score)}%)`);
    const subject = sanitize(run.message, 80);
    const summary = top
      ? `Investigation of "${subject}"${service ? ` (${service})` : ''}: ${top.sig.entry.title}${top.entity ? ` on ${top.entity}` : ''}, confidence ${Math.round(top.score)}%. ` +
        `${findings.length} finding(s) from ${toolCalls} tool(s).${others.length ? ` Other candidates: ${others.join('; ')}.` : ''}`
      : `Investigation of "${subject}"${service ? ` (${service})` : ''}: no known failure signature found in ${observations.length} tool output(s); root cause undetermined.`;
    return {
      summary,
      root_cause: rootCause,
      timeline,
      affected_systems: affected,
      recommendations,
    };
  }

  private kindOf(id: string): string | undefined {
    return this.signatures.find((s) => s.entry.id === id)?.entry.kind;
  }

  /** signature strength, amount of evidence, recency to the first symptom, learned patterns, runbooks */
  private score(
    sig: CompiledSignature,
    fs: Finding[],
    firstSymptom: number,
    knowledge: Knowledge,
  ): Hypothesis {
    const e = sig.entry;
    const tools = new Set(fs.map((f) => f.tool)).size;
    let score =
      100 *
      (0.5 * e.strength + (0.12 * Math.min(fs.length, 6)) / 6 + (0.08 * Math.min(tools, 3)) / 3);
    const notes: string[] = [];
    const times = fs.map((f) => f.at).filter((t): t is number => t !== undefined);
    const first = times.length ? Math.min(...times) : undefined;
    if (e.kind === 'change' && first !== undefined && Number.isFinite(firstSymptom)) {
      const lead = firstSymptom - first;
      if (lead >= 0 && lead <= 2 * 3600_000) {
        score += 30 * (1 - lead / (2 * 3600_000)) + 10;
        notes.push(
          `timing: change at ${new Date(first).toISOString()} precedes the first error at ${new Date(firstSymptom).toISOString()}`,
        );
      } else if (lead < 0) score -= 10;
    } else if (first !== undefined && first === firstSymptom) {
      score += 6;
    }
    if (e.kind === 'symptom') score *= 0.85;
    const matches = (text: string) =>
      sig.regexes.some((r) => r.test(text)) || text.toLowerCase().includes(e.title.toLowerCase());
    const patterns = knowledge.patterns.filter((p) =>
      matches(`${p.symptoms.join(' ')} ${p.rootCause}`),
    );
    if (patterns.length) score += 15 * Math.max(...patterns.map((p) => p.confidence));
    const runbooks = [...knowledge.runbooks, ...knowledge.incidents].filter((c) =>
      matches(c.content),
    );
    if (runbooks.length) score += 8;
    const entityCounts = new Map<string, number>();
    for (const f of fs)
      if (f.entity) entityCounts.set(f.entity, (entityCounts.get(f.entity) ?? 0) + 1);
    const entity = [...entityCounts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    return {
      sig,
      findings: fs,
      entity,
      score: Math.max(5, Math.min(97, score)),
      notes,
      runbooks,
      patterns,
    };
  }
}

function absorbKnowledge(tool: string, output: unknown, k: Knowledge): void {
  const o = (output ?? {}) as { results?: KnowledgeChunk[]; patterns?: LearnedPatternView[] };
  if (tool === 'learned_patterns') k.patterns.push(...(o.patterns ?? []));
  else if (tool === 'similar_incidents') k.incidents.push(...(o.results ?? []));
  else k.runbooks.push(...(o.results ?? []));
}

function fill(template: string, entity: string): string {
  return template.replace(/\{entity\}/g, entity);
}

function dedupe<T>(xs: T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => {
    const k = key(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** checkout-7d9f8b6c5-x2x4z -> checkout (pods are named after their workload) */
function workloadName(name: string): string {
  return name
    .replace(/-[a-f0-9]{8,10}-[a-z0-9]{5}$/, '')
    .replace(/-[a-z0-9]{5}$/, (m) => (/\d/.test(m) ? '' : m));
}

function buildTimeline(events: TimelineEntry[]): InvestigationResultRecord['timeline'] {
  const sorted = dedupe(
    [...events].sort((a, b) => a.at - b.at),
    (e) => `${e.at}|${e.event}`,
  );
  const keep =
    sorted.length <= 20
      ? sorted
      : [...sorted.filter((e) => e.signatureId), ...sorted.filter((e) => !e.signatureId)]
          .slice(0, 20)
          .sort((a, b) => a.at - b.at);
  return keep.map((e) => ({
    timestamp: new Date(e.at).toISOString(),
    event: e.event || '(event)',
  }));
}
