import { Transport } from './transport';
import type { ApiRequest, RequestOptions, TransportOptions } from './transport';
import { pollInvestigation } from './wait-for-investigation';
import type { WaitOptions } from './wait-for-investigation';
import type {
  AnswerRequest,
  AnswerResponse,
  AuditQuery,
  AuditResponse,
  CancelInvestigationResponse,
  Caller,
  ChangeRequest,
  ChangeRequestList,
  ConfigPatch,
  ConfigUpdateApplied,
  ConfigUpdatePending,
  ConfigUpdateResponse,
  CreateNodeRequest,
  CreateTokenRequest,
  CreatedToken,
  DecideChangeRequest,
  DocumentStatus,
  FeedbackRequest,
  GraphQuery,
  GraphResponse,
  HealthResponse,
  KnowledgeSourceList,
  ListWebhookDeliveriesQuery,
  ListWebhookDeliveriesResponse,
  PendingChanges,
  RedeliverResponse,
  Investigation,
  InvestigationListItem,
  ListChangeRequestsQuery,
  ListInvestigationsQuery,
  ListInvestigationsResponse,
  Node,
  NodeList,
  NodeWithConfig,
  PatternsQuery,
  PatternsResponse,
  RawConfigResponse,
  TeamToolsQuery,
  TeamToolsResponse,
  EffectiveConfig,
  RetrieveRequest,
  RetrieveResponse,
  RunInvestigationAsyncResponse,
  RunInvestigationRequest,
  RunInvestigationSyncResponse,
  TeachRequest,
  TeachResponse,
  TokenList,
  TreeStats,
  UploadDocumentRequest,
} from './types';

export type InquestClientOptions = TransportOptions;

const seg = (s: string): string => encodeURIComponent(s);

abstract class Resource {
  constructor(protected readonly t: Transport) {}
  protected async call<T>(req: ApiRequest, opts?: RequestOptions): Promise<T> {
    return (await this.t.request<T>(req, opts)).body;
  }
}

/** `/agents/*`: investigations. */
export class AgentsApi extends Resource {
  /** Synchronous run: waits for the result (200). */
  run(
    body: RunInvestigationRequest & { async?: false },
    opts?: RequestOptions,
  ): Promise<RunInvestigationSyncResponse>;
  /** Asynchronous run: answers at once with a poll URL (202). */
  run(
    body: RunInvestigationRequest & { async: true },
    opts?: RequestOptions,
  ): Promise<RunInvestigationAsyncResponse>;
  run(
    body: RunInvestigationRequest,
    opts?: RequestOptions,
  ): Promise<RunInvestigationSyncResponse | RunInvestigationAsyncResponse>;
  run(
    body: RunInvestigationRequest,
    opts?: RequestOptions,
  ): Promise<RunInvestigationSyncResponse | RunInvestigationAsyncResponse> {
    return this.call({ method: 'POST', path: '/agents/run', body }, opts);
  }

  status(investigationId: string, opts?: RequestOptions): Promise<Investigation> {
    return this.call({ method: 'GET', path: `/agents/status/${seg(investigationId)}` }, opts);
  }

  list(
    query: ListInvestigationsQuery = {},
    opts?: RequestOptions,
  ): Promise<ListInvestigationsResponse> {
    return this.call({ method: 'GET', path: '/agents/investigations', query: { ...query } }, opts);
  }

  /**
   * Every investigation matching the filters, newest first, fetched a page at a time.
   * `for await (const inv of client.agents.listAll({ status: 'failed' })) ...`
   */
  async *listAll(
    query: Omit<ListInvestigationsQuery, 'offset' | 'limit'> & { pageSize?: number } = {},
    opts?: RequestOptions,
  ): AsyncGenerator<InvestigationListItem, void, undefined> {
    const { pageSize = 100, ...filters } = query;
    let offset = 0;
    for (;;) {
      const page = await this.list({ ...filters, limit: pageSize, offset }, opts);
      for (const item of page.investigations) yield item;
      offset += page.investigations.length;
      if (page.investigations.length === 0 || offset >= page.pagination.total) return;
    }
  }

  cancel(investigationId: string, opts?: RequestOptions): Promise<CancelInvestigationResponse> {
    return this.call(
      { method: 'POST', path: `/agents/status/${seg(investigationId)}/cancel` },
      opts,
    );
  }

