import { randomUUID } from 'node:crypto';
import {
  agentEnum,
  changeRequestStatusEnum,
  investigationStatusEnum,
  priorityEnum,
} from '@inquest/events';
import { secretScopeOf, type SecretScope } from '@inquest/secrets';
import type { DeliverySecretScope, NewDelivery } from '@inquest/store';
import type { TeamSettings } from './team-settings';

/** Webhook/chat event names (the `event` field of payloads and of the delivery log). */
export const NotificationEvents = {
  investigationComplete: 'investigation_complete',
  changeRequested: 'config_change_requested',
  changeApproved: 'config_change_approved',
  changeRejected: 'config_change_rejected',
} as const;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/**
 * A recommendation as webhooks show it ({priority, action, proposed_action}): the priority from
 * the enum, or the string of a producer built before it; never the proto's enum field.
 */
function recommendationOf(v: unknown): Json {
  const r = obj(v);
  const { priority_enum: _enum, ...rest } = r;
  const priority = priorityEnum.read(num(r['priority_enum']), str(r['priority'])) ?? r['priority'];
  return { ...rest, ...(priority === undefined ? {} : { priority }) };
}

/** The envelope every event carries; events without it are dropped as malformed. */
export interface EventEnvelope {
  event_id: string;
  occurred_at: string;
  team_id: string;
}

export function envelopeOf(data: unknown): EventEnvelope | undefined {
  const d = obj(data);
  const event_id = str(d['event_id']);
  const team_id = str(d['team_id']);
  if (!event_id || !team_id) return undefined;
  return { event_id, team_id, occurred_at: str(d['occurred_at']) ?? new Date().toISOString() };
}

/**
 * `investigation_complete` body, for every terminal investigation: the spec's fields plus
 * team_id, status (completed, failed or cancelled), agent, completed_at (when it ended), and
 * `error` {code, message} for a failed one.
 */
export function investigationCompletePayload(event: unknown): Json {
  const e = obj(event);
  const inv = obj(e['investigation']);
  const result = obj(inv['result']);
  const ended = str(inv['completed_at']) ?? str(inv['failed_at']) ?? str(inv['cancelled_at']);
  const payload: Json = {
    event: NotificationEvents.investigationComplete,
    investigation_id: str(inv['investigation_id']) ?? '',
    summary: str(result['summary']) ?? '',
    root_cause: obj(result['root_cause']),
    recommendations: arr(result['recommendations']).map(recommendationOf),
    team_id: str(e['team_id']) ?? str(inv['team_id']) ?? '',
    // the enums, or the strings of a producer built before them
    status:
      investigationStatusEnum.read(num(inv['status_enum']), str(inv['status'])) ??
      str(inv['status']) ??
      'completed',
    agent: agentEnum.read(num(inv['agent_enum']), str(inv['agent'])) ?? str(inv['agent']) ?? '',
    completed_at: ended ?? str(e['occurred_at']) ?? new Date().toISOString(),
  };
  const error = obj(inv['error']);
  if (str(error['code']) || str(error['message']))
    payload['error'] = {
      code: str(error['code']) ?? 'internal',
      message: str(error['message']) ?? '',
    };
  const alert = alertOf(inv['alert']);
  if (alert) payload['alert'] = alert;
  return payload;
}

/** The alert that started the investigation, as the webhook shows it (API-DECISIONS: "names the alert"). */
function alertOf(v: unknown): Json | undefined {
  const a = obj(v);
  const alertname = str(a['alertname']);
  if (!alertname) return undefined;
  const out: Json = {
    alertname,
    source: str(a['source']) ?? '',
    group_key: str(a['group_key']) ?? '',
    labels: obj(a['labels']),
  };
  for (const k of ['severity', 'starts_at', 'generator_url', 'external_id'] as const) {
    const s = str(a[k]);
    if (s) out[k] = s;
  }
  return out;
}

