import { invalidRequest } from '@inquest/errors';
import type { InvestigationAlertRecord, InvestigationContextRecord } from '@inquest/store';
import { AGENT_NAMES, isAgentName, type AgentName } from './agents';

export const MAX_MESSAGE_CHARS = 32_768;
export const MAX_CONTEXT_FIELD_CHARS = 1_024;
export const ENVIRONMENTS = ['prod', 'staging', 'dev'] as const;
export const SEVERITIES = ['high', 'medium', 'low'] as const;

export interface RunRequest {
  teamId: string;
  agentName: string;
  message: string;
  context?: InvestigationContextRecord;
  async: boolean;
  requestedBy?: string;
  /**
   * chosen by the caller (alert intake): creating it again is a no-op that answers the stored
   * investigation, so a retried start never makes a second one
   */
  investigationId?: string;
  /** the alert that started it */
  alert?: InvestigationAlertRecord;
  /** the caller's request id (`x-request-id`): every call made for the run carries it */
  requestId?: string;
}

export interface ValidRunRequest extends RunRequest {
  agentName: AgentName;
  context: InvestigationContextRecord;
}

/** The runner's own check of a run request (the gateway checks the same with zod first). */
export function validateRunRequest(req: RunRequest): ValidRunRequest {
  if (!req.teamId) throw invalidRequest('team is required');
  if (!req.agentName) throw invalidRequest('agent_name is required');
  if (!isAgentName(req.agentName)) {
    throw invalidRequest(`agent_name must be one of ${AGENT_NAMES.join(', ')}`);
  }
  if (typeof req.message !== 'string' || !req.message.trim())
    throw invalidRequest('message is required');
  if (req.message.length > MAX_MESSAGE_CHARS) {
    throw invalidRequest(`message is longer than ${MAX_MESSAGE_CHARS} characters`);
  }
  const context: InvestigationContextRecord = {};
  for (const [k, v] of Object.entries(req.context ?? {}) as [
    keyof InvestigationContextRecord,
    unknown,
  ][]) {
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw invalidRequest(`context.${k} must be a string`);
    if (v.length > MAX_CONTEXT_FIELD_CHARS)
      throw invalidRequest(`context.${k} is longer than ${MAX_CONTEXT_FIELD_CHARS} characters`);
    context[k] = v;
  }
  if (
    context.environment !== undefined &&
    !(ENVIRONMENTS as readonly string[]).includes(context.environment)
  ) {
    throw invalidRequest(`context.environment must be one of ${ENVIRONMENTS.join(', ')}`);
  }
  if (
    context.severity !== undefined &&
    !(SEVERITIES as readonly string[]).includes(context.severity)
  ) {
    throw invalidRequest(`context.severity must be one of ${SEVERITIES.join(', ')}`);
  }
  return { ...req, agentName: req.agentName, context };
}