  /** Polls until completed, failed or cancelled (1 s doubling, 10 s cap, 300 s overall by default). */
  waitForInvestigation(
    investigationId: string,
    opts: WaitOptions & { team?: string } = {},
  ): Promise<Investigation> {
    return pollInvestigation(
      investigationId,
      (id, signal) => this.status(id, { signal, team: opts.team }),
      opts,
    );
  }
}

/** `/config/me/*`: the calling team's configuration. */
export class ConfigApi extends Resource {
  /** The merged configuration of the team, with its `version`. */
  effective(opts?: RequestOptions): Promise<EffectiveConfig> {
    return this.call({ method: 'GET', path: '/config/me/effective' }, opts);
  }

  raw(opts?: RequestOptions): Promise<RawConfigResponse> {
    return this.call({ method: 'GET', path: '/config/me/raw' }, opts);
  }

  audit(query: AuditQuery = {}, opts?: RequestOptions): Promise<AuditResponse> {
    return this.call({ method: 'GET', path: '/config/me/audit', query: { ...query } }, opts);
  }

  /**
   * Applies `changes` to the team overrides as a JSON Merge Patch (RFC 7396): objects merge, `null`
   * removes the team's own key (the inherited value applies again), arrays and scalars replace.
   * 200 applied, or 202 with a change request when approval is required.
   */
  update(changes: ConfigPatch, opts?: RequestOptions): Promise<ConfigUpdateResponse> {
    return this.call({ method: 'PUT', path: '/config/me', body: changes }, opts);
  }

  pending(opts?: RequestOptions): Promise<PendingChanges> {
    return this.call({ method: 'GET', path: '/config/me/pending' }, opts);
  }

  /** As a listed approver (not the requester): applies the pending change as one new version. */
  approve(
    id: string,
    body: DecideChangeRequest = {},
    opts?: RequestOptions,
  ): Promise<ChangeRequest> {
    return this.call({ method: 'POST', path: `/config/me/pending/${seg(id)}/approve`, body }, opts);
  }

  /** As a listed approver (not the requester): rejects the pending change. */
  reject(
    id: string,
    body: DecideChangeRequest = {},
    opts?: RequestOptions,
  ): Promise<ChangeRequest> {
    return this.call({ method: 'POST', path: `/config/me/pending/${seg(id)}/reject`, body }, opts);
  }
}

/** True when a config update was parked for approval (202) instead of applied. */
export function isPendingApproval(res: ConfigUpdateResponse): res is ConfigUpdatePending {
  return (res as ConfigUpdatePending).change_request_id !== undefined;
}

/** True when a config update was applied (200). */
export function isApplied(res: ConfigUpdateResponse): res is ConfigUpdateApplied {
  return (res as ConfigUpdateApplied).version !== undefined;
}

/** `/kb/*`: the knowledge base. */
export class KnowledgeApi extends Resource {
  teach(body: TeachRequest, opts?: RequestOptions): Promise<TeachResponse> {
    return this.call({ method: 'POST', path: '/kb/teach', body }, opts);
  }

  retrieve(body: RetrieveRequest, opts?: RequestOptions): Promise<RetrieveResponse> {
    return this.call({ method: 'POST', path: '/kb/retrieve', body }, opts);
  }

  answer(body: AnswerRequest, opts?: RequestOptions): Promise<AnswerResponse> {
    return this.call({ method: 'POST', path: '/kb/answer', body }, opts);
  }

  async feedback(body: FeedbackRequest, opts?: RequestOptions): Promise<void> {
    await this.call({ method: 'POST', path: '/kb/feedback', body }, opts);
  }

  treeStats(opts?: RequestOptions): Promise<TreeStats> {
    return this.call({ method: 'GET', path: '/kb/tree/stats' }, opts);
  }

  status(documentId: string, opts?: RequestOptions): Promise<DocumentStatus> {
    return this.call(
      { method: 'GET', path: '/kb/status', query: { document_id: documentId } },
      opts,
    );
  }

  /** Deletes a document of the team (and its chunks); a NotFound error when the team has none. */
  async deleteDocument(documentId: string, opts?: RequestOptions): Promise<void> {
    await this.call({ method: 'DELETE', path: `/kb/documents/${seg(documentId)}` }, opts);
  }