/** `config_change_*` body: the change request as the team may see it (no patch internals). */
export function changeRequestPayload(event: string, data: unknown): Json {
  const e = obj(data);
  const cr = obj(e['change_request']);
  const out: Json = {
    event,
    team_id: str(e['team_id']) ?? str(cr['team_id']) ?? '',
    change_request_id: str(cr['change_request_id']) ?? '',
    status:
      changeRequestStatusEnum.read(num(cr['status_enum']), str(cr['status'])) ??
      str(cr['status']) ??
      '',
    requested_by: str(cr['requested_by']) ?? '',
    requested_at: str(cr['requested_at']) ?? '',
    approvers: arr(cr['approvers']).filter((a) => typeof a === 'string'),
    changes: obj(cr['changes']),
    occurred_at: str(e['occurred_at']) ?? new Date().toISOString(),
  };
  for (const k of ['decided_by', 'decided_at', 'comment'] as const) {
    const v = str(cr[k]);
    if (v) out[k] = v;
  }
  const applied = cr['applied_version'];
  if (typeof applied === 'number' || (typeof applied === 'string' && /^\d+$/.test(applied))) {
    out['applied_version'] = Number(applied);
  }
  return out;
}

/**
 * A Slack mention: a user-group id (`S0123ABC`) becomes `<!subteam^ID>`, here/channel/everyone
 * become special mentions, anything else (a handle like `@oncall`) is shown as written.
 */
export function slackMention(group: string | undefined): string {
  if (!group) return '';
  const g = group.trim();
  if (/^S[A-Z0-9]{6,}$/.test(g)) return `<!subteam^${g}>`;
  const special = g.replace(/^[@!]/, '');
  if (['here', 'channel', 'everyone'].includes(special)) return `<!${special}>`;
  return g.startsWith('@') ? g : `@${g}`;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * The console page of an investigation: `{investigation_id}` in the console URL is replaced,
 * else `/investigations/<id>` is appended.
 */
export function consoleLink(consoleUrl: string, investigationId: string): string {
  const id = encodeURIComponent(investigationId);
  return consoleUrl.includes('{investigation_id}')
    ? consoleUrl.split('{investigation_id}').join(id)
    : `${consoleUrl.replace(/\/+$/, '')}/investigations/${id}`;
}

/**
 * Concise chat summary: root cause with confidence, top recommendations, and where to read the
 * rest: the console page when a console URL is configured, else the CLI command (never the API's
 * status URL: a browser opening it gets 401, it sends no token).
 */
export function investigationChatText(
  payload: Json,
  group: string | undefined,
  consoleUrl?: string,
): string {
  const rc = obj(payload['root_cause']);
  const recs = arr(payload['recommendations'])
    .map(obj)
    .slice(0, 3)
    .map((r) => `• [${str(r['priority']) ?? '-'}] ${clip(str(r['action']) ?? '', 200)}`);
  const id = String(payload['investigation_id']);
  const lines = [
    `${slackMention(group)} Investigation ${id} ${String(payload['status'])} (${String(payload['agent'])})`.trim(),
  ];
  const alert = obj(payload['alert']);
  const alertname = str(alert['alertname']);
  if (alertname) {
    const sev = str(alert['severity']);
    lines.push(
      `Alert *${clip(alertname, 200)}*${sev ? ` (${sev})` : ''} from ${str(alert['source']) ?? 'an alert sender'}`,
    );
  }
  const error = obj(payload['error']);
  if (str(error['code']))
    lines.push(`*Error* ${String(error['code'])}: ${clip(str(error['message']) ?? '', 300)}`);
  const summary = str(payload['summary']);
  if (summary) lines.push(clip(summary, 300));
  const rcText = str(rc['description']);
  if (rcText) {
    const conf =
      typeof rc['confidence'] === 'number' ? ` (confidence ${Math.round(rc['confidence'])}%)` : '';
    lines.push(`*Root cause*${conf}: ${clip(rcText, 300)}`);
  }
  if (recs.length) lines.push('*Top recommendations*', ...recs);
  lines.push(
    consoleUrl
      ? `<${consoleLink(consoleUrl, id)}|Open in the Inquest console>`
      : `Details: \`inquest status ${id}\``,
  );
  return lines.join('\n');
}

/** Chat text for a change-request event. */
export function changeRequestChatText(payload: Json, group: string | undefined): string {
  const fields = Object.keys(obj(payload['changes']));
  const what = fields.length ? `: ${clip(fields.join(', '), 300)}` : '';
  const id = String(payload['change_request_id']);
  const approvers = arr(payload['approvers']).join(', ') || 'no approvers configured';
  switch (payload['event']) {
    case NotificationEvents.changeRequested:
      return `${slackMention(group)} Configuration change ${id} requested by ${String(payload['requested_by'])} for team ${String(payload['team_id'])}${what}. Approvers: ${approvers}. Please review it.`.trim();
    case NotificationEvents.changeApproved:
      return `Configuration change ${id} (requested by ${String(payload['requested_by'])}) was approved by ${String(payload['decided_by'] ?? 'an approver')}${payload['applied_version'] !== undefined ? ` and applied as version ${String(payload['applied_version'])}` : ''}${what}.`;
    default:
      return `Configuration change ${id} (requested by ${String(payload['requested_by'])}) was rejected by ${String(payload['decided_by'] ?? 'an approver')}${payload['comment'] ? `: ${clip(String(payload['comment']), 300)}` : ''}.`;
  }
}

/**
 * The pending-approval message with Approve / Reject buttons, answered by the gateway's Slack
 * interactivity URL (`value` is `<team_id>:<change_request_id>`; only approvers may use them).
 */
export function changeRequestBlocks(payload: Json, text: string): Json[] {
  const value = `${String(payload['team_id'])}:${String(payload['change_request_id'])}`;
  return [
    { type: 'section', text: { type: 'mrkdwn', text: clip(text, 2900) } },
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: 'inquest_approve',
          style: 'primary',
          text: { type: 'plain_text', text: 'Approve' },
          value,
        },
        {
          type: 'button',
          action_id: 'inquest_reject',
          style: 'danger',
          text: { type: 'plain_text', text: 'Reject' },
          value,
        },
      ],
    },
  ];
}

