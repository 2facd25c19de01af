import { z } from 'zod';

export const AgentName = z
  .enum(['planner', 'investigation_agent', 'k8s_agent', 'cloud_agent', 'coding_agent'], {
    message:
      'agent_name must be one of planner, investigation_agent, k8s_agent, cloud_agent, coding_agent',
  })
  .describe(
    'planner orchestrates full investigations; investigation_agent does comprehensive troubleshooting; k8s_agent is cluster-focused; cloud_agent is cloud-provider-focused; coding_agent analyses code',
  );
export type AgentName = z.infer<typeof AgentName>;

export const InvestigationStatus = z.enum([
  'pending',
  'running',
  'completed',
  'failed',
  'cancelled',
]);
export type InvestigationStatus = z.infer<typeof InvestigationStatus>;

const ctxString = (what: string) => z.string().max(1024).describe(what);

export const InvestigationContext = z
  .object({
    service: ctxString('Service name'),
    environment: z.enum(['prod', 'staging', 'dev'], {
      message: 'context.environment must be one of prod, staging, dev',
    }),
    namespace: ctxString('Cluster namespace'),
    severity: z.enum(['high', 'medium', 'low'], {
      message: 'context.severity must be one of high, medium, low',
    }),
    related_alert: ctxString('Related alert id'),
    time_window: ctxString('Time range, for example a duration like 1h'),
    hint: ctxString('Free-text hint'),
  })
  .partial()
  .describe('Optional input context');
export type InvestigationContext = z.infer<typeof InvestigationContext>;

export const MAX_INVESTIGATION_MESSAGE_CHARS = 32_768;

/** Body of POST /agents/run. */
export const RunAgentRequest = z.object({
  agent_name: AgentName,
  message: z
    .string({ message: 'message is required and must be a string' })
    .max(
      MAX_INVESTIGATION_MESSAGE_CHARS,
      `message is longer than ${MAX_INVESTIGATION_MESSAGE_CHARS} characters`,
    )
    .refine((s) => s.trim().length > 0, 'message must not be empty')
    .describe(`The investigation request (1..${MAX_INVESTIGATION_MESSAGE_CHARS} characters)`),
  context: InvestigationContext.optional(),
  async: z
    .boolean({ message: 'async must be a boolean' })
    .optional()
    .describe('Default false. When true, answers 202 at once; poll the status endpoint.'),
});
export type RunAgentRequest = z.infer<typeof RunAgentRequest>;

export const RootCause = z.object({
  description: z.string(),
  confidence: z.number().min(0).max(100).describe('0..100'),
  evidence: z.array(z.string()).describe('Each item quotes the tool and the fact'),
});
export const TimelineEvent = z.object({
  timestamp: z.string().describe('ISO 8601 UTC'),
  event: z.string(),
});
export const Recommendation = z.object({
  priority: z.enum(['high', 'medium', 'low']),
  action: z.string(),
  proposed_action: z
    .object({
      tool: z.string().describe('`<server>:<tool>` of a tool that changes systems'),
      parameters: z.record(z.string(), z.unknown()),
    })
    .optional()
    .describe(
      'Extension: with feature_flags.enable_write_actions and enable_auto_mitigation both on, a write tool call proposed for a person to run. The investigation never runs it.',
    ),
});

export const InvestigationResult = z.object({
  summary: z.string(),
  root_cause: RootCause,
  timeline: z.array(TimelineEvent),
  affected_systems: z.array(z.string()),
  recommendations: z.array(Recommendation).describe('Highest priority first'),
});
export type InvestigationResult = z.infer<typeof InvestigationResult>;

export const InvestigationProgress = z.object({
  current_step: z.string(),
  steps_completed: z.number().int(),
  steps_total: z.number().int(),
});

export const InvestigationError = z.object({
  code: z
    .string()
    .describe('data_source_unavailable, llm_unavailable, timeout, runner_lost or internal'),
  message: z.string(),
});

/** 200 answer of a sync run (status completed, or failed with error). */
export const RunAgentResponse = z.object({
  investigation_id: z.string(),
  status: InvestigationStatus,
  duration_seconds: z.number(),
  result: InvestigationResult.optional().describe('Present when completed'),
  tools_used: z.array(z.string()),
  created_at: z.string(),
  error: InvestigationError.optional().describe('Present when failed (for example timeout)'),
});
export type RunAgentResponse = z.infer<typeof RunAgentResponse>;

