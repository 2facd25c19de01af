import type { EngineRun } from './engine';
import type { KnowledgeSource, ToolGateway } from './ports';
import { ToolRunner } from './tool-runner';

/**
 * Progress of one engine run. Every tool call the runner starts adds a step, so steps_total
 * grows as the investigation discovers work; it never reports fewer steps than are done.
 * `current_step` names a call still in flight (the newest), not the one that just finished.
 */
export class RunProgress {
  readonly runner: ToolRunner;
  private done = 0;
  private total: number;
  private readonly inFlight: string[] = [];
  private phase = 'planning';

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
      (tool) => {
        this.total++;
        this.inFlight.push(tool);
        this.report(tool, this.done, Math.max(this.total, this.done + 1));
      },
      run.requestId,
    );
  }

  /** Reports `current` as the phase under way. */
  step(current: string): void {
    this.phase = current;
    this.report(current, this.done, Math.max(this.total, this.done + 1));
  }

  /**
   * Counts a finished step. `finished` names a tool call that ended (it leaves the in-flight
   * list; the newest call still in flight, else the phase, is reported); any other text names
   * the phase that starts now.
   */
  complete(finished?: string): void {
    this.done++;
    if (finished === undefined) return;
    const i = this.inFlight.lastIndexOf(finished);
    if (i >= 0) this.inFlight.splice(i, 1);
    else this.phase = finished;
    const current = this.inFlight[this.inFlight.length - 1] ?? this.phase;
    this.report(current, this.done, Math.max(this.total, this.done + 1));
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
