import type { EngineRun } from './engine';
import type { KnowledgeSource, ToolGateway } from './ports';
import { ToolRunner } from './tool-runner';

/**
 * Progress of one engine run. Every tool call the runner starts adds a step, so steps_total
 * grows as the investigation discovers work; it never reports fewer steps than are done.
 */
export class RunProgress {
  readonly runner: ToolRunner;
  private done = 0;
  private total: number;

  constructor(
    private readonly run: EngineRun,
    tools: ToolGateway,
    knowledge: KnowledgeSource,
    plannedSteps: number,
  ) {
    this.total = plannedSteps;
    this.runner = new ToolRunner(
      run.teamId,
      run.investigationId,
      tools,
      knowledge,
      run.signal,
      () => {
        this.total++;
      },
    );
  }

  /** Reports `current` as the step under way. */
  step(current: string): void {
    this.report(current, this.done, Math.max(this.total, this.done + 1));
  }

  /** Counts a finished step, then reports `next` when given. */
  complete(next?: string): void {
    this.done++;
    if (next !== undefined) this.step(next);
  }

  /** The last report: every step done. */
  finish(): void {
    const all = Math.max(this.done + 1, this.total);
    this.report('done', all, all);
  }

  private report(current: string, completed: number, total: number): void {
    this.run.progress({ current_step: current, steps_completed: completed, steps_total: total }, [
      ...this.runner.used,
    ]);
  }
}