/** 202 answer of an async run. */
export const RunAgentAccepted = z.object({
  investigation_id: z.string(),
  status: z.literal('running'),
  poll_url: z.string().describe('/api/v1/agents/status/<investigation_id>'),
  created_at: z.string(),
});
export type RunAgentAccepted = z.infer<typeof RunAgentAccepted>;

/** GET /agents/status/{investigation_id}: the fields present depend on status. */
/** The alert (group) that started an investigation. */
export const InvestigationAlert = z
  .object({
    source: z.enum(['alertmanager', 'grafana', 'pagerduty', 'generic']),
    alertname: z.string(),
    group_key: z.string(),
    labels: z.record(z.string(), z.string()),
    severity: z.string().optional(),
    starts_at: z.string().optional(),
    generator_url: z.string().optional(),
    external_id: z.string().optional(),
  })
  .describe('The alert that started it (only investigations started by an alert)');
export type InvestigationAlert = z.infer<typeof InvestigationAlert>;

export const InvestigationStatusResponse = z.object({
  investigation_id: z.string(),
  status: InvestigationStatus,
  agent: AgentName,
  message: z.string(),
  context: InvestigationContext.optional(),
  created_at: z.string(),
  progress: InvestigationProgress.optional().describe('running'),
  started_at: z
    .string()
    .optional()
    .describe('running, completed, failed; cancelled when it had started'),
  elapsed_seconds: z.number().optional().describe('running'),
  result: InvestigationResult.optional().describe('completed'),
  tools_used: z.array(z.string()).optional().describe('completed, failed'),
  completed_at: z.string().optional().describe('completed'),
  duration_seconds: z.number().optional().describe('completed, failed'),
  error: InvestigationError.optional().describe('failed'),
  failed_at: z.string().optional().describe('failed'),
  cancelled_at: z.string().optional().describe('cancelled'),
  alert: InvestigationAlert.optional(),
});
export type InvestigationStatusResponse = z.infer<typeof InvestigationStatusResponse>;

export const InvestigationIdParams = z.object({
  investigation_id: z.string().min(1).max(128).describe('Investigation id'),
});

export const ListInvestigationsQuery = z.object({
  limit: z.coerce
    .number({ message: 'limit must be an integer from 1 to 100' })
    .int('limit must be an integer from 1 to 100')
    .min(1, 'limit must be an integer from 1 to 100')
    .max(100, 'limit must be an integer from 1 to 100')
    .default(20)
    .describe('1..100, default 20'),
  offset: z.coerce
    .number({ message: 'offset must be an integer from 0 to 1000000' })
    .int('offset must be an integer from 0 to 1000000')
    .min(0, 'offset must be an integer from 0 to 1000000')
    .max(1_000_000, 'offset must be an integer from 0 to 1000000')
    .default(0)
    .describe('0..1000000, default 0'),
  status: z
    .enum(InvestigationStatus.options, {
      message: `status must be one of ${InvestigationStatus.options.join(', ')}`,
    })
    .optional(),
  agent: z
    .enum(AgentName.options, { message: `agent must be one of ${AgentName.options.join(', ')}` })
    .optional(),
});
export type ListInvestigationsQuery = z.infer<typeof ListInvestigationsQuery>;

export const InvestigationListItem = z.object({
  investigation_id: z.string(),
  status: InvestigationStatus,
  agent: AgentName,
  message: z.string(),
  created_at: z.string(),
  // extension (the web console's list): what a row needs without one status call per row
  service: z.string().optional().describe('Extension: context.service, when given'),
  root_cause: z
    .string()
    .optional()
    .describe('Extension: result.root_cause.description (completed only)'),
  confidence: z
    .number()
    .min(0)
    .max(100)
    .optional()
    .describe('Extension: result.root_cause.confidence, 0..100 (completed only)'),
});

export const InvestigationList = z.object({
  investigations: z.array(InvestigationListItem).describe('Newest first'),
  pagination: z.object({
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  }),
});
export type InvestigationList = z.infer<typeof InvestigationList>;

export const CancelInvestigationResponse = z.object({
  investigation_id: z.string(),
  status: z.literal('cancelled'),
  cancelled_at: z.string(),
});
export type CancelInvestigationResponse = z.infer<typeof CancelInvestigationResponse>;
