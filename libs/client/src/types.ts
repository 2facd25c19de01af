// Request and response types of the REST contract, derived from the zod schemas in
// libs/api-contract (the same ones the gateway validates with and the OpenAPI document is
// generated from): z.input for what the client sends, z.output for what it gets back.
// `import type` only, so the client ships no zod at runtime.
import type { z } from 'zod';
import type * as C from '@inquest/api-contract';

/** Query parameters as the client passes them: the schema's parsed types, all optional. */
type QueryOf<S extends z.ZodType> = { [K in keyof z.output<S>]?: z.output<S>[K] };

// agents
export type AgentName = z.output<typeof C.AgentName>;
export type InvestigationStatusValue = z.output<typeof C.InvestigationStatus>;
export type InvestigationContext = z.input<typeof C.InvestigationContext>;
export type RunInvestigationRequest = z.input<typeof C.RunAgentRequest>;
export type InvestigationResult = z.output<typeof C.InvestigationResult>;
export type InvestigationProgress = z.output<typeof C.InvestigationProgress>;
export type InvestigationError = z.output<typeof C.InvestigationError>;
/** The 200 answer of a synchronous run. */
export type RunInvestigationSyncResponse = z.output<typeof C.RunAgentResponse>;
/** The 202 answer of an async run. */
export type RunInvestigationAsyncResponse = z.output<typeof C.RunAgentAccepted>;
/** GET /agents/status/{id}: which fields are present depends on `status`. */
export type Investigation = z.output<typeof C.InvestigationStatusResponse>;
export type InvestigationListItem = z.output<typeof C.InvestigationListItem>;
export type ListInvestigationsQuery = QueryOf<typeof C.ListInvestigationsQuery>;
export type ListInvestigationsResponse = z.output<typeof C.InvestigationList>;
export type CancelInvestigationResponse = z.output<typeof C.CancelInvestigationResponse>;

// config
/** A configuration document (effective, or one node's own). */
export type ConfigDocument = z.output<typeof C.ConfigDocument>;
/** Body of PUT /config/me and PUT /admin/nodes/{id}/config: only the fields to change. */
export type ConfigPatch = z.input<typeof C.ConfigPatch>;
export type RawConfigResponse = z.output<typeof C.RawConfig>;
/** GET /tools */
export type TeamToolsResponse = z.output<typeof C.TeamTools>;
export type TeamToolsQuery = QueryOf<typeof C.TeamToolsQuery>;
/** GET /config/me/effective: the merged document plus the team's `version`. */
export type EffectiveConfig = z.output<typeof C.EffectiveConfig>;
export type AuditQuery = QueryOf<typeof C.AuditQuery>;
export type AuditEntry = z.output<typeof C.AuditEntry>;
export type AuditResponse = z.output<typeof C.AuditHistory>;
/** 200 answer of a config update that was applied. */
export type ConfigUpdateApplied = z.output<typeof C.ConfigUpdateApplied>;
/** 202 answer of a config update that needs approval. */
export type ConfigUpdatePending = z.output<typeof C.ConfigChangeRequested>;
export type ConfigUpdateResponse = ConfigUpdateApplied | ConfigUpdatePending;
export type ChangeRequest = z.output<typeof C.ChangeRequest>;
export type PendingChanges = z.output<typeof C.PendingChanges>;
export type ChangeRequestList = z.output<typeof C.ChangeRequestList>;

// knowledge
export type KnowledgeType = z.output<typeof C.KnowledgeType>;
export type TeachRequest = z.input<typeof C.TeachRequest>;
export type TeachResponse = z.output<typeof C.TeachResponse>;
export type DocumentStatus = z.output<typeof C.DocumentStatus>;
export type RetrieveRequest = z.input<typeof C.RetrieveRequest>;
export type RetrieveResult = z.output<typeof C.RetrievedChunk>;
export type RetrieveResponse = z.output<typeof C.RetrieveResponse>;
export type AnswerRequest = z.input<typeof C.AnswerRequest>;
export type AnswerResponse = z.output<typeof C.AnswerResponse>;
export type FeedbackRequest = z.input<typeof C.FeedbackRequest>;
export type TreeStats = z.output<typeof C.TreeStats>;
export type PatternsQuery = QueryOf<typeof C.PatternsQuery>;
export type LearnedPattern = z.output<typeof C.LearnedPattern>;
export type PatternsResponse = z.output<typeof C.PatternList>;
export type GraphQuery = QueryOf<typeof C.GraphQuery>;
export type GraphResponse = z.output<typeof C.KnowledgeGraph>;
export type UploadDocumentRequest = z.input<typeof C.DocumentUploadRequest>;
export type KnowledgeSourceStatus = z.output<typeof C.KnowledgeSourceStatus>;
export type KnowledgeSourceList = z.output<typeof C.KnowledgeSourceList>;

// admin
export type NodeKind = z.output<typeof C.NodeKind>;
export type CreateNodeRequest = z.input<typeof C.CreateNodeBody>;
export type Node = z.output<typeof C.Node>;
export type NodeWithConfig = z.output<typeof C.NodeWithConfig>;
export type NodeList = z.output<typeof C.NodeList>;
export type Permission = z.output<typeof C.Permission>;
export type CreateTokenRequest = z.input<typeof C.IssueTokenBody>;
/** The full `<token_id>.<secret>` is in `token`, shown only in this answer. */
export type CreatedToken = z.output<typeof C.IssuedToken>;
export type TokenInfo = z.output<typeof C.TokenInfo>;
export type TokenList = z.output<typeof C.TokenList>;
export type ListChangeRequestsQuery = QueryOf<typeof C.ChangeRequestsQuery>;
export type DecideChangeRequest = z.input<typeof C.DecisionBody>;

// auth
/** GET /whoami: the caller (kind, identity as audit shows it, team, permissions). */
export type Caller = z.output<typeof C.Caller>;

// webhooks
export type WebhookDelivery = z.output<typeof C.WebhookDelivery>;
export type ListWebhookDeliveriesQuery = QueryOf<typeof C.ListWebhookDeliveriesQuery>;
export type ListWebhookDeliveriesResponse = z.output<typeof C.ListWebhookDeliveriesResponse>;
export type RedeliverResponse = z.output<typeof C.RedeliverResponse>;

// outside /api/v1 (plain express handlers, no contract schema)
export interface HealthResponse {
  status: string;
  services?: Record<string, string>;
}