  /** Learned patterns (extension), optionally ranked by match with `query`. */
  patterns(query: PatternsQuery = {}, opts?: RequestOptions): Promise<PatternsResponse> {
    return this.call({ method: 'GET', path: '/kb/patterns', query: { ...query } }, opts);
  }

  /** Knowledge-graph neighbourhood of an entity (extension). */
  graph(
    entity: string,
    query: Omit<GraphQuery, 'entity'> = {},
    opts?: RequestOptions,
  ): Promise<GraphResponse> {
    return this.call({ method: 'GET', path: '/kb/graph', query: { entity, ...query } }, opts);
  }

  /** Markdown upload; answers like teach. */
  uploadDocument(body: UploadDocumentRequest, opts?: RequestOptions): Promise<TeachResponse> {
    return this.call({ method: 'POST', path: '/kb/documents', body }, opts);
  }

  /** The team's knowledge sources (extension) with each one's last sync, outcome and error. */
  sources(opts?: RequestOptions): Promise<KnowledgeSourceList> {
    return this.call({ method: 'GET', path: '/kb/sources' }, opts);
  }

  /**
   * Syncs every knowledge source of the team now (write permission) and answers once done, with
   * each source's status; a failed source is an `error` state, not a rejected promise. A sync can
   * take minutes: pass a `timeoutMs` to match.
   */
  syncSources(opts?: RequestOptions): Promise<KnowledgeSourceList> {
    return this.call({ method: 'POST', path: '/kb/sources/sync' }, opts);
  }
}

/** `/webhooks/*`: the team's delivery log. */
export class WebhooksApi extends Resource {
  /** Recent webhook and chat deliveries of the team, newest first. */
  deliveries(
    query: ListWebhookDeliveriesQuery = {},
    opts?: RequestOptions,
  ): Promise<ListWebhookDeliveriesResponse> {
    return this.call({ method: 'GET', path: '/webhooks/deliveries', query: { ...query } }, opts);
  }

  /** Sends a finished delivery again (same event, body and webhook-id). */
  redeliver(deliveryId: string, opts?: RequestOptions): Promise<RedeliverResponse> {
    return this.call(
      { method: 'POST', path: `/webhooks/deliveries/${seg(deliveryId)}/redeliver` },
      opts,
    );
  }
}

/** `/tools`: the team's tool servers and tools. */
export class ToolsApi extends Resource {
  /**
   * Each enabled tool server of the team with health and breaker state, its tools with
   * description, schema, read-only/destructive marks and the agents that get each.
   */
  list(query: TeamToolsQuery = {}, opts?: RequestOptions): Promise<TeamToolsResponse> {
    return this.call({ method: 'GET', path: '/tools', query: { ...query } }, opts);
  }
}

/** `/admin/*`: organization administration (admin token only). */
export class AdminApi extends Resource {
  createNode(body: CreateNodeRequest, opts?: RequestOptions): Promise<Node> {
    return this.call({ method: 'POST', path: '/admin/nodes', body }, opts);
  }

  getNode(nodeId: string, opts?: RequestOptions): Promise<NodeWithConfig> {
    return this.call({ method: 'GET', path: `/admin/nodes/${seg(nodeId)}` }, opts);
  }

  listNodes(query: { parent_id?: string } = {}, opts?: RequestOptions): Promise<NodeList> {
    return this.call({ method: 'GET', path: '/admin/nodes', query: { ...query } }, opts);
  }

  /** Any node's audit: its changes and those made above it, newest first, paged. */
  nodeAudit(nodeId: string, query: AuditQuery = {}, opts?: RequestOptions): Promise<AuditResponse> {
    return this.call(
      { method: 'GET', path: `/admin/nodes/${seg(nodeId)}/audit`, query: { ...query } },
      opts,
    );
  }

  updateNodeConfig(
    nodeId: string,
    changes: ConfigPatch,
    opts?: RequestOptions,
  ): Promise<ConfigUpdateApplied> {
    return this.call(
      { method: 'PUT', path: `/admin/nodes/${seg(nodeId)}/config`, body: changes },
      opts,
    );
  }

  createToken(
    teamNodeId: string,
    body: CreateTokenRequest,
    opts?: RequestOptions,
  ): Promise<CreatedToken> {
    return this.call(
      { method: 'POST', path: `/admin/nodes/${seg(teamNodeId)}/tokens`, body },
      opts,
    );
  }

