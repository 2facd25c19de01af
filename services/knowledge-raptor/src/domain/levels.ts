/** Knowledge types and their level (API-DECISIONS "Knowledge"). */
export const TYPE_LEVEL: Record<string, 'L1' | 'L2' | 'L3' | 'L4'> = {
  runbook: 'L1',
  procedure: 'L1',
  remediation: 'L1',
  fact: 'L2',
  configuration: 'L2',
  threshold: 'L2',
  sla: 'L2',
  incident: 'L3',
  deployment: 'L3',
  policy: 'L4',
  escalation: 'L4',
  oncall: 'L4',
};

export const KNOWLEDGE_TYPES = Object.keys(TYPE_LEVEL);