export interface PlanContext {
  settings: TeamSettings;
  /** INQUEST_CONSOLE_URL: chat messages link there when set */
  consoleUrl?: string;
  now: string;
  newId?: () => string;
}

const deliveryId = () => `dlv_${randomUUID().replace(/-/g, '')}`;

/**
 * The deliveries one event asks for, given the team's settings: a webhook when the event's
 * receiver is set (investigation_complete to webhooks.investigation_complete, the change-request
 * decisions to webhooks.config_change, never the other one), a chat message when a channel and a
 * bot token are. Keys make a redelivered event record each delivery once.
 */
export function planDeliveries(
  envelope: EventEnvelope,
  event: string,
  payload: Json,
  ctx: PlanContext,
  options: { webhook: boolean; chat: boolean },
): NewDelivery[] {
  const newId = ctx.newId ?? deliveryId;
  const base = {
    team_id: envelope.team_id,
    event,
    event_id: envelope.event_id,
    next_attempt_at: ctx.now,
    created_at: ctx.now,
  };
  const out: NewDelivery[] = [];
  const s = ctx.settings;
  const webhookUrl =
    event === NotificationEvents.investigationComplete ? s.webhookUrl : s.configChangeUrl;
  if (options.webhook && webhookUrl) {
    out.push({
      ...base,
      delivery_id: newId(),
      dedupe_key: `${envelope.event_id}:${event}:webhook`,
      channel: 'webhook',
      target: webhookUrl,
      payload,
      ...(s.signingSecretRef
        ? {
            secret_ref: s.signingSecretRef,
            secret_scope: scopeFor(s.signingSecretScope, envelope.team_id),
          }
        : {}),
    });
  }
  if (options.chat && s.chatChannel && s.slackTokenRef) {
    const text =
      event === NotificationEvents.investigationComplete
        ? investigationChatText(payload, s.chatGroupToPing, ctx.consoleUrl)
        : changeRequestChatText(payload, s.chatGroupToPing);
    out.push({
      ...base,
      delivery_id: newId(),
      dedupe_key: `${envelope.event_id}:${event}:chat`,
      channel: 'chat',
      target: s.chatChannel,
      payload: {
        channel: s.chatChannel,
        text,
        unfurl_links: false,
        unfurl_media: false,
        ...(event === NotificationEvents.changeRequested
          ? { blocks: changeRequestBlocks(payload, text) }
          : {}),
      },
      secret_ref: s.slackTokenRef,
      secret_scope: scopeFor(s.slackTokenScope, envelope.team_id),
    });
  }
  return out;
}

/** The scope kept with a delivery: the one the settings name, else the team's own. */
function scopeFor(scope: SecretScope | undefined, teamId: string): DeliverySecretScope {
  const s = scope ?? secretScopeOf(teamId);
  return { owner: s.owner, prefixes: [...s.prefixes] };
}
