import {
  CancelInvestigationResponse,
  InvestigationIdParams,
  type InvestigationAlert,
  InvestigationList,
  InvestigationStatusResponse,
  ListInvestigationsQuery,
  RunAgentAccepted,
  RunAgentRequest,
  RunAgentResponse,
} from '@inquest/api-contract';
import { internal } from '@inquest/errors';
import type { investigationV1 } from '@inquest/proto';
import {
  agentNameFields,
  listFilterFields,
  readInvestigation,
  type InvestigationView,
} from '../grpc/investigation-messages';
import { defineRoute, type RouteDef } from '../http/route';
import { isoTime } from './alert-payloads';
import type { GatewayDeps } from './gateway-deps';
import { err, teamOf } from './route-helpers';

/** A sync run may take as long as the agent's timeout (default 300 s, configurable per team). */
const SYNC_RUN_TIMEOUT_MS = 3_600_000;

function must(inv: investigationV1.Investigation | undefined): InvestigationView {
  if (!inv) throw internal('investigation-runner answered without an investigation');
  return readInvestigation(inv);
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

function resultOf(inv: InvestigationView): RunAgentResponse['result'] {
  const r = inv.result;
  if (!r) return undefined;
  return {
    summary: r.summary,
    root_cause: r.root_cause ?? { description: '', confidence: 0, evidence: [] },
    timeline: r.timeline,
    affected_systems: r.affected_systems,
    recommendations: r.recommendations.map((x) => ({
      priority: x.priority,
      action: x.action,
      ...(x.proposed_action?.tool
        ? {
            proposed_action: {
              tool: x.proposed_action.tool,
              parameters: (x.proposed_action.parameters ?? {}) as Record<string, unknown>,
            },
          }
        : {}),
    })),
  };
}

function alertOf(a: investigationV1.AlertRef): InvestigationAlert {
  const out: InvestigationAlert = {
    source: a.source as InvestigationAlert['source'],
    alertname: a.alertname,
    group_key: a.group_key,
    labels: { ...a.labels },
  };
  for (const k of ['severity', 'generator_url', 'external_id'] as const) {
    const v = a[k];
    if (v !== undefined) out[k] = v;
  }
  // a time stored as its sender wrote it (before the intake normalized them) is shown like the rest
  const startsAt = isoTime(a.starts_at);
  if (startsAt !== undefined) out.starts_at = startsAt;
  return out;
}

/** GET /agents/status body: the fields of its status (API-DECISIONS.md "Investigations"). */
export function statusBody(inv: InvestigationView, now = Date.now()): InvestigationStatusResponse {
  const body: InvestigationStatusResponse = {
    investigation_id: inv.investigation_id,
    status: inv.status,
    agent: inv.agent,
    message: inv.message,
    context: inv.context as InvestigationStatusResponse['context'],
    created_at: inv.created_at,
  };
  if (inv.alert) body.alert = alertOf(inv.alert);
  switch (inv.status) {
    case 'running':
      body.progress = inv.progress ?? {
        current_step: 'starting',
        steps_completed: 0,
        steps_total: 0,
      };
      body.started_at = inv.started_at ?? inv.created_at;
      body.elapsed_seconds = round3(Math.max(0, now - Date.parse(body.started_at)) / 1000);
      break;
    case 'completed':
      body.result = resultOf(inv);
      body.tools_used = inv.tools_used;
      body.started_at = inv.started_at;
      body.completed_at = inv.completed_at;
      body.duration_seconds = inv.duration_seconds ?? 0;
      break;
    case 'failed':
      body.error = inv.error ?? { code: 'internal', message: 'internal error' };
      body.started_at = inv.started_at;
      body.failed_at = inv.failed_at;
      body.tools_used = inv.tools_used;
      if (inv.duration_seconds !== undefined) body.duration_seconds = inv.duration_seconds;
      break;
    case 'cancelled':
      if (inv.started_at) body.started_at = inv.started_at;
      body.cancelled_at = inv.cancelled_at;
      break;
    default:
      break;
  }
  return body;
}

type ListItem = InvestigationList['investigations'][number];

/** One row of GET /agents/investigations: the spec's fields, plus service and root cause when known. */
export function listItem(inv: InvestigationView): ListItem {
  const item: ListItem = {
    investigation_id: inv.investigation_id,
    status: inv.status,
    agent: inv.agent,
    message: inv.message,
    created_at: inv.created_at,
  };
  if (inv.context?.service) item.service = inv.context.service;
  const rc = inv.status === 'completed' ? inv.result?.root_cause : undefined;
  if (rc?.description) {
    item.root_cause = rc.description;
    item.confidence = rc.confidence;
  }
  return item;
}

/** Routes of /agents/*: run, status, list and cancel investigations. */
export function agentsRoutes({ clients }: GatewayDeps): RouteDef[] {
  const runner = clients.investigation;
  return [
    defineRoute({
      method: 'post',
      path: '/agents/run',
      summary: 'Trigger an investigation',
      description:
        'Sync (default): answers 200 when the investigation ends (status completed, or failed with error, e.g. timeout past the agent timeout). Async: answers 202 at once with poll_url. A read-only team token may start investigations: they only read (they never call a tool that can change anything); write permission is for what persists (config, knowledge base, webhook redeliveries).',
      tags: ['agents'],
      auth: 'team',
      permission: 'read',
      rateClass: 'trigger',
      body: RunAgentRequest,
      timeoutMs: SYNC_RUN_TIMEOUT_MS,
      responses: {
        200: { description: 'The finished investigation (sync run)', schema: RunAgentResponse },
        202: { description: 'Accepted (async run)', schema: RunAgentAccepted },
        400: err(
          'invalid_request: missing or unknown agent, disabled agent, bad message or context',
        ),
        401: err('unauthorized'),
        429: err('rate_limited'),
      },
      handler: async (req) => {
        const isAsync = req.body.async === true;
        const res = await runner.runInvestigation(
          {
            team_id: teamOf(req),
            ...agentNameFields(req.body.agent_name),
            message: req.body.message,
            context: req.body.context ?? {},
            async: isAsync,
            requested_by: req.auth.identity,
          },
          { ctx: req.ctx, signal: req.signal, deadlineMs: isAsync ? 10_000 : SYNC_RUN_TIMEOUT_MS },
        );
        const inv = must(res.investigation);
        if (isAsync) {
          const body: RunAgentAccepted = {
            investigation_id: inv.investigation_id,
            // the spec's transition table: an accepted async run reports running
            status: 'running',
            poll_url: `/api/v1/agents/status/${inv.investigation_id}`,
            created_at: inv.created_at,
          };
          return { status: 202, body, headers: { Location: body.poll_url } };
        }
        const body: RunAgentResponse = {
          investigation_id: inv.investigation_id,
          status: inv.status,
          duration_seconds: inv.duration_seconds ?? 0,
          result: resultOf(inv),
          tools_used: inv.tools_used,
          created_at: inv.created_at,
        };
        if (inv.status === 'failed')
          body.error = inv.error ?? { code: 'internal', message: 'internal error' };
        return { status: 200, body };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/agents/status/:investigation_id',
      summary: 'Status and result of an investigation',
      description:
        'Poll with exponential backoff from 1 s, doubling, capped at 10 s between polls; stop on completed, failed or cancelled.',
      tags: ['agents'],
      auth: 'team',
      permission: 'read',
      params: InvestigationIdParams,
      responses: {
        200: {
          description: 'The investigation; fields by status',
          schema: InvestigationStatusResponse,
        },
        404: err("Unknown investigation, or another team's"),
      },
      handler: async (req) => {
        const res = await runner.getInvestigation(
          { team_id: teamOf(req), investigation_id: req.params.investigation_id },
          { ctx: req.ctx, signal: req.signal },
        );
        return { status: 200, body: statusBody(must(res.investigation)) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/agents/investigations',
      summary: 'Recent investigations of the team',
      tags: ['agents'],
      auth: 'team',
      permission: 'read',
      query: ListInvestigationsQuery,
      responses: {
        200: { description: 'Newest first', schema: InvestigationList },
        400: err('Bad limit, offset, status or agent'),
      },
      handler: async (req) => {
        const res = await runner.listInvestigations(
          {
            team_id: teamOf(req),
            limit: req.query.limit,
            offset: req.query.offset,
            ...listFilterFields({ status: req.query.status, agent: req.query.agent }),
          },
          { ctx: req.ctx, signal: req.signal },
        );
        const body: InvestigationList = {
          investigations: res.investigations.map((inv) => listItem(readInvestigation(inv))),
          pagination: { total: res.total, limit: req.query.limit, offset: req.query.offset },
        };
        return { status: 200, body };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/agents/status/:investigation_id/cancel',
      summary: 'Cancel a pending or running investigation',
      description:
        "Needs read permission, like starting one: whoever may start the team's investigations may stop them; cancelling changes no configuration or knowledge.",
      tags: ['agents'],
      auth: 'team',
      permission: 'read',
      params: InvestigationIdParams,
      responses: {
        200: { description: 'Cancelled', schema: CancelInvestigationResponse },
        404: err("Unknown investigation, or another team's"),
        409: err('conflict: already completed, failed or cancelled'),
      },
      handler: async (req) => {
        const res = await runner.cancelInvestigation(
          { team_id: teamOf(req), investigation_id: req.params.investigation_id },
          { ctx: req.ctx, signal: req.signal },
        );
        const inv = must(res.investigation);
        const body: CancelInvestigationResponse = {
          investigation_id: inv.investigation_id,
          status: 'cancelled',
          cancelled_at: inv.cancelled_at ?? new Date().toISOString(),
        };
        return { status: 200, body };
      },
    }),
  ];
}