  listTokens(teamNodeId: string, opts?: RequestOptions): Promise<TokenList> {
    return this.call({ method: 'GET', path: `/admin/nodes/${seg(teamNodeId)}/tokens` }, opts);
  }

  async revokeToken(tokenId: string, opts?: RequestOptions): Promise<void> {
    await this.call({ method: 'DELETE', path: `/admin/tokens/${seg(tokenId)}` }, opts);
  }

  listChangeRequests(
    query: ListChangeRequestsQuery = {},
    opts?: RequestOptions,
  ): Promise<ChangeRequestList> {
    return this.call({ method: 'GET', path: '/admin/change-requests', query: { ...query } }, opts);
  }

  approveChangeRequest(
    id: string,
    body: DecideChangeRequest = {},
    opts?: RequestOptions,
  ): Promise<ChangeRequest> {
    return this.call(
      { method: 'POST', path: `/admin/change-requests/${seg(id)}/approve`, body },
      opts,
    );
  }

  rejectChangeRequest(
    id: string,
    body: DecideChangeRequest = {},
    opts?: RequestOptions,
  ): Promise<ChangeRequest> {
    return this.call(
      { method: 'POST', path: `/admin/change-requests/${seg(id)}/reject`, body },
      opts,
    );
  }
}

/**
 * The official Inquest client. Works wherever `fetch` exists (Node 20, browsers).
 *
 * ```ts
 * const inquest = new InquestClient({ baseUrl: 'http://localhost:8080', token: process.env.INQUEST_TOKEN });
 * const { investigation_id } = await inquest.agents.run({ agent_name: 'planner', message: 'api 5xx', async: true });
 * const done = await inquest.waitForInvestigation(investigation_id);
 * ```
 */
export class InquestClient {
  readonly agents: AgentsApi;
  readonly config: ConfigApi;
  readonly kb: KnowledgeApi;
  readonly webhooks: WebhooksApi;
  readonly tools: ToolsApi;
  readonly admin: AdminApi;
  private readonly transport: Transport;

  constructor(options: InquestClientOptions) {
    this.transport = new Transport(options);
    this.agents = new AgentsApi(this.transport);
    this.config = new ConfigApi(this.transport);
    this.kb = new KnowledgeApi(this.transport);
    this.webhooks = new WebhooksApi(this.transport);
    this.tools = new ToolsApi(this.transport);
    this.admin = new AdminApi(this.transport);
  }

  /** The versioned API root, e.g. `http://localhost:8080/api/v1`. */
  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** Same as `agents.waitForInvestigation`. */
  waitForInvestigation(
    investigationId: string,
    opts?: WaitOptions & { team?: string },
  ): Promise<Investigation> {
    return this.agents.waitForInvestigation(investigationId, opts);
  }

  /**
   * `GET /whoami`: who the service takes this client's credential for (kind, the identity audit
   * entries and change requests show, team, permissions). An admin token needs `team`.
   */
  whoami(opts?: RequestOptions): Promise<Caller> {
    return this.request<Caller>({ method: 'GET', path: '/whoami' }, opts);
  }

  /** `GET /healthz` (no token). */
  async health(opts?: RequestOptions): Promise<HealthResponse> {
    return (
      await this.transport.request<HealthResponse>(
        { method: 'GET', path: '/healthz', unversioned: true, noAuth: true },
        opts,
      )
    ).body;
  }

  /** `GET /readyz` (no token); throws `unavailable` when a dependency is down. */
  async ready(opts?: RequestOptions): Promise<HealthResponse> {
    return (
      await this.transport.request<HealthResponse>(
        { method: 'GET', path: '/readyz', unversioned: true, noAuth: true },
        opts,
      )
    ).body;
  }

  /** The OpenAPI 3.1 document of the running service. */
  async openapi(opts?: RequestOptions): Promise<Record<string, unknown>> {
    return (
      await this.transport.request<Record<string, unknown>>(
        { method: 'GET', path: '/openapi.json', noAuth: true },
        opts,
      )
    ).body;
  }

  /** Escape hatch for endpoints newer than this client; same auth, errors and retries. */
  async request<T = unknown>(req: ApiRequest, opts?: RequestOptions): Promise<T> {
    return (await this.transport.request<T>(req, opts)).body;
  }
}
