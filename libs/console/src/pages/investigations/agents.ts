import type { AgentName } from '@inquest/client';

/** The agents of the API (its AgentName enum), with what each is for. */
export const AGENTS: { name: AgentName; label: string }[] = [
  { name: 'planner', label: 'planner: full investigations' },
  { name: 'investigation_agent', label: 'investigation_agent: comprehensive troubleshooting' },
  { name: 'k8s_agent', label: 'k8s_agent: Kubernetes clusters' },
  { name: 'cloud_agent', label: 'cloud_agent: cloud providers' },
  { name: 'coding_agent', label: 'coding_agent: code analysis' },
];

export const STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export type StatusFilter = (typeof STATUSES)[number];
