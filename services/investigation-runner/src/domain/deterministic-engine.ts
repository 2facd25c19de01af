import { timeoutError } from '@inquest/errors';
import { checkDataSources, planRun } from './agent-tools';
import type { EngineOutcome, EngineRun, InvestigationEngine } from './engine';
import type { KnowledgeSource, ToolGateway } from './ports';
import type { Params } from './param-filler';
import { RunProgress } from './run-progress';
import { isBuiltin } from './tool-runner';
import { CAUSE_CATALOG, type CauseEntry } from './deterministic/cause-catalog.data';
import { absorbKnowledge, conclude, foundNothing, type Knowledge } from './deterministic/conclude';
import { compile } from './deterministic/diagnose';
import { Gatherer } from './deterministic/gatherer';
import { ClusterModel } from './deterministic/model';
import { scopeIncident } from './deterministic/scope';
import { profileTool, type ToolProfile } from './deterministic/tool-profile';

export interface DeterministicEngineOptions {
  /** tool-server calls per investigation (default 40) */
  maxCalls?: number;
  /** share of the time budget the gathering may use (default 0.8) */
  gatherShare?: number;
  catalog?: CauseEntry[];
  /** the current time (epoch ms); tests and the quality benchmark replay scenarios at their time */
  clock?: () => number;
}

export class DeterministicEngine implements InvestigationEngine {
  private readonly catalog: ReturnType<typeof compile>;
  private readonly maxCalls: number;
  private readonly gatherShare: number;
  private readonly clock: () => number;

  constructor(
    private readonly tools: ToolGateway,
    private readonly knowledge: KnowledgeSource,
    options: DeterministicEngineOptions = {},
  ) {
    this.catalog = compile(options.catalog ?? CAUSE_CATALOG);
    this.maxCalls = options.maxCalls ?? 40;
    this.gatherShare = options.gatherShare ?? 0.8;
    this.clock = options.clock ?? Date.now;
  }

  async run(run: EngineRun): Promise<EngineOutcome> {
    const progress = new RunProgress(run, this.tools, this.knowledge, 4);
    const runner = progress.runner;
    progress.step('planning');
    const plan = await planRun(run, this.tools);
    const now = this.clock();
    const scope = scopeIncident(run.message, run.context, now);
    progress.complete('scoping');
    const gatherUntil = Date.now() + Math.max(0, run.deadline - Date.now()) * this.gatherShare;
    // one tool set for the run: every sub-agent's tools, read-only ones only
    const seen = new Map<string, ToolProfile>();
    const refused: ToolProfile[] = [];
    for (const sub of plan.subAgents)
      for (const t of sub.tools) {
        if (seen.has(t.fullName) || isBuiltin(t.fullName)) continue;
        const p = profileTool(t);
        if (!p.readOnly) {
          if (!refused.some((r) => r.tool.fullName === t.fullName)) refused.push(p);
          continue;
        }
        seen.set(t.fullName, p);
      }
    const profiles = [...seen.values()];
    const builtins = plan.subAgents
      .flatMap((s) => s.tools)
      .filter(
        (t, i, a) => isBuiltin(t.fullName) && a.findIndex((x) => x.fullName === t.fullName) === i,
      );
    const model = new ClusterModel();
    const knowledge: Knowledge = { runbooks: [], incidents: [], patterns: [] };
    const gather = new Gatherer(
      run,
      runner,
      model,
      profiles,
      scope,
      this.maxCalls,
      gatherUntil,
      (l) => progress.complete(l),
      now,
    );
    const knowledgeDone = Promise.all(
      builtins.map(async (t) => {
        const params: Params = { query: [run.message, run.context.hint].filter(Boolean).join(' ') };
        if (run.context.service) params['service'] = run.context.service;
        const out = await runner.call(t, params);
        if (out.ok) absorbKnowledge(t.fullName, out.output, knowledge);
      }),
    );
    knowledgeDone.catch(() => undefined);
    progress.step('gathering evidence');
    await gather.gather();
    await knowledgeDone;
    checkDataSources(plan, runner);
    if (run.signal.aborted) throw run.signal.reason;
    if (run.deadline < Date.now()) throw timeoutError('the investigation ran out of time');
    progress.step('analysing evidence');
    const concludeOn = (subjects: typeof scope.subjects, healthyNamed?: string[]) =>
      conclude(
        run,
        { ...scope, subjects },
        model,
        this.catalog,
        knowledge,
        now,
        runner.used.length,
        refused,
        healthyNamed,
        profiles.some((p) => p.kube),
      );
    let result = concludeOn(scope.subjects);
    // what the request named looks healthy: its neighbours in the namespace may not be
    if (foundNothing(result) && scope.subjects.length && !scope.question) {
      const named = [...new Set(scope.subjects.map((s) => s.name))];
      const neighbours = await gather.widen();
      if (run.signal.aborted) throw run.signal.reason;
      if (neighbours.length) {
        const wider = concludeOn([...scope.subjects, ...neighbours], named);
        if (!foundNothing(wider)) result = wider;
      }
    }
    progress.finish();
    return { result, toolsUsed: [...runner.used] };
  }
}
