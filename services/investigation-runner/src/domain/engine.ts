import type {
  InvestigationContextRecord,
  InvestigationResultRecord,
  ProgressRecord,
} from '@inquest/store';
import type { AgentName } from './agents';

/** One investigation as an engine sees it. */
export interface EngineRun {
  teamId: string;
  investigationId: string;
  agent: AgentName;
  message: string;
  context: InvestigationContextRecord;
  /** the team's effective configuration */
  effective: Record<string, unknown>;
  /** the request id of the call that started the run, forwarded on every call made for it */
  requestId?: string;
  /** aborted on cancel, timeout, lease loss or shutdown: every call made for the run carries it */
  signal: AbortSignal;
  /** epoch ms by which the engine should have answered */
  deadline: number;
  progress(p: ProgressRecord, toolsUsed: string[]): void;
}

export interface EngineOutcome {
  result: InvestigationResultRecord;
  toolsUsed: string[];
}

/**
 * Turns a request into a result. Throws DomainErrors with the failure codes of
 * API-DECISIONS.md (data_source_unavailable, llm_unavailable, timeout).
 */
export interface InvestigationEngine {
  run(run: EngineRun): Promise<EngineOutcome>;
}
